// Generated from openapi/pos.json by scripts/generate-types.ts (openapi-typescript). Do not edit.

export interface paths {
  '/v1/api-public/events': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * The events of a place, most recently registered first, searchable by name, in cursor pages.
     * @description Permission `event.view`. Limit class default.
     *
     *     The next page is the same call with `cursor=<next_cursor>`; null means no more. Keep `place` and `search` unchanged while paging (with another `search` the result is undefined). Time limit of the list: 3 seconds, then 503 `temporarily_unavailable` with `Retry-After` 60.
     */
    get: operations['listEvents'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/api-public/orders': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Planned: orders in a period.
     * @description Any valid key; no permission is required (planned route). Limit class default.
     *
     *     **Planned.** Documented and checked as the contract says, then answered 501 `not_implemented`; parameters and responses are provisional, outside the v1 promise. Not to be integrated until announced.
     */
    get: operations['listOrders'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/api-public/orders/{order_id}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Planned: one order.
     * @description Any valid key; no permission is required (planned route). Limit class default.
     *
     *     **Planned.** Documented and checked as the contract says, then answered 501 `not_implemented`; parameters and responses are provisional, outside the v1 promise. Not to be integrated until announced.
     */
    get: operations['getOrder'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/api-public/ping': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * The key, its account and its limits: a check that the integration is set up.
     * @description Any valid key, no permission. Limit class default.
     */
    get: operations['ping'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/api-public/places': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * The places the key reaches.
     * @description Any valid key, no permission. Limit class default.
     */
    get: operations['listPlaces'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/api-public/products': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Planned: the products of the places.
     * @description Any valid key; no permission is required (planned route). Limit class default.
     *
     *     **Planned.** Documented and checked as the contract says, then answered 501 `not_implemented`; parameters and responses are provisional, outside the v1 promise. Not to be integrated until announced.
     */
    get: operations['listProducts'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/api-public/sales/by-day': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Planned: sales day by day.
     * @description Any valid key; no permission is required (planned route). Limit class heavy.
     *
     *     **Planned.** Documented and checked as the contract says, then answered 501 `not_implemented`; parameters and responses are provisional, outside the v1 promise. Not to be integrated until announced.
     */
    get: operations['getSalesByDay'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/api-public/sales/by-payment-method': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Receipts of a place (optionally one event) in a period, by payment method and card brand.
     * @description Permission `sale-by-payment-method.view`. Limit class heavy.
     *
     *     One place per call; for several places call once per place and sum `amount` as decimals and `count` as integers, never `share`. The query filters by the time the receipt happened on the store’s device: sales made offline enter the period when they happened, so re-query the last 3 days and replace stored values. With `event`, only receipts recorded with that event count. Do not fire sales queries in parallel: at most 2 per account run at once (429 with `Retry-After` 5 beyond). Query time limit 15 seconds, then 503 `temporarily_unavailable` with `Retry-After` 60; reduce the period if it persists.
     */
    get: operations['getSalesByPaymentMethod'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/api-public/sales/by-place': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Planned: sales by place.
     * @description Any valid key; no permission is required (planned route). Limit class heavy.
     *
     *     **Planned.** Documented and checked as the contract says, then answered 501 `not_implemented`; parameters and responses are provisional, outside the v1 promise. Not to be integrated until announced.
     */
    get: operations['getSalesByPlace'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/api-public/sales/by-product': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Planned: sales by product.
     * @description Any valid key; no permission is required (planned route). Limit class heavy.
     *
     *     **Planned.** Documented and checked as the contract says, then answered 501 `not_implemented`; parameters and responses are provisional, outside the v1 promise. Not to be integrated until announced.
     */
    get: operations['getSalesByProduct'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/api-public/sales/summary': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Planned: a summary of sales by place.
     * @description Any valid key; no permission is required (planned route). Limit class heavy.
     *
     *     **Planned.** Documented and checked as the contract says, then answered 501 `not_implemented`; parameters and responses are provisional, outside the v1 promise. Not to be integrated until announced.
     */
    get: operations['getSalesSummary'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
}
export type webhooks = Record<string, never>;
export interface components {
  schemas: {
    /**
     * @description One page, ordered from most recently registered to oldest; deactivated events are included. `starts_at` is null when the event has no date, `ends_at` when it has no valid end. `next_cursor` null: no more pages.
     * @example {
     *       "place": "REC01",
     *       "search": "arena",
     *       "data": [
     *         {
     *           "id": "FREVO",
     *           "name": "Frevo na Arena",
     *           "starts_at": "2026-02-14T18:00:00Z",
     *           "ends_at": "2026-02-15T06:00:00Z",
     *           "active": true
     *         }
     *       ],
     *       "next_cursor": null
     *     }
     */
    Events: {
      place: string;
      search: string | null;
      data: {
        id: string;
        name: string;
        starts_at: string | null;
        ends_at: string | null;
        active: boolean;
      }[];
      next_cursor: string | null;
    };
    /**
     * @description `credential.id` identifies the credential, not the secret: it stays the same when the key is rotated and differs on a newly created key. `rate_limit` is null when no limit is being applied at the moment (do not rely on it).
     * @example {
     *       "credential": {
     *         "id": "k7Qm2Xa9",
     *         "name": "ERP",
     *         "permissions": [
     *           "event.view",
     *           "sale-by-payment-method.view"
     *         ],
     *         "expires_at": "2027-06-01T02:59:59Z",
     *         "superseded": false,
     *         "superseded_until": null
     *       },
     *       "account": {
     *         "id": "acme",
     *         "name": "ACME Comércio"
     *       },
     *       "rate_limit": {
     *         "default_per_minute": 60,
     *         "heavy_per_minute": 10
     *       },
     *       "server_time": "2026-11-20T12:00:00Z",
     *       "api_version": "v1"
     *     }
     */
    Ping: {
      credential: {
        id: string;
        name: string;
        permissions: ('sale-by-payment-method.view' | 'event.view')[];
        expires_at: string;
        superseded: boolean;
        superseded_until: string | null;
      };
      account: {
        id: string;
        name: string;
      };
      rate_limit: {
        default_per_minute: number;
        heavy_per_minute: number;
      } | null;
      server_time: string;
      /** @constant */
      api_version: 'v1';
    };
    /**
     * @description `all`: true means the key covers all places of the account, including future ones. Deactivated places (`active: false`) are listed and remain queryable. Not paginated.
     * @example {
     *       "all": true,
     *       "data": [
     *         {
     *           "id": "SP01",
     *           "name": "Loja Paulista",
     *           "timezone": "America/Sao_Paulo",
     *           "active": true
     *         },
     *         {
     *           "id": "REC01",
     *           "name": "Arena Recife",
     *           "timezone": "America/Recife",
     *           "active": null
     *         }
     *       ]
     *     }
     */
    Places: {
      all: boolean;
      data: {
        id: string;
        name: string | null;
        timezone: string;
        active: boolean | null;
      }[];
    };
    /**
     * @description `from` and `to`: the period actually queried, in whole seconds (fractions rounded up). Money is text with a dot and two decimals (may be negative): convert to a decimal type, never floating point. `share` is the percentage of the period's total amount with three decimals (a brand's share too); the sum may differ from 100.000 by rounding. `data` lists only methods that had receipts, in the order of the payment-method table; `label` is a Portuguese display name (do not compare). `brands` is empty outside TEF methods; `brand: null` groups receipts without a brand, `OTHER` brands recorded outside the format. The total is gross of refunds.
     * @example {
     *       "from": "2026-10-01T03:00:00Z",
     *       "to": "2026-11-01T03:00:00Z",
     *       "place": "SP01",
     *       "event": null,
     *       "currency": "BRL",
     *       "total": {
     *         "count": 3,
     *         "amount": "150.00"
     *       },
     *       "data": [
     *         {
     *           "payment_method": "cash",
     *           "label": "Dinheiro",
     *           "count": 1,
     *           "amount": "50.00",
     *           "share": "33.333",
     *           "brands": []
     *         },
     *         {
     *           "payment_method": "tef_credit",
     *           "label": "TEF - Crédito",
     *           "count": 2,
     *           "amount": "100.00",
     *           "share": "66.667",
     *           "brands": [
     *             {
     *               "brand": "VISA",
     *               "count": 2,
     *               "amount": "100.00",
     *               "share": "66.667"
     *             }
     *           ]
     *         }
     *       ]
     *     }
     */
    SalesByPaymentMethod: {
      from: string;
      to: string;
      place: string;
      event: string | null;
      currency: string;
      total: {
        count: number;
        amount: string;
      };
      data: {
        /** @enum {string} */
        payment_method:
          | 'cash'
          | 'tef_virtual_wallet'
          | 'tef_credit'
          | 'tef_debit'
          | 'tef_voucher'
          | 'tef_voucher_2'
          | 'tef_others'
          | 'tef_pix'
          | 'tef_unspecified'
          | 'pos'
          | 'voucher'
          | 'not_identified'
          | 'other';
        label: string;
        count: number;
        amount: string;
        share: string;
        brands: {
          brand: string | null;
          count: number;
          amount: string;
          share: string;
        }[];
      }[];
    };
    /** @description Every error of this API: decide by status, then `code`. */
    Problem: {
      /**
       * @description Always `about:blank`.
       * @constant
       */
      type: 'about:blank';
      /** @description HTTP status name in English. */
      title: string;
      /** @description HTTP status. */
      status: number;
      /** @description English, human-readable, may change. Logic uses `code`. */
      detail: string;
      /** @description Open text: a code not known to the client is handled by status. */
      code?: string;
      /** @description The parameter to fix: on 422, and on 404 of a place (`place`) or event (`event`); absent when no parameter is at fault and on the 404 of a nonexistent address. */
      param?: string;
      /** @description Only on 401 of a key that worked before: `revoked`, `expired`, `paused`, `replaced` (unknown values: treat as the key is invalid, contact the merchant). */
      reason?: string;
      /** @description Only on 403 `forbidden_permission`: the single missing permission of the route. */
      required_permission?: string;
    };
    Problem400: components['schemas']['Problem'] & {
      /** @constant */
      status?: 400;
    };
    Problem401: components['schemas']['Problem'] & {
      /** @constant */
      status?: 401;
    };
    Problem403: components['schemas']['Problem'] & {
      /** @constant */
      status?: 403;
    };
    Problem404: components['schemas']['Problem'] & {
      /** @constant */
      status?: 404;
    };
    Problem405: components['schemas']['Problem'] & {
      /** @constant */
      status?: 405;
    };
    Problem415CodeOptional: components['schemas']['Problem'] & {
      /** @constant */
      status?: 415;
    };
    Problem422: components['schemas']['Problem'] & {
      /** @constant */
      status?: 422;
    };
    Problem429: components['schemas']['Problem'] & {
      /** @constant */
      status?: 429;
    };
    Problem500: components['schemas']['Problem'] & {
      /** @constant */
      status?: 500;
    };
    Problem501: components['schemas']['Problem'] & {
      /** @constant */
      status?: 501;
    };
    Problem503: components['schemas']['Problem'] & {
      /** @constant */
      status?: 503;
    };
  };
  responses: never;
  parameters: never;
  requestBodies: never;
  headers: never;
  pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
  listEvents: {
    parameters: {
      query: {
        /** @description Exactly one place id from `/places`; absent, empty or a list (`a,b`, `place[]`) gives 422; a place outside the key or nonexistent gives 404 with `param` `place` (nothing is queried). */
        place: string;
        /** @description Part of the event name, case- and accent-insensitive; `%`, `_` and backslash are plain text, not wildcards; a control or invisible character anywhere, or an empty value, gives 422. Keep it unchanged while paging. */
        search?: string;
        /** @description Page size; outside the range: 422. May change between pages without repeats or gaps. */
        limit?: number;
        /** @description `next_cursor` of the previous page; opaque and bound to the query. Used with another place: 422 `"cursor" does not belong to this query.`; not issued by the API, or its event deleted meanwhile: 422 `"cursor" is not valid.` (restart from the first page). It does not expire by time. */
        cursor?: string;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The events of a place, most recently registered first, searchable by name, in cursor pages. */
      200: {
        headers: {
          /** @description Made by the server for every response of the API (a client’s own header is not trusted). */
          'X-Request-Id': string;
          /** @description Calls per window. Absent: the limit was not measured on this call (never read as zero). Present on every authenticated response while the limits are measured. */
          'X-RateLimit-Limit'?: number;
          /** @description Calls left in the sliding window; 0 on 429. */
          'X-RateLimit-Remaining'?: number;
          /** @description Unix seconds by which the balance has grown by at least one call (an upper bound). */
          'X-RateLimit-Reset'?: number;
          /** @description `true`: the call was authenticated by the previous key of a rotation. Only on calls authenticated by the previous key of a rotation. */
          Deprecation?: 'true';
          /** @description When the previous key of the rotation stops working (an HTTP date). */
          Sunset?: string;
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "place": "REC01",
           *       "search": "arena",
           *       "data": [
           *         {
           *           "id": "FREVO",
           *           "name": "Frevo na Arena",
           *           "starts_at": "2026-02-14T18:00:00Z",
           *           "ends_at": "2026-02-15T06:00:00Z",
           *           "active": true
           *         }
           *       ],
           *       "next_cursor": null
           *     }
           */
          'application/json': components['schemas']['Events'];
        };
      };
      /**
       * @description Bad Request.
       *
       *     - `conflicting_credentials`: An identity header of another system was sent; before the key, not counted.
       */
      400: {
        headers: {
          /** @description Made by the server for every response of the API (a client’s own header is not trusted). */
          'X-Request-Id': string;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem400'];
        };
      };
      /**
       * @description Unauthorized.
       *
       *     - `invalid_token`: Key absent, wrong, revoked, paused, expired or replaced; `reason` only when the key worked before. Header `WWW-Authenticate: Bearer realm=…`.
       */
      401: {
        headers: {
          /** @description Made by the server for every response of the API (a client’s own header is not trusted). */
          'X-Request-Id': string;
          /** @description The scheme to authenticate with: Bearer. */
          'WWW-Authenticate': string;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem401'];
        };
      };
      /**
       * @description Forbidden.
       *
       *     - `forbidden_permission`: The key lacks the route’s permission; the body has `required_permission`.
       */
      403: {
        headers: {
          /** @description Made by the server for every response of the API (a client’s own header is not trusted). */
          'X-Request-Id': string;
          /** @description Calls per window. Absent: the limit was not measured on this call (never read as zero). */
          'X-RateLimit-Limit'?: number;
          /** @description Calls left in the sliding window; 0 on 429. */
          'X-RateLimit-Remaining'?: number;
          /** @description Unix seconds by which the balance has grown by at least one call (an upper bound). */
          'X-RateLimit-Reset'?: number;
          /** @description `true`: the call was authenticated by the previous key of a rotation. */
          Deprecation?: 'true';
          /** @description When the previous key of the rotation stops working (an HTTP date). */
          Sunset?: string;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem403'];
        };
      };
      /**
       * @description Not Found.
       *
       *     - `not_found`: `place` not reached by the key or nonexistent, or `event` not of that place (with `param`); or an `Accept` of another version (without `param`).
       */
      404: {
        headers: {
          /** @description Made by the server for every response of the API (a client’s own header is not trusted). */
          'X-Request-Id': string;
          /** @description Calls per window. Absent: the limit was not measured on this call (never read as zero). */
          'X-RateLimit-Limit'?: number;
          /** @description Calls left in the sliding window; 0 on 429. */
          'X-RateLimit-Remaining'?: number;
          /** @description Unix seconds by which the balance has grown by at least one call (an upper bound). */
          'X-RateLimit-Reset'?: number;
          /** @description `true`: the call was authenticated by the previous key of a rotation. */
          Deprecation?: 'true';
          /** @description When the previous key of the rotation stops working (an HTTP date). */
          Sunset?: string;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem404'];
        };
      };
      /**
       * @description Method Not Allowed.
       *
       *     - `method_not_allowed`: Any method other than GET, HEAD and OPTIONS included; header `Allow: GET`; with or without key; not counted.
       */
      405: {
        headers: {
          /** @description Made by the server for every response of the API (a client’s own header is not trusted). */
          'X-Request-Id': string;
          /** @description The methods the route accepts. */
          Allow: string;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem405'];
        };
      };
      /**
       * @description Unsupported Media Type.
       *
       *     - (no `code`): a GET with a body whose `Content-Type` is not JSON (only with a valid key; counted, with `X-RateLimit-*`).
       */
      415: {
        headers: {
          /** @description Made by the server for every response of the API (a client’s own header is not trusted). */
          'X-Request-Id': string;
          /** @description Calls per window. Absent: the limit was not measured on this call (never read as zero). */
          'X-RateLimit-Limit'?: number;
          /** @description Calls left in the sliding window; 0 on 429. */
          'X-RateLimit-Remaining'?: number;
          /** @description Unix seconds by which the balance has grown by at least one call (an upper bound). */
          'X-RateLimit-Reset'?: number;
          /** @description `true`: the call was authenticated by the previous key of a rotation. */
          Deprecation?: 'true';
          /** @description When the previous key of the rotation stops working (an HTTP date). */
          Sunset?: string;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem415CodeOptional'];
        };
      };
      /**
       * @description Unprocessable Entity.
       *
       *     - `invalid_parameter`: A parameter missing (`place` too), unknown or repeated; a date without offset; a period above 120 days (without `event`); more than one place or event; an identifier in the wrong format; an invalid or foreign cursor; an invalid search; `limit` outside 1 to 100. `param` names it.
       */
      422: {
        headers: {
          /** @description Made by the server for every response of the API (a client’s own header is not trusted). */
          'X-Request-Id': string;
          /** @description Calls per window. Absent: the limit was not measured on this call (never read as zero). */
          'X-RateLimit-Limit'?: number;
          /** @description Calls left in the sliding window; 0 on 429. */
          'X-RateLimit-Remaining'?: number;
          /** @description Unix seconds by which the balance has grown by at least one call (an upper bound). */
          'X-RateLimit-Reset'?: number;
          /** @description `true`: the call was authenticated by the previous key of a rotation. */
          Deprecation?: 'true';
          /** @description When the previous key of the rotation stops working (an HTTP date). */
          Sunset?: string;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem422'];
        };
      };
      /**
       * @description Too Many Requests.
       *
       *     - `rate_limited`: A limit was reached (see the 429 table of the API’s description); header `Retry-After`.
       */
      429: {
        headers: {
          /** @description Made by the server for every response of the API (a client’s own header is not trusted). */
          'X-Request-Id': string;
          /** @description Calls per window. Absent: the limit was not measured on this call (never read as zero). On a 429, the value of the limit that refused (see the 429 table); absent on the documentation pages’ limit. */
          'X-RateLimit-Limit'?: number;
          /** @description Calls left in the sliding window; 0 on 429. */
          'X-RateLimit-Remaining'?: number;
          /** @description Unix seconds by which the balance has grown by at least one call (an upper bound). */
          'X-RateLimit-Reset'?: number;
          /** @description Whole seconds to wait before sending the same request again. */
          'Retry-After': number;
          /** @description `true`: the call was authenticated by the previous key of a rotation. */
          Deprecation?: 'true';
          /** @description When the previous key of the rotation stops working (an HTTP date). */
          Sunset?: string;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem429'];
        };
      };
      /**
       * @description Internal Server Error.
       *
       *     - `internal_error`: Unexpected failure.
       */
      500: {
        headers: {
          /** @description Made by the server for every response of the API (a client’s own header is not trusted). */
          'X-Request-Id': string;
          /** @description Calls per window. Absent: the limit was not measured on this call (never read as zero). */
          'X-RateLimit-Limit'?: number;
          /** @description Calls left in the sliding window; 0 on 429. */
          'X-RateLimit-Remaining'?: number;
          /** @description Unix seconds by which the balance has grown by at least one call (an upper bound). */
          'X-RateLimit-Reset'?: number;
          /** @description `true`: the call was authenticated by the previous key of a rotation. */
          Deprecation?: 'true';
          /** @description When the previous key of the rotation stops working (an HTTP date). */
          Sunset?: string;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem500'];
        };
      };
      /**
       * @description Service Unavailable.
       *
       *     - `temporarily_unavailable`: The query did not finish in time, or (receipts only) the concurrency control was unavailable, or (any route) the server is shutting down and can no longer take the call; `Retry-After` 60. Wait and repeat; in the first case reduce the period if it persists.
       */
      503: {
        headers: {
          /** @description Made by the server for every response of the API (a client’s own header is not trusted). */
          'X-Request-Id': string;
          /** @description Calls per window. Absent: the limit was not measured on this call (never read as zero). */
          'X-RateLimit-Limit'?: number;
          /** @description Calls left in the sliding window; 0 on 429. */
          'X-RateLimit-Remaining'?: number;
          /** @description Unix seconds by which the balance has grown by at least one call (an upper bound). */
          'X-RateLimit-Reset'?: number;
          /** @description Whole seconds to wait before sending the same request again. */
          'Retry-After': number;
          /** @description `true`: the call was authenticated by the previous key of a rotation. */
          Deprecation?: 'true';
          /** @description When the previous key of the rotation stops working (an HTTP date). */
          Sunset?: string;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem503'];
        };
      };
    };
  };
  listOrders: {
    parameters: {
      query?: {
        /** @description Comma-separated place ids, at most 100, none repeated; default all places of the key; outside the key gives 404 with `param` `place`. */
        place?: string;
        /** @description ISO 8601 date and time with a mandatory offset or `Z` (`2026-10-01T00:00:00-03:00`); a `+` must be sent as `%2B`; fractions of a second are rounded up. Start of the period, included; sent without `created_to`: 422 naming `created_to`; after `created_to`: 422 with `param` `created_from`. At least one pair of dates is required. */
        created_from?: string;
        /** @description ISO 8601 date and time with a mandatory offset or `Z` (`2026-10-01T00:00:00-03:00`); a `+` must be sent as `%2B`; fractions of a second are rounded up. End of the period, excluded; sent without `created_from`: 422 naming `created_from`; at most 31 days after `created_from` (422 with `param` `created_to`). At least one pair of dates is required. */
        created_to?: string;
        /** @description ISO 8601 date and time with a mandatory offset or `Z` (`2026-10-01T00:00:00-03:00`); a `+` must be sent as `%2B`; fractions of a second are rounded up. Start of the period, included; sent without `updated_to`: 422 naming `updated_to`; after `updated_to`: 422 with `param` `updated_from`. At least one pair of dates is required. */
        updated_from?: string;
        /** @description ISO 8601 date and time with a mandatory offset or `Z` (`2026-10-01T00:00:00-03:00`); a `+` must be sent as `%2B`; fractions of a second are rounded up. End of the period, excluded; sent without `updated_from`: 422 naming `updated_from`; at most 31 days after `updated_from` (422 with `param` `updated_to`). At least one pair of dates is required. */
        updated_to?: string;
        /** @description `next_cursor` of the previous page; opaque and bound to the query. Used with another place: 422 `"cursor" does not belong to this query.`; not issued by the API, or its event deleted meanwhile: 422 `"cursor" is not valid.` (restart from the first page). It does not expire by time. */
        cursor?: string;
        /** @description Page size; outside the range: 422. May change between pages without repeats or gaps. */
        limit?: number;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /**
       * @description Bad Request.
       *
       *     - `conflicting_credentials`: An identity header of another system was sent; before the key, not counted.
       */
      400: {
        headers: {
          /** @description Made by the server for every response of the API (a client’s own header is not trusted). */
          'X-Request-Id': string;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem400'];
        };
      };
      /**
       * @description Unauthorized.
       *
       *     - `invalid_token`: Key absent, wrong, revoked, paused, expired or replaced; `reason` only when the key worked before. Header `WWW-Authenticate: Bearer realm=…`.
       */
      401: {
        headers: {
          /** @description Made by the server for every response of the API (a client’s own header is not trusted). */
          'X-Request-Id': string;
          /** @description The scheme to authenticate with: Bearer. */
          'WWW-Authenticate': string;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem401'];
        };
      };
      /**
       * @description Not Found.
       *
       *     - `not_found`: `place` not reached by the key or nonexistent, or `event` not of that place (with `param`); or an `Accept` of another version (without `param`).
       */
      404: {
        headers: {
          /** @description Made by the server for every response of the API (a client’s own header is not trusted). */
          'X-Request-Id': string;
          /** @description Calls per window. Absent: the limit was not measured on this call (never read as zero). */
          'X-RateLimit-Limit'?: number;
          /** @description Calls left in the sliding window; 0 on 429. */
          'X-RateLimit-Remaining'?: number;
          /** @description Unix seconds by which the balance has grown by at least one call (an upper bound). */
          'X-RateLimit-Reset'?: number;
          /** @description `true`: the call was authenticated by the previous key of a rotation. */
          Deprecation?: 'true';
          /** @description When the previous key of the rotation stops working (an HTTP date). */
          Sunset?: string;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem404'];
        };
      };
      /**
       * @description Method Not Allowed.
       *
       *     - `method_not_allowed`: Any method other than GET, HEAD and OPTIONS included; header `Allow: GET`; with or without key; not counted.
       */
      405: {
        headers: {
          /** @description Made by the server for every response of the API (a client’s own header is not trusted). */
          'X-Request-Id': string;
          /** @description The methods the route accepts. */
          Allow: string;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem405'];
        };
      };
      /**
       * @description Unsupported Media Type.
       *
       *     - (no `code`): a GET with a body whose `Content-Type` is not JSON (only with a valid key; counted, with `X-RateLimit-*`).
       */
      415: {
        headers: {
          /** @description Made by the server for every response of the API (a client’s own header is not trusted). */
          'X-Request-Id': string;
          /** @description Calls per window. Absent: the limit was not measured on this call (never read as zero). */
          'X-RateLimit-Limit'?: number;
          /** @description Calls left in the sliding window; 0 on 429. */
          'X-RateLimit-Remaining'?: number;
          /** @description Unix seconds by which the balance has grown by at least one call (an upper bound). */
          'X-RateLimit-Reset'?: number;
          /** @description `true`: the call was authenticated by the previous key of a rotation. */
          Deprecation?: 'true';
          /** @description When the previous key of the rotation stops working (an HTTP date). */
          Sunset?: string;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem415CodeOptional'];
        };
      };
      /**
       * @description Unprocessable Entity.
       *
       *     - `invalid_parameter`: A parameter missing (`place` too), unknown or repeated; a date without offset; a period above 120 days (without `event`); more than one place or event; an identifier in the wrong format; an invalid or foreign cursor; an invalid search; `limit` outside 1 to 100. `param` names it.
       */
      422: {
        headers: {
          /** @description Made by the server for every response of the API (a client’s own header is not trusted). */
          'X-Request-Id': string;
          /** @description Calls per window. Absent: the limit was not measured on this call (never read as zero). */
          'X-RateLimit-Limit'?: number;
          /** @description Calls left in the sliding window; 0 on 429. */
          'X-RateLimit-Remaining'?: number;
          /** @description Unix seconds by which the balance has grown by at least one call (an upper bound). */
          'X-RateLimit-Reset'?: number;
          /** @description `true`: the call was authenticated by the previous key of a rotation. */
          Deprecation?: 'true';
          /** @description When the previous key of the rotation stops working (an HTTP date). */
          Sunset?: string;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem422'];
        };
      };
      /**
       * @description Too Many Requests.
       *
       *     - `rate_limited`: A limit was reached (see the 429 table of the API’s description); header `Retry-After`.
       */
      429: {
        headers: {
          /** @description Made by the server for every response of the API (a client’s own header is not trusted). */
          'X-Request-Id': string;
          /** @description Calls per window. Absent: the limit was not measured on this call (never read as zero). On a 429, the value of the limit that refused (see the 429 table); absent on the documentation pages’ limit. */
          'X-RateLimit-Limit'?: number;
          /** @description Calls left in the sliding window; 0 on 429. */
          'X-RateLimit-Remaining'?: number;
          /** @description Unix seconds by which the balance has grown by at least one call (an upper bound). */
          'X-RateLimit-Reset'?: number;
          /** @description Whole seconds to wait before sending the same request again. */
          'Retry-After': number;
          /** @description `true`: the call was authenticated by the previous key of a rotation. */
          Deprecation?: 'true';
          /** @description When the previous key of the rotation stops working (an HTTP date). */
          Sunset?: string;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem429'];
        };
      };
      /**
       * @description Internal Server Error.
       *
       *     - `internal_error`: Unexpected failure.
       */
      500: {
        headers: {
          /** @description Made by the server for every response of the API (a client’s own header is not trusted). */
          'X-Request-Id': string;
          /** @description Calls per window. Absent: the limit was not measured on this call (never read as zero). */
          'X-RateLimit-Limit'?: number;
          /** @description Calls left in the sliding window; 0 on 429. */
          'X-RateLimit-Remaining'?: number;
          /** @description Unix seconds by which the balance has grown by at least one call (an upper bound). */
          'X-RateLimit-Reset'?: number;
          /** @description `true`: the call was authenticated by the previous key of a rotation. */
          Deprecation?: 'true';
          /** @description When the previous key of the rotation stops working (an HTTP date). */
          Sunset?: string;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem500'];
        };
      };
      /**
       * @description Not Implemented.
       *
       *     - `not_implemented`: The route is planned.
       */
      501: {
        headers: {
          /** @description Made by the server for every response of the API (a client’s own header is not trusted). */
          'X-Request-Id': string;
          /** @description Calls per window. Absent: the limit was not measured on this call (never read as zero). */
          'X-RateLimit-Limit'?: number;
          /** @description Calls left in the sliding window; 0 on 429. */
          'X-RateLimit-Remaining'?: number;
          /** @description Unix seconds by which the balance has grown by at least one call (an upper bound). */
          'X-RateLimit-Reset'?: number;
          /** @description `true`: the call was authenticated by the previous key of a rotation. */
          Deprecation?: 'true';
          /** @description When the previous key of the rotation stops working (an HTTP date). */
          Sunset?: string;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem501'];
        };
      };
      /**
       * @description Service Unavailable.
       *
       *     - `temporarily_unavailable`: The query did not finish in time, or (receipts only) the concurrency control was unavailable, or (any route) the server is shutting down and can no longer take the call; `Retry-After` 60. Wait and repeat; in the first case reduce the period if it persists.
       */
      503: {
        headers: {
          /** @description Made by the server for every response of the API (a client’s own header is not trusted). */
          'X-Request-Id': string;
          /** @description Calls per window. Absent: the limit was not measured on this call (never read as zero). */
          'X-RateLimit-Limit'?: number;
          /** @description Calls left in the sliding window; 0 on 429. */
          'X-RateLimit-Remaining'?: number;
          /** @description Unix seconds by which the balance has grown by at least one call (an upper bound). */
          'X-RateLimit-Reset'?: number;
          /** @description Whole seconds to wait before sending the same request again. */
          'Retry-After': number;
          /** @description `true`: the call was authenticated by the previous key of a rotation. */
          Deprecation?: 'true';
          /** @description When the previous key of the rotation stops working (an HTTP date). */
          Sunset?: string;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem503'];
        };
      };
    };
  };
  getOrder: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        order_id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /**
       * @description Bad Request.
       *
       *     - `conflicting_credentials`: An identity header of another system was sent; before the key, not counted.
       */
      400: {
        headers: {
          /** @description Made by the server for every response of the API (a client’s own header is not trusted). */
          'X-Request-Id': string;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem400'];
        };
      };
      /**
       * @description Unauthorized.
       *
       *     - `invalid_token`: Key absent, wrong, revoked, paused, expired or replaced; `reason` only when the key worked before. Header `WWW-Authenticate: Bearer realm=…`.
       */
      401: {
        headers: {
          /** @description Made by the server for every response of the API (a client’s own header is not trusted). */
          'X-Request-Id': string;
          /** @description The scheme to authenticate with: Bearer. */
          'WWW-Authenticate': string;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem401'];
        };
      };
      /**
       * @description Not Found.
       *
       *     - `not_found`: `place` not reached by the key or nonexistent, or `event` not of that place (with `param`); or an `Accept` of another version (without `param`).
       */
      404: {
        headers: {
          /** @description Made by the server for every response of the API (a client’s own header is not trusted). */
          'X-Request-Id': string;
          /** @description Calls per window. Absent: the limit was not measured on this call (never read as zero). */
          'X-RateLimit-Limit'?: number;
          /** @description Calls left in the sliding window; 0 on 429. */
          'X-RateLimit-Remaining'?: number;
          /** @description Unix seconds by which the balance has grown by at least one call (an upper bound). */
          'X-RateLimit-Reset'?: number;
          /** @description `true`: the call was authenticated by the previous key of a rotation. */
          Deprecation?: 'true';
          /** @description When the previous key of the rotation stops working (an HTTP date). */
          Sunset?: string;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem404'];
        };
      };
      /**
       * @description Method Not Allowed.
       *
       *     - `method_not_allowed`: Any method other than GET, HEAD and OPTIONS included; header `Allow: GET`; with or without key; not counted.
       */
      405: {
        headers: {
          /** @description Made by the server for every response of the API (a client’s own header is not trusted). */
          'X-Request-Id': string;
          /** @description The methods the route accepts. */
          Allow: string;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem405'];
        };
      };
      /**
       * @description Unsupported Media Type.
       *
       *     - (no `code`): a GET with a body whose `Content-Type` is not JSON (only with a valid key; counted, with `X-RateLimit-*`).
       */
      415: {
        headers: {
          /** @description Made by the server for every response of the API (a client’s own header is not trusted). */
          'X-Request-Id': string;
          /** @description Calls per window. Absent: the limit was not measured on this call (never read as zero). */
          'X-RateLimit-Limit'?: number;
          /** @description Calls left in the sliding window; 0 on 429. */
          'X-RateLimit-Remaining'?: number;
          /** @description Unix seconds by which the balance has grown by at least one call (an upper bound). */
          'X-RateLimit-Reset'?: number;
          /** @description `true`: the call was authenticated by the previous key of a rotation. */
          Deprecation?: 'true';
          /** @description When the previous key of the rotation stops working (an HTTP date). */
          Sunset?: string;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem415CodeOptional'];
        };
      };
      /**
       * @description Unprocessable Entity.
       *
       *     - `invalid_parameter`: A parameter missing (`place` too), unknown or repeated; a date without offset; a period above 120 days (without `event`); more than one place or event; an identifier in the wrong format; an invalid or foreign cursor; an invalid search; `limit` outside 1 to 100. `param` names it.
       */
      422: {
        headers: {
          /** @description Made by the server for every response of the API (a client’s own header is not trusted). */
          'X-Request-Id': string;
          /** @description Calls per window. Absent: the limit was not measured on this call (never read as zero). */
          'X-RateLimit-Limit'?: number;
          /** @description Calls left in the sliding window; 0 on 429. */
          'X-RateLimit-Remaining'?: number;
          /** @description Unix seconds by which the balance has grown by at least one call (an upper bound). */
          'X-RateLimit-Reset'?: number;
          /** @description `true`: the call was authenticated by the previous key of a rotation. */
          Deprecation?: 'true';
          /** @description When the previous key of the rotation stops working (an HTTP date). */
          Sunset?: string;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem422'];
        };
      };
      /**
       * @description Too Many Requests.
       *
       *     - `rate_limited`: A limit was reached (see the 429 table of the API’s description); header `Retry-After`.
       */
      429: {
        headers: {
          /** @description Made by the server for every response of the API (a client’s own header is not trusted). */
          'X-Request-Id': string;
          /** @description Calls per window. Absent: the limit was not measured on this call (never read as zero). On a 429, the value of the limit that refused (see the 429 table); absent on the documentation pages’ limit. */
          'X-RateLimit-Limit'?: number;
          /** @description Calls left in the sliding window; 0 on 429. */
          'X-RateLimit-Remaining'?: number;
          /** @description Unix seconds by which the balance has grown by at least one call (an upper bound). */
          'X-RateLimit-Reset'?: number;
          /** @description Whole seconds to wait before sending the same request again. */
          'Retry-After': number;
          /** @description `true`: the call was authenticated by the previous key of a rotation. */
          Deprecation?: 'true';
          /** @description When the previous key of the rotation stops working (an HTTP date). */
          Sunset?: string;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem429'];
        };
      };
      /**
       * @description Internal Server Error.
       *
       *     - `internal_error`: Unexpected failure.
       */
      500: {
        headers: {
          /** @description Made by the server for every response of the API (a client’s own header is not trusted). */
          'X-Request-Id': string;
          /** @description Calls per window. Absent: the limit was not measured on this call (never read as zero). */
          'X-RateLimit-Limit'?: number;
          /** @description Calls left in the sliding window; 0 on 429. */
          'X-RateLimit-Remaining'?: number;
          /** @description Unix seconds by which the balance has grown by at least one call (an upper bound). */
          'X-RateLimit-Reset'?: number;
          /** @description `true`: the call was authenticated by the previous key of a rotation. */
          Deprecation?: 'true';
          /** @description When the previous key of the rotation stops working (an HTTP date). */
          Sunset?: string;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem500'];
        };
      };
      /**
       * @description Not Implemented.
       *
       *     - `not_implemented`: The route is planned.
       */
      501: {
        headers: {
          /** @description Made by the server for every response of the API (a client’s own header is not trusted). */
          'X-Request-Id': string;
          /** @description Calls per window. Absent: the limit was not measured on this call (never read as zero). */
          'X-RateLimit-Limit'?: number;
          /** @description Calls left in the sliding window; 0 on 429. */
          'X-RateLimit-Remaining'?: number;
          /** @description Unix seconds by which the balance has grown by at least one call (an upper bound). */
          'X-RateLimit-Reset'?: number;
          /** @description `true`: the call was authenticated by the previous key of a rotation. */
          Deprecation?: 'true';
          /** @description When the previous key of the rotation stops working (an HTTP date). */
          Sunset?: string;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem501'];
        };
      };
      /**
       * @description Service Unavailable.
       *
       *     - `temporarily_unavailable`: The query did not finish in time, or (receipts only) the concurrency control was unavailable, or (any route) the server is shutting down and can no longer take the call; `Retry-After` 60. Wait and repeat; in the first case reduce the period if it persists.
       */
      503: {
        headers: {
          /** @description Made by the server for every response of the API (a client’s own header is not trusted). */
          'X-Request-Id': string;
          /** @description Calls per window. Absent: the limit was not measured on this call (never read as zero). */
          'X-RateLimit-Limit'?: number;
          /** @description Calls left in the sliding window; 0 on 429. */
          'X-RateLimit-Remaining'?: number;
          /** @description Unix seconds by which the balance has grown by at least one call (an upper bound). */
          'X-RateLimit-Reset'?: number;
          /** @description Whole seconds to wait before sending the same request again. */
          'Retry-After': number;
          /** @description `true`: the call was authenticated by the previous key of a rotation. */
          Deprecation?: 'true';
          /** @description When the previous key of the rotation stops working (an HTTP date). */
          Sunset?: string;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem503'];
        };
      };
    };
  };
  ping: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The key, its account and its limits: a check that the integration is set up. */
      200: {
        headers: {
          /** @description Made by the server for every response of the API (a client’s own header is not trusted). */
          'X-Request-Id': string;
          /** @description Calls per window. Absent: the limit was not measured on this call (never read as zero). Present on every authenticated response while the limits are measured. */
          'X-RateLimit-Limit'?: number;
          /** @description Calls left in the sliding window; 0 on 429. */
          'X-RateLimit-Remaining'?: number;
          /** @description Unix seconds by which the balance has grown by at least one call (an upper bound). */
          'X-RateLimit-Reset'?: number;
          /** @description `true`: the call was authenticated by the previous key of a rotation. Only on calls authenticated by the previous key of a rotation. */
          Deprecation?: 'true';
          /** @description When the previous key of the rotation stops working (an HTTP date). */
          Sunset?: string;
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "credential": {
           *         "id": "k7Qm2Xa9",
           *         "name": "ERP",
           *         "permissions": [
           *           "event.view",
           *           "sale-by-payment-method.view"
           *         ],
           *         "expires_at": "2027-06-01T02:59:59Z",
           *         "superseded": false,
           *         "superseded_until": null
           *       },
           *       "account": {
           *         "id": "acme",
           *         "name": "ACME Comércio"
           *       },
           *       "rate_limit": {
           *         "default_per_minute": 60,
           *         "heavy_per_minute": 10
           *       },
           *       "server_time": "2026-11-20T12:00:00Z",
           *       "api_version": "v1"
           *     }
           */
          'application/json': components['schemas']['Ping'];
        };
      };
      /**
       * @description Bad Request.
       *
       *     - `conflicting_credentials`: An identity header of another system was sent; before the key, not counted.
       */
      400: {
        headers: {
          /** @description Made by the server for every response of the API (a client’s own header is not trusted). */
          'X-Request-Id': string;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem400'];
        };
      };
      /**
       * @description Unauthorized.
       *
       *     - `invalid_token`: Key absent, wrong, revoked, paused, expired or replaced; `reason` only when the key worked before. Header `WWW-Authenticate: Bearer realm=…`.
       */
      401: {
        headers: {
          /** @description Made by the server for every response of the API (a client’s own header is not trusted). */
          'X-Request-Id': string;
          /** @description The scheme to authenticate with: Bearer. */
          'WWW-Authenticate': string;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem401'];
        };
      };
      /**
       * @description Not Found.
       *
       *     - `not_found`: `place` not reached by the key or nonexistent, or `event` not of that place (with `param`); or an `Accept` of another version (without `param`).
       */
      404: {
        headers: {
          /** @description Made by the server for every response of the API (a client’s own header is not trusted). */
          'X-Request-Id': string;
          /** @description Calls per window. Absent: the limit was not measured on this call (never read as zero). */
          'X-RateLimit-Limit'?: number;
          /** @description Calls left in the sliding window; 0 on 429. */
          'X-RateLimit-Remaining'?: number;
          /** @description Unix seconds by which the balance has grown by at least one call (an upper bound). */
          'X-RateLimit-Reset'?: number;
          /** @description `true`: the call was authenticated by the previous key of a rotation. */
          Deprecation?: 'true';
          /** @description When the previous key of the rotation stops working (an HTTP date). */
          Sunset?: string;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem404'];
        };
      };
      /**
       * @description Method Not Allowed.
       *
       *     - `method_not_allowed`: Any method other than GET, HEAD and OPTIONS included; header `Allow: GET`; with or without key; not counted.
       */
      405: {
        headers: {
          /** @description Made by the server for every response of the API (a client’s own header is not trusted). */
          'X-Request-Id': string;
          /** @description The methods the route accepts. */
          Allow: string;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem405'];
        };
      };
      /**
       * @description Unsupported Media Type.
       *
       *     - (no `code`): a GET with a body whose `Content-Type` is not JSON (only with a valid key; counted, with `X-RateLimit-*`).
       */
      415: {
        headers: {
          /** @description Made by the server for every response of the API (a client’s own header is not trusted). */
          'X-Request-Id': string;
          /** @description Calls per window. Absent: the limit was not measured on this call (never read as zero). */
          'X-RateLimit-Limit'?: number;
          /** @description Calls left in the sliding window; 0 on 429. */
          'X-RateLimit-Remaining'?: number;
          /** @description Unix seconds by which the balance has grown by at least one call (an upper bound). */
          'X-RateLimit-Reset'?: number;
          /** @description `true`: the call was authenticated by the previous key of a rotation. */
          Deprecation?: 'true';
          /** @description When the previous key of the rotation stops working (an HTTP date). */
          Sunset?: string;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem415CodeOptional'];
        };
      };
      /**
       * @description Unprocessable Entity.
       *
       *     - `invalid_parameter`: A parameter missing (`place` too), unknown or repeated; a date without offset; a period above 120 days (without `event`); more than one place or event; an identifier in the wrong format; an invalid or foreign cursor; an invalid search; `limit` outside 1 to 100. `param` names it.
       */
      422: {
        headers: {
          /** @description Made by the server for every response of the API (a client’s own header is not trusted). */
          'X-Request-Id': string;
          /** @description Calls per window. Absent: the limit was not measured on this call (never read as zero). */
          'X-RateLimit-Limit'?: number;
          /** @description Calls left in the sliding window; 0 on 429. */
          'X-RateLimit-Remaining'?: number;
          /** @description Unix seconds by which the balance has grown by at least one call (an upper bound). */
          'X-RateLimit-Reset'?: number;
          /** @description `true`: the call was authenticated by the previous key of a rotation. */
          Deprecation?: 'true';
          /** @description When the previous key of the rotation stops working (an HTTP date). */
          Sunset?: string;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem422'];
        };
      };
      /**
       * @description Too Many Requests.
       *
       *     - `rate_limited`: A limit was reached (see the 429 table of the API’s description); header `Retry-After`.
       */
      429: {
        headers: {
          /** @description Made by the server for every response of the API (a client’s own header is not trusted). */
          'X-Request-Id': string;
          /** @description Calls per window. Absent: the limit was not measured on this call (never read as zero). On a 429, the value of the limit that refused (see the 429 table); absent on the documentation pages’ limit. */
          'X-RateLimit-Limit'?: number;
          /** @description Calls left in the sliding window; 0 on 429. */
          'X-RateLimit-Remaining'?: number;
          /** @description Unix seconds by which the balance has grown by at least one call (an upper bound). */
          'X-RateLimit-Reset'?: number;
          /** @description Whole seconds to wait before sending the same request again. */
          'Retry-After': number;
          /** @description `true`: the call was authenticated by the previous key of a rotation. */
          Deprecation?: 'true';
          /** @description When the previous key of the rotation stops working (an HTTP date). */
          Sunset?: string;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem429'];
        };
      };
      /**
       * @description Internal Server Error.
       *
       *     - `internal_error`: Unexpected failure.
       */
      500: {
        headers: {
          /** @description Made by the server for every response of the API (a client’s own header is not trusted). */
          'X-Request-Id': string;
          /** @description Calls per window. Absent: the limit was not measured on this call (never read as zero). */
          'X-RateLimit-Limit'?: number;
          /** @description Calls left in the sliding window; 0 on 429. */
          'X-RateLimit-Remaining'?: number;
          /** @description Unix seconds by which the balance has grown by at least one call (an upper bound). */
          'X-RateLimit-Reset'?: number;
          /** @description `true`: the call was authenticated by the previous key of a rotation. */
          Deprecation?: 'true';
          /** @description When the previous key of the rotation stops working (an HTTP date). */
          Sunset?: string;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem500'];
        };
      };
      /**
       * @description Service Unavailable.
       *
       *     - `temporarily_unavailable`: The query did not finish in time, or (receipts only) the concurrency control was unavailable, or (any route) the server is shutting down and can no longer take the call; `Retry-After` 60. Wait and repeat; in the first case reduce the period if it persists.
       */
      503: {
        headers: {
          /** @description Made by the server for every response of the API (a client’s own header is not trusted). */
          'X-Request-Id': string;
          /** @description Calls per window. Absent: the limit was not measured on this call (never read as zero). */
          'X-RateLimit-Limit'?: number;
          /** @description Calls left in the sliding window; 0 on 429. */
          'X-RateLimit-Remaining'?: number;
          /** @description Unix seconds by which the balance has grown by at least one call (an upper bound). */
          'X-RateLimit-Reset'?: number;
          /** @description Whole seconds to wait before sending the same request again. */
          'Retry-After': number;
          /** @description `true`: the call was authenticated by the previous key of a rotation. */
          Deprecation?: 'true';
          /** @description When the previous key of the rotation stops working (an HTTP date). */
          Sunset?: string;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem503'];
        };
      };
    };
  };
  listPlaces: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The places the key reaches. */
      200: {
        headers: {
          /** @description Made by the server for every response of the API (a client’s own header is not trusted). */
          'X-Request-Id': string;
          /** @description Calls per window. Absent: the limit was not measured on this call (never read as zero). Present on every authenticated response while the limits are measured. */
          'X-RateLimit-Limit'?: number;
          /** @description Calls left in the sliding window; 0 on 429. */
          'X-RateLimit-Remaining'?: number;
          /** @description Unix seconds by which the balance has grown by at least one call (an upper bound). */
          'X-RateLimit-Reset'?: number;
          /** @description `true`: the call was authenticated by the previous key of a rotation. Only on calls authenticated by the previous key of a rotation. */
          Deprecation?: 'true';
          /** @description When the previous key of the rotation stops working (an HTTP date). */
          Sunset?: string;
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "all": true,
           *       "data": [
           *         {
           *           "id": "SP01",
           *           "name": "Loja Paulista",
           *           "timezone": "America/Sao_Paulo",
           *           "active": true
           *         },
           *         {
           *           "id": "REC01",
           *           "name": "Arena Recife",
           *           "timezone": "America/Recife",
           *           "active": null
           *         }
           *       ]
           *     }
           */
          'application/json': components['schemas']['Places'];
        };
      };
      /**
       * @description Bad Request.
       *
       *     - `conflicting_credentials`: An identity header of another system was sent; before the key, not counted.
       */
      400: {
        headers: {
          /** @description Made by the server for every response of the API (a client’s own header is not trusted). */
          'X-Request-Id': string;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem400'];
        };
      };
      /**
       * @description Unauthorized.
       *
       *     - `invalid_token`: Key absent, wrong, revoked, paused, expired or replaced; `reason` only when the key worked before. Header `WWW-Authenticate: Bearer realm=…`.
       */
      401: {
        headers: {
          /** @description Made by the server for every response of the API (a client’s own header is not trusted). */
          'X-Request-Id': string;
          /** @description The scheme to authenticate with: Bearer. */
          'WWW-Authenticate': string;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem401'];
        };
      };
      /**
       * @description Not Found.
       *
       *     - `not_found`: `place` not reached by the key or nonexistent, or `event` not of that place (with `param`); or an `Accept` of another version (without `param`).
       */
      404: {
        headers: {
          /** @description Made by the server for every response of the API (a client’s own header is not trusted). */
          'X-Request-Id': string;
          /** @description Calls per window. Absent: the limit was not measured on this call (never read as zero). */
          'X-RateLimit-Limit'?: number;
          /** @description Calls left in the sliding window; 0 on 429. */
          'X-RateLimit-Remaining'?: number;
          /** @description Unix seconds by which the balance has grown by at least one call (an upper bound). */
          'X-RateLimit-Reset'?: number;
          /** @description `true`: the call was authenticated by the previous key of a rotation. */
          Deprecation?: 'true';
          /** @description When the previous key of the rotation stops working (an HTTP date). */
          Sunset?: string;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem404'];
        };
      };
      /**
       * @description Method Not Allowed.
       *
       *     - `method_not_allowed`: Any method other than GET, HEAD and OPTIONS included; header `Allow: GET`; with or without key; not counted.
       */
      405: {
        headers: {
          /** @description Made by the server for every response of the API (a client’s own header is not trusted). */
          'X-Request-Id': string;
          /** @description The methods the route accepts. */
          Allow: string;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem405'];
        };
      };
      /**
       * @description Unsupported Media Type.
       *
       *     - (no `code`): a GET with a body whose `Content-Type` is not JSON (only with a valid key; counted, with `X-RateLimit-*`).
       */
      415: {
        headers: {
          /** @description Made by the server for every response of the API (a client’s own header is not trusted). */
          'X-Request-Id': string;
          /** @description Calls per window. Absent: the limit was not measured on this call (never read as zero). */
          'X-RateLimit-Limit'?: number;
          /** @description Calls left in the sliding window; 0 on 429. */
          'X-RateLimit-Remaining'?: number;
          /** @description Unix seconds by which the balance has grown by at least one call (an upper bound). */
          'X-RateLimit-Reset'?: number;
          /** @description `true`: the call was authenticated by the previous key of a rotation. */
          Deprecation?: 'true';
          /** @description When the previous key of the rotation stops working (an HTTP date). */
          Sunset?: string;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem415CodeOptional'];
        };
      };
      /**
       * @description Unprocessable Entity.
       *
       *     - `invalid_parameter`: A parameter missing (`place` too), unknown or repeated; a date without offset; a period above 120 days (without `event`); more than one place or event; an identifier in the wrong format; an invalid or foreign cursor; an invalid search; `limit` outside 1 to 100. `param` names it.
       */
      422: {
        headers: {
          /** @description Made by the server for every response of the API (a client’s own header is not trusted). */
          'X-Request-Id': string;
          /** @description Calls per window. Absent: the limit was not measured on this call (never read as zero). */
          'X-RateLimit-Limit'?: number;
          /** @description Calls left in the sliding window; 0 on 429. */
          'X-RateLimit-Remaining'?: number;
          /** @description Unix seconds by which the balance has grown by at least one call (an upper bound). */
          'X-RateLimit-Reset'?: number;
          /** @description `true`: the call was authenticated by the previous key of a rotation. */
          Deprecation?: 'true';
          /** @description When the previous key of the rotation stops working (an HTTP date). */
          Sunset?: string;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem422'];
        };
      };
      /**
       * @description Too Many Requests.
       *
       *     - `rate_limited`: A limit was reached (see the 429 table of the API’s description); header `Retry-After`.
       */
      429: {
        headers: {
          /** @description Made by the server for every response of the API (a client’s own header is not trusted). */
          'X-Request-Id': string;
          /** @description Calls per window. Absent: the limit was not measured on this call (never read as zero). On a 429, the value of the limit that refused (see the 429 table); absent on the documentation pages’ limit. */
          'X-RateLimit-Limit'?: number;
          /** @description Calls left in the sliding window; 0 on 429. */
          'X-RateLimit-Remaining'?: number;
          /** @description Unix seconds by which the balance has grown by at least one call (an upper bound). */
          'X-RateLimit-Reset'?: number;
          /** @description Whole seconds to wait before sending the same request again. */
          'Retry-After': number;
          /** @description `true`: the call was authenticated by the previous key of a rotation. */
          Deprecation?: 'true';
          /** @description When the previous key of the rotation stops working (an HTTP date). */
          Sunset?: string;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem429'];
        };
      };
      /**
       * @description Internal Server Error.
       *
       *     - `internal_error`: Unexpected failure.
       */
      500: {
        headers: {
          /** @description Made by the server for every response of the API (a client’s own header is not trusted). */
          'X-Request-Id': string;
          /** @description Calls per window. Absent: the limit was not measured on this call (never read as zero). */
          'X-RateLimit-Limit'?: number;
          /** @description Calls left in the sliding window; 0 on 429. */
          'X-RateLimit-Remaining'?: number;
          /** @description Unix seconds by which the balance has grown by at least one call (an upper bound). */
          'X-RateLimit-Reset'?: number;
          /** @description `true`: the call was authenticated by the previous key of a rotation. */
          Deprecation?: 'true';
          /** @description When the previous key of the rotation stops working (an HTTP date). */
          Sunset?: string;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem500'];
        };
      };
      /**
       * @description Service Unavailable.
       *
       *     - `temporarily_unavailable`: The query did not finish in time, or (receipts only) the concurrency control was unavailable, or (any route) the server is shutting down and can no longer take the call; `Retry-After` 60. Wait and repeat; in the first case reduce the period if it persists.
       */
      503: {
        headers: {
          /** @description Made by the server for every response of the API (a client’s own header is not trusted). */
          'X-Request-Id': string;
          /** @description Calls per window. Absent: the limit was not measured on this call (never read as zero). */
          'X-RateLimit-Limit'?: number;
          /** @description Calls left in the sliding window; 0 on 429. */
          'X-RateLimit-Remaining'?: number;
          /** @description Unix seconds by which the balance has grown by at least one call (an upper bound). */
          'X-RateLimit-Reset'?: number;
          /** @description Whole seconds to wait before sending the same request again. */
          'Retry-After': number;
          /** @description `true`: the call was authenticated by the previous key of a rotation. */
          Deprecation?: 'true';
          /** @description When the previous key of the rotation stops working (an HTTP date). */
          Sunset?: string;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem503'];
        };
      };
    };
  };
  listProducts: {
    parameters: {
      query?: {
        /** @description Comma-separated place ids, at most 100, none repeated; default all places of the key; outside the key gives 404 with `param` `place`. */
        place?: string;
        /** @description `next_cursor` of the previous page; opaque and bound to the query. Used with another place: 422 `"cursor" does not belong to this query.`; not issued by the API, or its event deleted meanwhile: 422 `"cursor" is not valid.` (restart from the first page). It does not expire by time. */
        cursor?: string;
        /** @description Page size; outside the range: 422. May change between pages without repeats or gaps. */
        limit?: number;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /**
       * @description Bad Request.
       *
       *     - `conflicting_credentials`: An identity header of another system was sent; before the key, not counted.
       */
      400: {
        headers: {
          /** @description Made by the server for every response of the API (a client’s own header is not trusted). */
          'X-Request-Id': string;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem400'];
        };
      };
      /**
       * @description Unauthorized.
       *
       *     - `invalid_token`: Key absent, wrong, revoked, paused, expired or replaced; `reason` only when the key worked before. Header `WWW-Authenticate: Bearer realm=…`.
       */
      401: {
        headers: {
          /** @description Made by the server for every response of the API (a client’s own header is not trusted). */
          'X-Request-Id': string;
          /** @description The scheme to authenticate with: Bearer. */
          'WWW-Authenticate': string;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem401'];
        };
      };
      /**
       * @description Not Found.
       *
       *     - `not_found`: `place` not reached by the key or nonexistent, or `event` not of that place (with `param`); or an `Accept` of another version (without `param`).
       */
      404: {
        headers: {
          /** @description Made by the server for every response of the API (a client’s own header is not trusted). */
          'X-Request-Id': string;
          /** @description Calls per window. Absent: the limit was not measured on this call (never read as zero). */
          'X-RateLimit-Limit'?: number;
          /** @description Calls left in the sliding window; 0 on 429. */
          'X-RateLimit-Remaining'?: number;
          /** @description Unix seconds by which the balance has grown by at least one call (an upper bound). */
          'X-RateLimit-Reset'?: number;
          /** @description `true`: the call was authenticated by the previous key of a rotation. */
          Deprecation?: 'true';
          /** @description When the previous key of the rotation stops working (an HTTP date). */
          Sunset?: string;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem404'];
        };
      };
      /**
       * @description Method Not Allowed.
       *
       *     - `method_not_allowed`: Any method other than GET, HEAD and OPTIONS included; header `Allow: GET`; with or without key; not counted.
       */
      405: {
        headers: {
          /** @description Made by the server for every response of the API (a client’s own header is not trusted). */
          'X-Request-Id': string;
          /** @description The methods the route accepts. */
          Allow: string;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem405'];
        };
      };
      /**
       * @description Unsupported Media Type.
       *
       *     - (no `code`): a GET with a body whose `Content-Type` is not JSON (only with a valid key; counted, with `X-RateLimit-*`).
       */
      415: {
        headers: {
          /** @description Made by the server for every response of the API (a client’s own header is not trusted). */
          'X-Request-Id': string;
          /** @description Calls per window. Absent: the limit was not measured on this call (never read as zero). */
          'X-RateLimit-Limit'?: number;
          /** @description Calls left in the sliding window; 0 on 429. */
          'X-RateLimit-Remaining'?: number;
          /** @description Unix seconds by which the balance has grown by at least one call (an upper bound). */
          'X-RateLimit-Reset'?: number;
          /** @description `true`: the call was authenticated by the previous key of a rotation. */
          Deprecation?: 'true';
          /** @description When the previous key of the rotation stops working (an HTTP date). */
          Sunset?: string;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem415CodeOptional'];
        };
      };
      /**
       * @description Unprocessable Entity.
       *
       *     - `invalid_parameter`: A parameter missing (`place` too), unknown or repeated; a date without offset; a period above 120 days (without `event`); more than one place or event; an identifier in the wrong format; an invalid or foreign cursor; an invalid search; `limit` outside 1 to 100. `param` names it.
       */
      422: {
        headers: {
          /** @description Made by the server for every response of the API (a client’s own header is not trusted). */
          'X-Request-Id': string;
          /** @description Calls per window. Absent: the limit was not measured on this call (never read as zero). */
          'X-RateLimit-Limit'?: number;
          /** @description Calls left in the sliding window; 0 on 429. */
          'X-RateLimit-Remaining'?: number;
          /** @description Unix seconds by which the balance has grown by at least one call (an upper bound). */
          'X-RateLimit-Reset'?: number;
          /** @description `true`: the call was authenticated by the previous key of a rotation. */
          Deprecation?: 'true';
          /** @description When the previous key of the rotation stops working (an HTTP date). */
          Sunset?: string;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem422'];
        };
      };
      /**
       * @description Too Many Requests.
       *
       *     - `rate_limited`: A limit was reached (see the 429 table of the API’s description); header `Retry-After`.
       */
      429: {
        headers: {
          /** @description Made by the server for every response of the API (a client’s own header is not trusted). */
          'X-Request-Id': string;
          /** @description Calls per window. Absent: the limit was not measured on this call (never read as zero). On a 429, the value of the limit that refused (see the 429 table); absent on the documentation pages’ limit. */
          'X-RateLimit-Limit'?: number;
          /** @description Calls left in the sliding window; 0 on 429. */
          'X-RateLimit-Remaining'?: number;
          /** @description Unix seconds by which the balance has grown by at least one call (an upper bound). */
          'X-RateLimit-Reset'?: number;
          /** @description Whole seconds to wait before sending the same request again. */
          'Retry-After': number;
          /** @description `true`: the call was authenticated by the previous key of a rotation. */
          Deprecation?: 'true';
          /** @description When the previous key of the rotation stops working (an HTTP date). */
          Sunset?: string;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem429'];
        };
      };
      /**
       * @description Internal Server Error.
       *
       *     - `internal_error`: Unexpected failure.
       */
      500: {
        headers: {
          /** @description Made by the server for every response of the API (a client’s own header is not trusted). */
          'X-Request-Id': string;
          /** @description Calls per window. Absent: the limit was not measured on this call (never read as zero). */
          'X-RateLimit-Limit'?: number;
          /** @description Calls left in the sliding window; 0 on 429. */
          'X-RateLimit-Remaining'?: number;
          /** @description Unix seconds by which the balance has grown by at least one call (an upper bound). */
          'X-RateLimit-Reset'?: number;
          /** @description `true`: the call was authenticated by the previous key of a rotation. */
          Deprecation?: 'true';
          /** @description When the previous key of the rotation stops working (an HTTP date). */
          Sunset?: string;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem500'];
        };
      };
      /**
       * @description Not Implemented.
       *
       *     - `not_implemented`: The route is planned.
       */
      501: {
        headers: {
          /** @description Made by the server for every response of the API (a client’s own header is not trusted). */
          'X-Request-Id': string;
          /** @description Calls per window. Absent: the limit was not measured on this call (never read as zero). */
          'X-RateLimit-Limit'?: number;
          /** @description Calls left in the sliding window; 0 on 429. */
          'X-RateLimit-Remaining'?: number;
          /** @description Unix seconds by which the balance has grown by at least one call (an upper bound). */
          'X-RateLimit-Reset'?: number;
          /** @description `true`: the call was authenticated by the previous key of a rotation. */
          Deprecation?: 'true';
          /** @description When the previous key of the rotation stops working (an HTTP date). */
          Sunset?: string;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem501'];
        };
      };
      /**
       * @description Service Unavailable.
       *
       *     - `temporarily_unavailable`: The query did not finish in time, or (receipts only) the concurrency control was unavailable, or (any route) the server is shutting down and can no longer take the call; `Retry-After` 60. Wait and repeat; in the first case reduce the period if it persists.
       */
      503: {
        headers: {
          /** @description Made by the server for every response of the API (a client’s own header is not trusted). */
          'X-Request-Id': string;
          /** @description Calls per window. Absent: the limit was not measured on this call (never read as zero). */
          'X-RateLimit-Limit'?: number;
          /** @description Calls left in the sliding window; 0 on 429. */
          'X-RateLimit-Remaining'?: number;
          /** @description Unix seconds by which the balance has grown by at least one call (an upper bound). */
          'X-RateLimit-Reset'?: number;
          /** @description Whole seconds to wait before sending the same request again. */
          'Retry-After': number;
          /** @description `true`: the call was authenticated by the previous key of a rotation. */
          Deprecation?: 'true';
          /** @description When the previous key of the rotation stops working (an HTTP date). */
          Sunset?: string;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem503'];
        };
      };
    };
  };
  getSalesByDay: {
    parameters: {
      query: {
        /** @description ISO 8601 date and time with a mandatory offset or `Z` (`2026-10-01T00:00:00-03:00`); a `+` must be sent as `%2B`; fractions of a second are rounded up. Start of the period, included; sent without `to`: 422 naming `to`; after `to`: 422 with `param` `from`. */
        from: string;
        /** @description ISO 8601 date and time with a mandatory offset or `Z` (`2026-10-01T00:00:00-03:00`); a `+` must be sent as `%2B`; fractions of a second are rounded up. End of the period, excluded; sent without `from`: 422 naming `from`; at most 120 days after `from` (422 with `param` `to`). */
        to: string;
        /** @description Comma-separated place ids, at most 100, none repeated; default all places of the key; outside the key gives 404 with `param` `place`. */
        place?: string;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /**
       * @description Bad Request.
       *
       *     - `conflicting_credentials`: An identity header of another system was sent; before the key, not counted.
       */
      400: {
        headers: {
          /** @description Made by the server for every response of the API (a client’s own header is not trusted). */
          'X-Request-Id': string;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem400'];
        };
      };
      /**
       * @description Unauthorized.
       *
       *     - `invalid_token`: Key absent, wrong, revoked, paused, expired or replaced; `reason` only when the key worked before. Header `WWW-Authenticate: Bearer realm=…`.
       */
      401: {
        headers: {
          /** @description Made by the server for every response of the API (a client’s own header is not trusted). */
          'X-Request-Id': string;
          /** @description The scheme to authenticate with: Bearer. */
          'WWW-Authenticate': string;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem401'];
        };
      };
      /**
       * @description Not Found.
       *
       *     - `not_found`: `place` not reached by the key or nonexistent, or `event` not of that place (with `param`); or an `Accept` of another version (without `param`).
       */
      404: {
        headers: {
          /** @description Made by the server for every response of the API (a client’s own header is not trusted). */
          'X-Request-Id': string;
          /** @description Calls per window. Absent: the limit was not measured on this call (never read as zero). */
          'X-RateLimit-Limit'?: number;
          /** @description Calls left in the sliding window; 0 on 429. */
          'X-RateLimit-Remaining'?: number;
          /** @description Unix seconds by which the balance has grown by at least one call (an upper bound). */
          'X-RateLimit-Reset'?: number;
          /** @description `true`: the call was authenticated by the previous key of a rotation. */
          Deprecation?: 'true';
          /** @description When the previous key of the rotation stops working (an HTTP date). */
          Sunset?: string;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem404'];
        };
      };
      /**
       * @description Method Not Allowed.
       *
       *     - `method_not_allowed`: Any method other than GET, HEAD and OPTIONS included; header `Allow: GET`; with or without key; not counted.
       */
      405: {
        headers: {
          /** @description Made by the server for every response of the API (a client’s own header is not trusted). */
          'X-Request-Id': string;
          /** @description The methods the route accepts. */
          Allow: string;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem405'];
        };
      };
      /**
       * @description Unsupported Media Type.
       *
       *     - (no `code`): a GET with a body whose `Content-Type` is not JSON (only with a valid key; counted, with `X-RateLimit-*`).
       */
      415: {
        headers: {
          /** @description Made by the server for every response of the API (a client’s own header is not trusted). */
          'X-Request-Id': string;
          /** @description Calls per window. Absent: the limit was not measured on this call (never read as zero). */
          'X-RateLimit-Limit'?: number;
          /** @description Calls left in the sliding window; 0 on 429. */
          'X-RateLimit-Remaining'?: number;
          /** @description Unix seconds by which the balance has grown by at least one call (an upper bound). */
          'X-RateLimit-Reset'?: number;
          /** @description `true`: the call was authenticated by the previous key of a rotation. */
          Deprecation?: 'true';
          /** @description When the previous key of the rotation stops working (an HTTP date). */
          Sunset?: string;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem415CodeOptional'];
        };
      };
      /**
       * @description Unprocessable Entity.
       *
       *     - `invalid_parameter`: A parameter missing (`place` too), unknown or repeated; a date without offset; a period above 120 days (without `event`); more than one place or event; an identifier in the wrong format; an invalid or foreign cursor; an invalid search; `limit` outside 1 to 100. `param` names it.
       */
      422: {
        headers: {
          /** @description Made by the server for every response of the API (a client’s own header is not trusted). */
          'X-Request-Id': string;
          /** @description Calls per window. Absent: the limit was not measured on this call (never read as zero). */
          'X-RateLimit-Limit'?: number;
          /** @description Calls left in the sliding window; 0 on 429. */
          'X-RateLimit-Remaining'?: number;
          /** @description Unix seconds by which the balance has grown by at least one call (an upper bound). */
          'X-RateLimit-Reset'?: number;
          /** @description `true`: the call was authenticated by the previous key of a rotation. */
          Deprecation?: 'true';
          /** @description When the previous key of the rotation stops working (an HTTP date). */
          Sunset?: string;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem422'];
        };
      };
      /**
       * @description Too Many Requests.
       *
       *     - `rate_limited`: A limit was reached (see the 429 table of the API’s description); header `Retry-After`.
       */
      429: {
        headers: {
          /** @description Made by the server for every response of the API (a client’s own header is not trusted). */
          'X-Request-Id': string;
          /** @description Calls per window. Absent: the limit was not measured on this call (never read as zero). On a 429, the value of the limit that refused (see the 429 table); absent on the documentation pages’ limit. */
          'X-RateLimit-Limit'?: number;
          /** @description Calls left in the sliding window; 0 on 429. */
          'X-RateLimit-Remaining'?: number;
          /** @description Unix seconds by which the balance has grown by at least one call (an upper bound). */
          'X-RateLimit-Reset'?: number;
          /** @description Whole seconds to wait before sending the same request again. */
          'Retry-After': number;
          /** @description `true`: the call was authenticated by the previous key of a rotation. */
          Deprecation?: 'true';
          /** @description When the previous key of the rotation stops working (an HTTP date). */
          Sunset?: string;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem429'];
        };
      };
      /**
       * @description Internal Server Error.
       *
       *     - `internal_error`: Unexpected failure.
       */
      500: {
        headers: {
          /** @description Made by the server for every response of the API (a client’s own header is not trusted). */
          'X-Request-Id': string;
          /** @description Calls per window. Absent: the limit was not measured on this call (never read as zero). */
          'X-RateLimit-Limit'?: number;
          /** @description Calls left in the sliding window; 0 on 429. */
          'X-RateLimit-Remaining'?: number;
          /** @description Unix seconds by which the balance has grown by at least one call (an upper bound). */
          'X-RateLimit-Reset'?: number;
          /** @description `true`: the call was authenticated by the previous key of a rotation. */
          Deprecation?: 'true';
          /** @description When the previous key of the rotation stops working (an HTTP date). */
          Sunset?: string;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem500'];
        };
      };
      /**
       * @description Not Implemented.
       *
       *     - `not_implemented`: The route is planned.
       */
      501: {
        headers: {
          /** @description Made by the server for every response of the API (a client’s own header is not trusted). */
          'X-Request-Id': string;
          /** @description Calls per window. Absent: the limit was not measured on this call (never read as zero). */
          'X-RateLimit-Limit'?: number;
          /** @description Calls left in the sliding window; 0 on 429. */
          'X-RateLimit-Remaining'?: number;
          /** @description Unix seconds by which the balance has grown by at least one call (an upper bound). */
          'X-RateLimit-Reset'?: number;
          /** @description `true`: the call was authenticated by the previous key of a rotation. */
          Deprecation?: 'true';
          /** @description When the previous key of the rotation stops working (an HTTP date). */
          Sunset?: string;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem501'];
        };
      };
      /**
       * @description Service Unavailable.
       *
       *     - `temporarily_unavailable`: The query did not finish in time, or (receipts only) the concurrency control was unavailable, or (any route) the server is shutting down and can no longer take the call; `Retry-After` 60. Wait and repeat; in the first case reduce the period if it persists.
       */
      503: {
        headers: {
          /** @description Made by the server for every response of the API (a client’s own header is not trusted). */
          'X-Request-Id': string;
          /** @description Calls per window. Absent: the limit was not measured on this call (never read as zero). */
          'X-RateLimit-Limit'?: number;
          /** @description Calls left in the sliding window; 0 on 429. */
          'X-RateLimit-Remaining'?: number;
          /** @description Unix seconds by which the balance has grown by at least one call (an upper bound). */
          'X-RateLimit-Reset'?: number;
          /** @description Whole seconds to wait before sending the same request again. */
          'Retry-After': number;
          /** @description `true`: the call was authenticated by the previous key of a rotation. */
          Deprecation?: 'true';
          /** @description When the previous key of the rotation stops working (an HTTP date). */
          Sunset?: string;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem503'];
        };
      };
    };
  };
  getSalesByPaymentMethod: {
    parameters: {
      query: {
        /** @description ISO 8601 date and time with a mandatory offset or `Z` (`2026-10-01T00:00:00-03:00`); a `+` must be sent as `%2B`; fractions of a second are rounded up. Start of the period, included; sent without `to`: 422 naming `to`; after `to`: 422 with `param` `from`. */
        from: string;
        /** @description ISO 8601 date and time with a mandatory offset or `Z` (`2026-10-01T00:00:00-03:00`); a `+` must be sent as `%2B`; fractions of a second are rounded up. End of the period, excluded; sent without `from`: 422 naming `from`; at most 120 days after `from` (422 with `param` `to`), no limit with `event`. */
        to: string;
        /** @description Exactly one place id from `/places`; absent, empty or a list (`a,b`, `place[]`) gives 422; a place outside the key or nonexistent gives 404 with `param` `place` (nothing is queried). */
        place: string;
        /** @description One event id of that place; a list gives 422; nonexistent or of another place: 404 with `param` `event`; with both place and event wrong, `place` is reported. */
        event?: string;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Receipts of a place (optionally one event) in a period, by payment method and card brand. */
      200: {
        headers: {
          /** @description Made by the server for every response of the API (a client’s own header is not trusted). */
          'X-Request-Id': string;
          /** @description Calls per window. Absent: the limit was not measured on this call (never read as zero). Present on every authenticated response while the limits are measured. */
          'X-RateLimit-Limit'?: number;
          /** @description Calls left in the sliding window; 0 on 429. */
          'X-RateLimit-Remaining'?: number;
          /** @description Unix seconds by which the balance has grown by at least one call (an upper bound). */
          'X-RateLimit-Reset'?: number;
          /** @description `true`: the call was authenticated by the previous key of a rotation. Only on calls authenticated by the previous key of a rotation. */
          Deprecation?: 'true';
          /** @description When the previous key of the rotation stops working (an HTTP date). */
          Sunset?: string;
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "from": "2026-10-01T03:00:00Z",
           *       "to": "2026-11-01T03:00:00Z",
           *       "place": "SP01",
           *       "event": null,
           *       "currency": "BRL",
           *       "total": {
           *         "count": 3,
           *         "amount": "150.00"
           *       },
           *       "data": [
           *         {
           *           "payment_method": "cash",
           *           "label": "Dinheiro",
           *           "count": 1,
           *           "amount": "50.00",
           *           "share": "33.333",
           *           "brands": []
           *         },
           *         {
           *           "payment_method": "tef_credit",
           *           "label": "TEF - Crédito",
           *           "count": 2,
           *           "amount": "100.00",
           *           "share": "66.667",
           *           "brands": [
           *             {
           *               "brand": "VISA",
           *               "count": 2,
           *               "amount": "100.00",
           *               "share": "66.667"
           *             }
           *           ]
           *         }
           *       ]
           *     }
           */
          'application/json': components['schemas']['SalesByPaymentMethod'];
        };
      };
      /**
       * @description Bad Request.
       *
       *     - `conflicting_credentials`: An identity header of another system was sent; before the key, not counted.
       */
      400: {
        headers: {
          /** @description Made by the server for every response of the API (a client’s own header is not trusted). */
          'X-Request-Id': string;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem400'];
        };
      };
      /**
       * @description Unauthorized.
       *
       *     - `invalid_token`: Key absent, wrong, revoked, paused, expired or replaced; `reason` only when the key worked before. Header `WWW-Authenticate: Bearer realm=…`.
       */
      401: {
        headers: {
          /** @description Made by the server for every response of the API (a client’s own header is not trusted). */
          'X-Request-Id': string;
          /** @description The scheme to authenticate with: Bearer. */
          'WWW-Authenticate': string;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem401'];
        };
      };
      /**
       * @description Forbidden.
       *
       *     - `forbidden_permission`: The key lacks the route’s permission; the body has `required_permission`.
       */
      403: {
        headers: {
          /** @description Made by the server for every response of the API (a client’s own header is not trusted). */
          'X-Request-Id': string;
          /** @description Calls per window. Absent: the limit was not measured on this call (never read as zero). */
          'X-RateLimit-Limit'?: number;
          /** @description Calls left in the sliding window; 0 on 429. */
          'X-RateLimit-Remaining'?: number;
          /** @description Unix seconds by which the balance has grown by at least one call (an upper bound). */
          'X-RateLimit-Reset'?: number;
          /** @description `true`: the call was authenticated by the previous key of a rotation. */
          Deprecation?: 'true';
          /** @description When the previous key of the rotation stops working (an HTTP date). */
          Sunset?: string;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem403'];
        };
      };
      /**
       * @description Not Found.
       *
       *     - `not_found`: `place` not reached by the key or nonexistent, or `event` not of that place (with `param`); or an `Accept` of another version (without `param`).
       */
      404: {
        headers: {
          /** @description Made by the server for every response of the API (a client’s own header is not trusted). */
          'X-Request-Id': string;
          /** @description Calls per window. Absent: the limit was not measured on this call (never read as zero). */
          'X-RateLimit-Limit'?: number;
          /** @description Calls left in the sliding window; 0 on 429. */
          'X-RateLimit-Remaining'?: number;
          /** @description Unix seconds by which the balance has grown by at least one call (an upper bound). */
          'X-RateLimit-Reset'?: number;
          /** @description `true`: the call was authenticated by the previous key of a rotation. */
          Deprecation?: 'true';
          /** @description When the previous key of the rotation stops working (an HTTP date). */
          Sunset?: string;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem404'];
        };
      };
      /**
       * @description Method Not Allowed.
       *
       *     - `method_not_allowed`: Any method other than GET, HEAD and OPTIONS included; header `Allow: GET`; with or without key; not counted.
       */
      405: {
        headers: {
          /** @description Made by the server for every response of the API (a client’s own header is not trusted). */
          'X-Request-Id': string;
          /** @description The methods the route accepts. */
          Allow: string;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem405'];
        };
      };
      /**
       * @description Unsupported Media Type.
       *
       *     - (no `code`): a GET with a body whose `Content-Type` is not JSON (only with a valid key; counted, with `X-RateLimit-*`).
       */
      415: {
        headers: {
          /** @description Made by the server for every response of the API (a client’s own header is not trusted). */
          'X-Request-Id': string;
          /** @description Calls per window. Absent: the limit was not measured on this call (never read as zero). */
          'X-RateLimit-Limit'?: number;
          /** @description Calls left in the sliding window; 0 on 429. */
          'X-RateLimit-Remaining'?: number;
          /** @description Unix seconds by which the balance has grown by at least one call (an upper bound). */
          'X-RateLimit-Reset'?: number;
          /** @description `true`: the call was authenticated by the previous key of a rotation. */
          Deprecation?: 'true';
          /** @description When the previous key of the rotation stops working (an HTTP date). */
          Sunset?: string;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem415CodeOptional'];
        };
      };
      /**
       * @description Unprocessable Entity.
       *
       *     - `invalid_parameter`: A parameter missing (`place` too), unknown or repeated; a date without offset; a period above 120 days (without `event`); more than one place or event; an identifier in the wrong format; an invalid or foreign cursor; an invalid search; `limit` outside 1 to 100. `param` names it.
       */
      422: {
        headers: {
          /** @description Made by the server for every response of the API (a client’s own header is not trusted). */
          'X-Request-Id': string;
          /** @description Calls per window. Absent: the limit was not measured on this call (never read as zero). */
          'X-RateLimit-Limit'?: number;
          /** @description Calls left in the sliding window; 0 on 429. */
          'X-RateLimit-Remaining'?: number;
          /** @description Unix seconds by which the balance has grown by at least one call (an upper bound). */
          'X-RateLimit-Reset'?: number;
          /** @description `true`: the call was authenticated by the previous key of a rotation. */
          Deprecation?: 'true';
          /** @description When the previous key of the rotation stops working (an HTTP date). */
          Sunset?: string;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem422'];
        };
      };
      /**
       * @description Too Many Requests.
       *
       *     - `rate_limited`: A limit was reached (see the 429 table of the API’s description); header `Retry-After`.
       */
      429: {
        headers: {
          /** @description Made by the server for every response of the API (a client’s own header is not trusted). */
          'X-Request-Id': string;
          /** @description Calls per window. Absent: the limit was not measured on this call (never read as zero). On a 429, the value of the limit that refused (see the 429 table); absent on the documentation pages’ limit. */
          'X-RateLimit-Limit'?: number;
          /** @description Calls left in the sliding window; 0 on 429. */
          'X-RateLimit-Remaining'?: number;
          /** @description Unix seconds by which the balance has grown by at least one call (an upper bound). */
          'X-RateLimit-Reset'?: number;
          /** @description Whole seconds to wait before sending the same request again. */
          'Retry-After': number;
          /** @description `true`: the call was authenticated by the previous key of a rotation. */
          Deprecation?: 'true';
          /** @description When the previous key of the rotation stops working (an HTTP date). */
          Sunset?: string;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem429'];
        };
      };
      /**
       * @description Internal Server Error.
       *
       *     - `internal_error`: Unexpected failure.
       */
      500: {
        headers: {
          /** @description Made by the server for every response of the API (a client’s own header is not trusted). */
          'X-Request-Id': string;
          /** @description Calls per window. Absent: the limit was not measured on this call (never read as zero). */
          'X-RateLimit-Limit'?: number;
          /** @description Calls left in the sliding window; 0 on 429. */
          'X-RateLimit-Remaining'?: number;
          /** @description Unix seconds by which the balance has grown by at least one call (an upper bound). */
          'X-RateLimit-Reset'?: number;
          /** @description `true`: the call was authenticated by the previous key of a rotation. */
          Deprecation?: 'true';
          /** @description When the previous key of the rotation stops working (an HTTP date). */
          Sunset?: string;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem500'];
        };
      };
      /**
       * @description Service Unavailable.
       *
       *     - `temporarily_unavailable`: The query did not finish in time, or (receipts only) the concurrency control was unavailable, or (any route) the server is shutting down and can no longer take the call; `Retry-After` 60. Wait and repeat; in the first case reduce the period if it persists.
       */
      503: {
        headers: {
          /** @description Made by the server for every response of the API (a client’s own header is not trusted). */
          'X-Request-Id': string;
          /** @description Calls per window. Absent: the limit was not measured on this call (never read as zero). */
          'X-RateLimit-Limit'?: number;
          /** @description Calls left in the sliding window; 0 on 429. */
          'X-RateLimit-Remaining'?: number;
          /** @description Unix seconds by which the balance has grown by at least one call (an upper bound). */
          'X-RateLimit-Reset'?: number;
          /** @description Whole seconds to wait before sending the same request again. */
          'Retry-After': number;
          /** @description `true`: the call was authenticated by the previous key of a rotation. */
          Deprecation?: 'true';
          /** @description When the previous key of the rotation stops working (an HTTP date). */
          Sunset?: string;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem503'];
        };
      };
    };
  };
  getSalesByPlace: {
    parameters: {
      query: {
        /** @description ISO 8601 date and time with a mandatory offset or `Z` (`2026-10-01T00:00:00-03:00`); a `+` must be sent as `%2B`; fractions of a second are rounded up. Start of the period, included; sent without `to`: 422 naming `to`; after `to`: 422 with `param` `from`. */
        from: string;
        /** @description ISO 8601 date and time with a mandatory offset or `Z` (`2026-10-01T00:00:00-03:00`); a `+` must be sent as `%2B`; fractions of a second are rounded up. End of the period, excluded; sent without `from`: 422 naming `from`; at most 120 days after `from` (422 with `param` `to`). */
        to: string;
        /** @description Comma-separated place ids, at most 100, none repeated; default all places of the key; outside the key gives 404 with `param` `place`. */
        place?: string;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /**
       * @description Bad Request.
       *
       *     - `conflicting_credentials`: An identity header of another system was sent; before the key, not counted.
       */
      400: {
        headers: {
          /** @description Made by the server for every response of the API (a client’s own header is not trusted). */
          'X-Request-Id': string;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem400'];
        };
      };
      /**
       * @description Unauthorized.
       *
       *     - `invalid_token`: Key absent, wrong, revoked, paused, expired or replaced; `reason` only when the key worked before. Header `WWW-Authenticate: Bearer realm=…`.
       */
      401: {
        headers: {
          /** @description Made by the server for every response of the API (a client’s own header is not trusted). */
          'X-Request-Id': string;
          /** @description The scheme to authenticate with: Bearer. */
          'WWW-Authenticate': string;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem401'];
        };
      };
      /**
       * @description Not Found.
       *
       *     - `not_found`: `place` not reached by the key or nonexistent, or `event` not of that place (with `param`); or an `Accept` of another version (without `param`).
       */
      404: {
        headers: {
          /** @description Made by the server for every response of the API (a client’s own header is not trusted). */
          'X-Request-Id': string;
          /** @description Calls per window. Absent: the limit was not measured on this call (never read as zero). */
          'X-RateLimit-Limit'?: number;
          /** @description Calls left in the sliding window; 0 on 429. */
          'X-RateLimit-Remaining'?: number;
          /** @description Unix seconds by which the balance has grown by at least one call (an upper bound). */
          'X-RateLimit-Reset'?: number;
          /** @description `true`: the call was authenticated by the previous key of a rotation. */
          Deprecation?: 'true';
          /** @description When the previous key of the rotation stops working (an HTTP date). */
          Sunset?: string;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem404'];
        };
      };
      /**
       * @description Method Not Allowed.
       *
       *     - `method_not_allowed`: Any method other than GET, HEAD and OPTIONS included; header `Allow: GET`; with or without key; not counted.
       */
      405: {
        headers: {
          /** @description Made by the server for every response of the API (a client’s own header is not trusted). */
          'X-Request-Id': string;
          /** @description The methods the route accepts. */
          Allow: string;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem405'];
        };
      };
      /**
       * @description Unsupported Media Type.
       *
       *     - (no `code`): a GET with a body whose `Content-Type` is not JSON (only with a valid key; counted, with `X-RateLimit-*`).
       */
      415: {
        headers: {
          /** @description Made by the server for every response of the API (a client’s own header is not trusted). */
          'X-Request-Id': string;
          /** @description Calls per window. Absent: the limit was not measured on this call (never read as zero). */
          'X-RateLimit-Limit'?: number;
          /** @description Calls left in the sliding window; 0 on 429. */
          'X-RateLimit-Remaining'?: number;
          /** @description Unix seconds by which the balance has grown by at least one call (an upper bound). */
          'X-RateLimit-Reset'?: number;
          /** @description `true`: the call was authenticated by the previous key of a rotation. */
          Deprecation?: 'true';
          /** @description When the previous key of the rotation stops working (an HTTP date). */
          Sunset?: string;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem415CodeOptional'];
        };
      };
      /**
       * @description Unprocessable Entity.
       *
       *     - `invalid_parameter`: A parameter missing (`place` too), unknown or repeated; a date without offset; a period above 120 days (without `event`); more than one place or event; an identifier in the wrong format; an invalid or foreign cursor; an invalid search; `limit` outside 1 to 100. `param` names it.
       */
      422: {
        headers: {
          /** @description Made by the server for every response of the API (a client’s own header is not trusted). */
          'X-Request-Id': string;
          /** @description Calls per window. Absent: the limit was not measured on this call (never read as zero). */
          'X-RateLimit-Limit'?: number;
          /** @description Calls left in the sliding window; 0 on 429. */
          'X-RateLimit-Remaining'?: number;
          /** @description Unix seconds by which the balance has grown by at least one call (an upper bound). */
          'X-RateLimit-Reset'?: number;
          /** @description `true`: the call was authenticated by the previous key of a rotation. */
          Deprecation?: 'true';
          /** @description When the previous key of the rotation stops working (an HTTP date). */
          Sunset?: string;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem422'];
        };
      };
      /**
       * @description Too Many Requests.
       *
       *     - `rate_limited`: A limit was reached (see the 429 table of the API’s description); header `Retry-After`.
       */
      429: {
        headers: {
          /** @description Made by the server for every response of the API (a client’s own header is not trusted). */
          'X-Request-Id': string;
          /** @description Calls per window. Absent: the limit was not measured on this call (never read as zero). On a 429, the value of the limit that refused (see the 429 table); absent on the documentation pages’ limit. */
          'X-RateLimit-Limit'?: number;
          /** @description Calls left in the sliding window; 0 on 429. */
          'X-RateLimit-Remaining'?: number;
          /** @description Unix seconds by which the balance has grown by at least one call (an upper bound). */
          'X-RateLimit-Reset'?: number;
          /** @description Whole seconds to wait before sending the same request again. */
          'Retry-After': number;
          /** @description `true`: the call was authenticated by the previous key of a rotation. */
          Deprecation?: 'true';
          /** @description When the previous key of the rotation stops working (an HTTP date). */
          Sunset?: string;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem429'];
        };
      };
      /**
       * @description Internal Server Error.
       *
       *     - `internal_error`: Unexpected failure.
       */
      500: {
        headers: {
          /** @description Made by the server for every response of the API (a client’s own header is not trusted). */
          'X-Request-Id': string;
          /** @description Calls per window. Absent: the limit was not measured on this call (never read as zero). */
          'X-RateLimit-Limit'?: number;
          /** @description Calls left in the sliding window; 0 on 429. */
          'X-RateLimit-Remaining'?: number;
          /** @description Unix seconds by which the balance has grown by at least one call (an upper bound). */
          'X-RateLimit-Reset'?: number;
          /** @description `true`: the call was authenticated by the previous key of a rotation. */
          Deprecation?: 'true';
          /** @description When the previous key of the rotation stops working (an HTTP date). */
          Sunset?: string;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem500'];
        };
      };
      /**
       * @description Not Implemented.
       *
       *     - `not_implemented`: The route is planned.
       */
      501: {
        headers: {
          /** @description Made by the server for every response of the API (a client’s own header is not trusted). */
          'X-Request-Id': string;
          /** @description Calls per window. Absent: the limit was not measured on this call (never read as zero). */
          'X-RateLimit-Limit'?: number;
          /** @description Calls left in the sliding window; 0 on 429. */
          'X-RateLimit-Remaining'?: number;
          /** @description Unix seconds by which the balance has grown by at least one call (an upper bound). */
          'X-RateLimit-Reset'?: number;
          /** @description `true`: the call was authenticated by the previous key of a rotation. */
          Deprecation?: 'true';
          /** @description When the previous key of the rotation stops working (an HTTP date). */
          Sunset?: string;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem501'];
        };
      };
      /**
       * @description Service Unavailable.
       *
       *     - `temporarily_unavailable`: The query did not finish in time, or (receipts only) the concurrency control was unavailable, or (any route) the server is shutting down and can no longer take the call; `Retry-After` 60. Wait and repeat; in the first case reduce the period if it persists.
       */
      503: {
        headers: {
          /** @description Made by the server for every response of the API (a client’s own header is not trusted). */
          'X-Request-Id': string;
          /** @description Calls per window. Absent: the limit was not measured on this call (never read as zero). */
          'X-RateLimit-Limit'?: number;
          /** @description Calls left in the sliding window; 0 on 429. */
          'X-RateLimit-Remaining'?: number;
          /** @description Unix seconds by which the balance has grown by at least one call (an upper bound). */
          'X-RateLimit-Reset'?: number;
          /** @description Whole seconds to wait before sending the same request again. */
          'Retry-After': number;
          /** @description `true`: the call was authenticated by the previous key of a rotation. */
          Deprecation?: 'true';
          /** @description When the previous key of the rotation stops working (an HTTP date). */
          Sunset?: string;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem503'];
        };
      };
    };
  };
  getSalesByProduct: {
    parameters: {
      query: {
        /** @description ISO 8601 date and time with a mandatory offset or `Z` (`2026-10-01T00:00:00-03:00`); a `+` must be sent as `%2B`; fractions of a second are rounded up. Start of the period, included; sent without `to`: 422 naming `to`; after `to`: 422 with `param` `from`. */
        from: string;
        /** @description ISO 8601 date and time with a mandatory offset or `Z` (`2026-10-01T00:00:00-03:00`); a `+` must be sent as `%2B`; fractions of a second are rounded up. End of the period, excluded; sent without `from`: 422 naming `from`; at most 120 days after `from` (422 with `param` `to`). */
        to: string;
        /** @description Comma-separated place ids, at most 100, none repeated; default all places of the key; outside the key gives 404 with `param` `place`. */
        place?: string;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /**
       * @description Bad Request.
       *
       *     - `conflicting_credentials`: An identity header of another system was sent; before the key, not counted.
       */
      400: {
        headers: {
          /** @description Made by the server for every response of the API (a client’s own header is not trusted). */
          'X-Request-Id': string;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem400'];
        };
      };
      /**
       * @description Unauthorized.
       *
       *     - `invalid_token`: Key absent, wrong, revoked, paused, expired or replaced; `reason` only when the key worked before. Header `WWW-Authenticate: Bearer realm=…`.
       */
      401: {
        headers: {
          /** @description Made by the server for every response of the API (a client’s own header is not trusted). */
          'X-Request-Id': string;
          /** @description The scheme to authenticate with: Bearer. */
          'WWW-Authenticate': string;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem401'];
        };
      };
      /**
       * @description Not Found.
       *
       *     - `not_found`: `place` not reached by the key or nonexistent, or `event` not of that place (with `param`); or an `Accept` of another version (without `param`).
       */
      404: {
        headers: {
          /** @description Made by the server for every response of the API (a client’s own header is not trusted). */
          'X-Request-Id': string;
          /** @description Calls per window. Absent: the limit was not measured on this call (never read as zero). */
          'X-RateLimit-Limit'?: number;
          /** @description Calls left in the sliding window; 0 on 429. */
          'X-RateLimit-Remaining'?: number;
          /** @description Unix seconds by which the balance has grown by at least one call (an upper bound). */
          'X-RateLimit-Reset'?: number;
          /** @description `true`: the call was authenticated by the previous key of a rotation. */
          Deprecation?: 'true';
          /** @description When the previous key of the rotation stops working (an HTTP date). */
          Sunset?: string;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem404'];
        };
      };
      /**
       * @description Method Not Allowed.
       *
       *     - `method_not_allowed`: Any method other than GET, HEAD and OPTIONS included; header `Allow: GET`; with or without key; not counted.
       */
      405: {
        headers: {
          /** @description Made by the server for every response of the API (a client’s own header is not trusted). */
          'X-Request-Id': string;
          /** @description The methods the route accepts. */
          Allow: string;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem405'];
        };
      };
      /**
       * @description Unsupported Media Type.
       *
       *     - (no `code`): a GET with a body whose `Content-Type` is not JSON (only with a valid key; counted, with `X-RateLimit-*`).
       */
      415: {
        headers: {
          /** @description Made by the server for every response of the API (a client’s own header is not trusted). */
          'X-Request-Id': string;
          /** @description Calls per window. Absent: the limit was not measured on this call (never read as zero). */
          'X-RateLimit-Limit'?: number;
          /** @description Calls left in the sliding window; 0 on 429. */
          'X-RateLimit-Remaining'?: number;
          /** @description Unix seconds by which the balance has grown by at least one call (an upper bound). */
          'X-RateLimit-Reset'?: number;
          /** @description `true`: the call was authenticated by the previous key of a rotation. */
          Deprecation?: 'true';
          /** @description When the previous key of the rotation stops working (an HTTP date). */
          Sunset?: string;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem415CodeOptional'];
        };
      };
      /**
       * @description Unprocessable Entity.
       *
       *     - `invalid_parameter`: A parameter missing (`place` too), unknown or repeated; a date without offset; a period above 120 days (without `event`); more than one place or event; an identifier in the wrong format; an invalid or foreign cursor; an invalid search; `limit` outside 1 to 100. `param` names it.
       */
      422: {
        headers: {
          /** @description Made by the server for every response of the API (a client’s own header is not trusted). */
          'X-Request-Id': string;
          /** @description Calls per window. Absent: the limit was not measured on this call (never read as zero). */
          'X-RateLimit-Limit'?: number;
          /** @description Calls left in the sliding window; 0 on 429. */
          'X-RateLimit-Remaining'?: number;
          /** @description Unix seconds by which the balance has grown by at least one call (an upper bound). */
          'X-RateLimit-Reset'?: number;
          /** @description `true`: the call was authenticated by the previous key of a rotation. */
          Deprecation?: 'true';
          /** @description When the previous key of the rotation stops working (an HTTP date). */
          Sunset?: string;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem422'];
        };
      };
      /**
       * @description Too Many Requests.
       *
       *     - `rate_limited`: A limit was reached (see the 429 table of the API’s description); header `Retry-After`.
       */
      429: {
        headers: {
          /** @description Made by the server for every response of the API (a client’s own header is not trusted). */
          'X-Request-Id': string;
          /** @description Calls per window. Absent: the limit was not measured on this call (never read as zero). On a 429, the value of the limit that refused (see the 429 table); absent on the documentation pages’ limit. */
          'X-RateLimit-Limit'?: number;
          /** @description Calls left in the sliding window; 0 on 429. */
          'X-RateLimit-Remaining'?: number;
          /** @description Unix seconds by which the balance has grown by at least one call (an upper bound). */
          'X-RateLimit-Reset'?: number;
          /** @description Whole seconds to wait before sending the same request again. */
          'Retry-After': number;
          /** @description `true`: the call was authenticated by the previous key of a rotation. */
          Deprecation?: 'true';
          /** @description When the previous key of the rotation stops working (an HTTP date). */
          Sunset?: string;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem429'];
        };
      };
      /**
       * @description Internal Server Error.
       *
       *     - `internal_error`: Unexpected failure.
       */
      500: {
        headers: {
          /** @description Made by the server for every response of the API (a client’s own header is not trusted). */
          'X-Request-Id': string;
          /** @description Calls per window. Absent: the limit was not measured on this call (never read as zero). */
          'X-RateLimit-Limit'?: number;
          /** @description Calls left in the sliding window; 0 on 429. */
          'X-RateLimit-Remaining'?: number;
          /** @description Unix seconds by which the balance has grown by at least one call (an upper bound). */
          'X-RateLimit-Reset'?: number;
          /** @description `true`: the call was authenticated by the previous key of a rotation. */
          Deprecation?: 'true';
          /** @description When the previous key of the rotation stops working (an HTTP date). */
          Sunset?: string;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem500'];
        };
      };
      /**
       * @description Not Implemented.
       *
       *     - `not_implemented`: The route is planned.
       */
      501: {
        headers: {
          /** @description Made by the server for every response of the API (a client’s own header is not trusted). */
          'X-Request-Id': string;
          /** @description Calls per window. Absent: the limit was not measured on this call (never read as zero). */
          'X-RateLimit-Limit'?: number;
          /** @description Calls left in the sliding window; 0 on 429. */
          'X-RateLimit-Remaining'?: number;
          /** @description Unix seconds by which the balance has grown by at least one call (an upper bound). */
          'X-RateLimit-Reset'?: number;
          /** @description `true`: the call was authenticated by the previous key of a rotation. */
          Deprecation?: 'true';
          /** @description When the previous key of the rotation stops working (an HTTP date). */
          Sunset?: string;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem501'];
        };
      };
      /**
       * @description Service Unavailable.
       *
       *     - `temporarily_unavailable`: The query did not finish in time, or (receipts only) the concurrency control was unavailable, or (any route) the server is shutting down and can no longer take the call; `Retry-After` 60. Wait and repeat; in the first case reduce the period if it persists.
       */
      503: {
        headers: {
          /** @description Made by the server for every response of the API (a client’s own header is not trusted). */
          'X-Request-Id': string;
          /** @description Calls per window. Absent: the limit was not measured on this call (never read as zero). */
          'X-RateLimit-Limit'?: number;
          /** @description Calls left in the sliding window; 0 on 429. */
          'X-RateLimit-Remaining'?: number;
          /** @description Unix seconds by which the balance has grown by at least one call (an upper bound). */
          'X-RateLimit-Reset'?: number;
          /** @description Whole seconds to wait before sending the same request again. */
          'Retry-After': number;
          /** @description `true`: the call was authenticated by the previous key of a rotation. */
          Deprecation?: 'true';
          /** @description When the previous key of the rotation stops working (an HTTP date). */
          Sunset?: string;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem503'];
        };
      };
    };
  };
  getSalesSummary: {
    parameters: {
      query: {
        /** @description ISO 8601 date and time with a mandatory offset or `Z` (`2026-10-01T00:00:00-03:00`); a `+` must be sent as `%2B`; fractions of a second are rounded up. Start of the period, included; sent without `to`: 422 naming `to`; after `to`: 422 with `param` `from`. */
        from: string;
        /** @description ISO 8601 date and time with a mandatory offset or `Z` (`2026-10-01T00:00:00-03:00`); a `+` must be sent as `%2B`; fractions of a second are rounded up. End of the period, excluded; sent without `from`: 422 naming `from`; at most 120 days after `from` (422 with `param` `to`). */
        to: string;
        /** @description Comma-separated place ids, at most 100, none repeated; default all places of the key; outside the key gives 404 with `param` `place`. */
        place?: string;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /**
       * @description Bad Request.
       *
       *     - `conflicting_credentials`: An identity header of another system was sent; before the key, not counted.
       */
      400: {
        headers: {
          /** @description Made by the server for every response of the API (a client’s own header is not trusted). */
          'X-Request-Id': string;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem400'];
        };
      };
      /**
       * @description Unauthorized.
       *
       *     - `invalid_token`: Key absent, wrong, revoked, paused, expired or replaced; `reason` only when the key worked before. Header `WWW-Authenticate: Bearer realm=…`.
       */
      401: {
        headers: {
          /** @description Made by the server for every response of the API (a client’s own header is not trusted). */
          'X-Request-Id': string;
          /** @description The scheme to authenticate with: Bearer. */
          'WWW-Authenticate': string;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem401'];
        };
      };
      /**
       * @description Not Found.
       *
       *     - `not_found`: `place` not reached by the key or nonexistent, or `event` not of that place (with `param`); or an `Accept` of another version (without `param`).
       */
      404: {
        headers: {
          /** @description Made by the server for every response of the API (a client’s own header is not trusted). */
          'X-Request-Id': string;
          /** @description Calls per window. Absent: the limit was not measured on this call (never read as zero). */
          'X-RateLimit-Limit'?: number;
          /** @description Calls left in the sliding window; 0 on 429. */
          'X-RateLimit-Remaining'?: number;
          /** @description Unix seconds by which the balance has grown by at least one call (an upper bound). */
          'X-RateLimit-Reset'?: number;
          /** @description `true`: the call was authenticated by the previous key of a rotation. */
          Deprecation?: 'true';
          /** @description When the previous key of the rotation stops working (an HTTP date). */
          Sunset?: string;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem404'];
        };
      };
      /**
       * @description Method Not Allowed.
       *
       *     - `method_not_allowed`: Any method other than GET, HEAD and OPTIONS included; header `Allow: GET`; with or without key; not counted.
       */
      405: {
        headers: {
          /** @description Made by the server for every response of the API (a client’s own header is not trusted). */
          'X-Request-Id': string;
          /** @description The methods the route accepts. */
          Allow: string;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem405'];
        };
      };
      /**
       * @description Unsupported Media Type.
       *
       *     - (no `code`): a GET with a body whose `Content-Type` is not JSON (only with a valid key; counted, with `X-RateLimit-*`).
       */
      415: {
        headers: {
          /** @description Made by the server for every response of the API (a client’s own header is not trusted). */
          'X-Request-Id': string;
          /** @description Calls per window. Absent: the limit was not measured on this call (never read as zero). */
          'X-RateLimit-Limit'?: number;
          /** @description Calls left in the sliding window; 0 on 429. */
          'X-RateLimit-Remaining'?: number;
          /** @description Unix seconds by which the balance has grown by at least one call (an upper bound). */
          'X-RateLimit-Reset'?: number;
          /** @description `true`: the call was authenticated by the previous key of a rotation. */
          Deprecation?: 'true';
          /** @description When the previous key of the rotation stops working (an HTTP date). */
          Sunset?: string;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem415CodeOptional'];
        };
      };
      /**
       * @description Unprocessable Entity.
       *
       *     - `invalid_parameter`: A parameter missing (`place` too), unknown or repeated; a date without offset; a period above 120 days (without `event`); more than one place or event; an identifier in the wrong format; an invalid or foreign cursor; an invalid search; `limit` outside 1 to 100. `param` names it.
       */
      422: {
        headers: {
          /** @description Made by the server for every response of the API (a client’s own header is not trusted). */
          'X-Request-Id': string;
          /** @description Calls per window. Absent: the limit was not measured on this call (never read as zero). */
          'X-RateLimit-Limit'?: number;
          /** @description Calls left in the sliding window; 0 on 429. */
          'X-RateLimit-Remaining'?: number;
          /** @description Unix seconds by which the balance has grown by at least one call (an upper bound). */
          'X-RateLimit-Reset'?: number;
          /** @description `true`: the call was authenticated by the previous key of a rotation. */
          Deprecation?: 'true';
          /** @description When the previous key of the rotation stops working (an HTTP date). */
          Sunset?: string;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem422'];
        };
      };
      /**
       * @description Too Many Requests.
       *
       *     - `rate_limited`: A limit was reached (see the 429 table of the API’s description); header `Retry-After`.
       */
      429: {
        headers: {
          /** @description Made by the server for every response of the API (a client’s own header is not trusted). */
          'X-Request-Id': string;
          /** @description Calls per window. Absent: the limit was not measured on this call (never read as zero). On a 429, the value of the limit that refused (see the 429 table); absent on the documentation pages’ limit. */
          'X-RateLimit-Limit'?: number;
          /** @description Calls left in the sliding window; 0 on 429. */
          'X-RateLimit-Remaining'?: number;
          /** @description Unix seconds by which the balance has grown by at least one call (an upper bound). */
          'X-RateLimit-Reset'?: number;
          /** @description Whole seconds to wait before sending the same request again. */
          'Retry-After': number;
          /** @description `true`: the call was authenticated by the previous key of a rotation. */
          Deprecation?: 'true';
          /** @description When the previous key of the rotation stops working (an HTTP date). */
          Sunset?: string;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem429'];
        };
      };
      /**
       * @description Internal Server Error.
       *
       *     - `internal_error`: Unexpected failure.
       */
      500: {
        headers: {
          /** @description Made by the server for every response of the API (a client’s own header is not trusted). */
          'X-Request-Id': string;
          /** @description Calls per window. Absent: the limit was not measured on this call (never read as zero). */
          'X-RateLimit-Limit'?: number;
          /** @description Calls left in the sliding window; 0 on 429. */
          'X-RateLimit-Remaining'?: number;
          /** @description Unix seconds by which the balance has grown by at least one call (an upper bound). */
          'X-RateLimit-Reset'?: number;
          /** @description `true`: the call was authenticated by the previous key of a rotation. */
          Deprecation?: 'true';
          /** @description When the previous key of the rotation stops working (an HTTP date). */
          Sunset?: string;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem500'];
        };
      };
      /**
       * @description Not Implemented.
       *
       *     - `not_implemented`: The route is planned.
       */
      501: {
        headers: {
          /** @description Made by the server for every response of the API (a client’s own header is not trusted). */
          'X-Request-Id': string;
          /** @description Calls per window. Absent: the limit was not measured on this call (never read as zero). */
          'X-RateLimit-Limit'?: number;
          /** @description Calls left in the sliding window; 0 on 429. */
          'X-RateLimit-Remaining'?: number;
          /** @description Unix seconds by which the balance has grown by at least one call (an upper bound). */
          'X-RateLimit-Reset'?: number;
          /** @description `true`: the call was authenticated by the previous key of a rotation. */
          Deprecation?: 'true';
          /** @description When the previous key of the rotation stops working (an HTTP date). */
          Sunset?: string;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem501'];
        };
      };
      /**
       * @description Service Unavailable.
       *
       *     - `temporarily_unavailable`: The query did not finish in time, or (receipts only) the concurrency control was unavailable, or (any route) the server is shutting down and can no longer take the call; `Retry-After` 60. Wait and repeat; in the first case reduce the period if it persists.
       */
      503: {
        headers: {
          /** @description Made by the server for every response of the API (a client’s own header is not trusted). */
          'X-Request-Id': string;
          /** @description Calls per window. Absent: the limit was not measured on this call (never read as zero). */
          'X-RateLimit-Limit'?: number;
          /** @description Calls left in the sliding window; 0 on 429. */
          'X-RateLimit-Remaining'?: number;
          /** @description Unix seconds by which the balance has grown by at least one call (an upper bound). */
          'X-RateLimit-Reset'?: number;
          /** @description Whole seconds to wait before sending the same request again. */
          'Retry-After': number;
          /** @description `true`: the call was authenticated by the previous key of a rotation. */
          Deprecation?: 'true';
          /** @description When the previous key of the rotation stops working (an HTTP date). */
          Sunset?: string;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem503'];
        };
      };
    };
  };
}
