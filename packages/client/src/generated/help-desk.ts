// Generated from openapi/help-desk.json by scripts/generate-types.ts (openapi-typescript). Do not edit.

export interface paths {
  '/v1/api-external-system/help-desk-ticket': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Opens a ticket; the same external_id again answers the stored ticket as a duplicate.
     * @description Scope `help-desk-ticket.create`.
     *
     *     Body: the ticket request, `Content-Type` `application/json` (with `; charset=utf-8`, or a type with suffix `+json`, accepted). The type must be lowercase: `Application/JSON` gets 415. Missing or other type: 415 `unsupported_media_type`. `category`, `priority` and `support_level` never reject the ticket. Field 422s come last, in the order of the ticket request table (`external_id`, `company`, `description`, `nature`, `requester`), with `param` and `X-RateLimit-*`: fix the body before resending. 503 `misconfigured_system` (with `Retry-After`): the system cannot open tickets because of its own configuration; keep the ticket and resend, as for any 503.
     */
    post: operations['createHelpDeskTicket'];
    delete?: never;
    /**
     * The methods /v1/api-external-system/help-desk-ticket accepts.
     * @description Needs the key and counts toward the rate limit, but needs no scope; returns 200 with no body and an `Allow` header listing the route’s method and `OPTIONS`.
     */
    options: operations['createHelpDeskTicketOptions'];
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/api-external-system/help-desk-ticket-options': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * The companies, categories, priorities, support levels and natures this system may choose.
     * @description Scope `help-desk-ticket.create`.
     *
     *     No parameters, no body. Cache the response for a few hours; refetch on receiving `category_fallback`, `priority_fallback` or `invalid_nature`.
     */
    get: operations['getHelpDeskTicketOptions'];
    put?: never;
    post?: never;
    delete?: never;
    /**
     * The methods /v1/api-external-system/help-desk-ticket-options accepts.
     * @description Needs the key and counts toward the rate limit, but needs no scope; returns 200 with no body and an `Allow` header listing the route’s method and `OPTIONS`.
     */
    options: operations['getHelpDeskTicketOptionsOptions'];
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/api-external-system/lead': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Planned: checks the request as the document says, stores nothing and answers 501.
     * @description Scope `lead.create`.
     *
     *     **Planned.** Documented and checked as the contract says, then answered 501 `not_implemented`; parameters and responses are provisional, outside the v1 promise. Not to be integrated until announced.
     *
     *     Authenticates and checks the minimal shape (a JSON object with `external_id`), stores nothing: 501 `not_implemented`. Without the `lead.create` scope: 403 `forbidden_scope`.
     */
    post: operations['createLead'];
    delete?: never;
    /**
     * The methods /v1/api-external-system/lead accepts.
     * @description Needs the key and counts toward the rate limit, but needs no scope; returns 200 with no body and an `Allow` header listing the route’s method and `OPTIONS`.
     */
    options: operations['createLeadOptions'];
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/api-external-system/webhook/{system}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Opens a ticket through the system's webhook: any Content-Type, the body read as JSON.
     * @description Scope `help-desk-ticket.create`.
     *
     *     Same ticket, same body shape, same responses (200, 201, with `applied`) as the direct route; the key in `Authorization` is also required. `system`: the system identifier given by support; an identifier outside the pattern is not a route (404 `not_found`); an unknown identifier, or the key of another system, gives 401 `unauthorized`. Any `Content-Type` is accepted (no 415). The 65,536-byte limit (413) applies before the key; the body shape is checked only after the key and the rate-limit check. With a JSON `Content-Type` (`application/json` or a `+json` suffix), a body that is not a JSON object or list (broken JSON, invalid UTF-8, or a lone value) gets 400 in problem+json **without** `code`, with `X-RateLimit-*`; a JSON list gets 422 `invalid_body`; with any other `Content-Type`, every non-object body gets 422 `invalid_body`. Resending the same body does not help.
     */
    post: operations['createHelpDeskTicketByWebhook'];
    delete?: never;
    /**
     * The methods /v1/api-external-system/webhook/{system} accepts.
     * @description Needs the key and counts toward the rate limit, but needs no scope; returns 200 with no body and an `Allow` header listing the route’s method and `OPTIONS`.
     */
    options: operations['createHelpDeskTicketByWebhookOptions'];
    head?: never;
    patch?: never;
    trace?: never;
  };
}
export type webhooks = Record<string, never>;
export interface components {
  schemas: {
    /**
     * @example {
     *       "external_id": "lead-1"
     *     }
     */
    LeadRequest: {
      /** @description Required, at most 120 characters, cleaned as the ticket's `external_id`. */
      external_id: string | number;
    } & {
      [key: string]: unknown;
    };
    /**
     * @description The choices available when opening a ticket. `description` fields: string or null, at most 500 characters, plain text written by the operator (treat as data, escape before HTML). Ids change between staging and production: read them from this route, never hard-code. Cache for a few hours; refetch on `category_fallback`, `priority_fallback` or `invalid_nature`.
     * @example {
     *       "companies": [
     *         {
     *           "id": "acme",
     *           "name": "ACME Comércio"
     *         }
     *       ],
     *       "categories": [
     *         {
     *           "id": 10,
     *           "name": "Impressora",
     *           "description": "Printers and fiscal printers.",
     *           "default": true,
     *           "default_priority_id": 2,
     *           "type": {
     *             "id": 1,
     *             "name": "Incidente",
     *             "description": null
     *           }
     *         }
     *       ],
     *       "priorities": [
     *         {
     *           "id": 1,
     *           "name": "Alta",
     *           "description": null,
     *           "level": 1,
     *           "response_time_hours": 4
     *         },
     *         {
     *           "id": 2,
     *           "name": "Média",
     *           "description": null,
     *           "level": 2,
     *           "response_time_hours": 24
     *         }
     *       ],
     *       "support_levels": [
     *         {
     *           "id": 1,
     *           "name": "N1",
     *           "description": "First level."
     *         }
     *       ],
     *       "natures": [
     *         {
     *           "identifier": "duvida",
     *           "name": "Dúvida"
     *         }
     *       ]
     *     }
     */
    TicketOptions: {
      companies: {
        id: string;
        name: string;
      }[];
      categories: {
        id: number;
        name: string;
        description: string | null;
        default: boolean;
        default_priority_id: number | null;
        type: {
          id: number;
          name: string;
          description: string | null;
        };
      }[];
      priorities: {
        id: number;
        name: string;
        description: string | null;
        level: number;
        response_time_hours: number;
      }[];
      support_levels: {
        id: number;
        name: string;
        description: string | null;
      }[];
      natures: {
        identifier: string;
        name: string;
      }[];
    };
    /**
     * @description A JSON object. Fields outside the list are ignored, never rejected, and reported in the warning `ignored_fields`. `null` on an optional field equals omitting it; `null` on a required field is refused with that field's `missing_*` code. There is no account or location field; `cnpj` is the only customer identifier.
     * @example {
     *       "external_id": "pos-4711",
     *       "company": "acme",
     *       "description": "Terminal 3 does not print.",
     *       "category": 10,
     *       "nature": "duvida",
     *       "cnpj": "12.345.678/0001-95",
     *       "requester": {
     *         "name": "Ana",
     *         "contact": "ana@example.com"
     *       }
     *     }
     */
    TicketRequest: {
      /** @description 1 to 120 characters after cleaning: leading/trailing spaces and invisible or control characters (except ZWNJ and ZWJ) are removed before comparing and counting. Case-sensitive. A JSON integer counts as the same text. Empty: 422 `missing_external_id`; over 120: 422 `field_too_long` (not truncated); NUL or another JSON type: 422 `invalid_field`. The registry of external ids is per system, shared with the webhook route, and does not expire. */
      external_id: string | number;
      /** @description Id of one entry of `companies` from the options route. Leading/trailing spaces removed; uppercase equals lowercase. Absent or empty: 422 `missing_company`; not in the list: 422 `invalid_company`; NUL or not a string: 422 `invalid_field`. */
      company: string;
      /** @description Plain text, at most 20000 characters counted before trimming; line breaks and tabs are kept. Over: 422 `field_too_long` (not truncated); empty: 422 `missing_description`; NUL or not a string: 422 `invalid_field`. */
      description: string;
      /** @description Id from `categories`; `3.0` is accepted as 3. Absent: the system's default category (warning `category_fallback`). Unknown, a string or a fraction: that same default plus a warning; never rejects. */
      category?: number | null;
      /** @description Id from `priorities`; `1.0` is accepted as 1. Absent: the `default_priority_id` of the stored category (warning `priority_fallback`). Unknown, a string or a fraction: that same default plus a warning; never rejects. */
      priority?: number | null;
      /** @description Id from `support_levels`; `2.0` is accepted as 2. Absent: 1 (warning `support_level_fallback`). Unknown, a string or a fraction: that same default plus a warning; never rejects. */
      support_level?: number | null;
      /** @description An `identifier` from `natures`; spaces trimmed; uppercase equals lowercase. Absent: the ticket is created without nature. Any other value, an empty string or a non-string: 422 `invalid_nature` (the only choice that rejects a ticket). */
      nature?: string | null;
      /** @description Customer tax id, 14 characters, numeric or alphanumeric, as text. Punctuation and a leading label `CNPJ` are ignored; lowercase equals uppercase; the check digit is not verified. Wrong format (including a JSON number that lost its leading zero): ignored with warning `cnpj_ignored`; never rejects. */
      cnpj?: (string | number) | null;
      /** @description Who asked. Excess text is truncated, never rejected (warning `requester_truncated`). Spaces and invisible characters (except ZWNJ, ZWJ) removed. NUL: 422 `invalid_field` (`param` `requester.name` or `requester.contact`). A non-text value is ignored without warning; a `requester` that is not an object, and keys other than `name`/`contact`, are reported in `ignored_fields`. */
      requester?:
        | ({
            /** @description At most 120 characters; excess text is truncated. */
            name?: string | null;
            /** @description At most 160 characters; excess text is truncated. */
            contact?: string | null;
          } & {
            [key: string]: unknown;
          })
        | null;
    } & {
      [key: string]: unknown;
    };
    /**
     * @description `cnpj` and `requester` are not echoed. Without `cnpj_ignored`, the cnpj was accepted.
     * @example {
     *       "ticket": "I-000042",
     *       "id": "0197a3c2-6b1e-7c4d-9f00-3a1b2c3d4e5f",
     *       "duplicate": false,
     *       "warnings": [
     *         {
     *           "code": "ignored_fields",
     *           "message": "These fields are not part of the ticket request and were ignored.",
     *           "fields": [
     *             "store"
     *           ]
     *         }
     *       ],
     *       "applied": {
     *         "category_id": 10,
     *         "priority_id": 2,
     *         "support_level": 1,
     *         "nature": "duvida",
     *         "company": "acme"
     *       }
     *     }
     */
    TicketResponse: {
      /** @description Ticket number in the help desk; starts with `I-`. */
      ticket: string;
      /** @description Opaque ticket id. */
      id: string;
      /** @description true when the `external_id` had been sent before. */
      duplicate: boolean;
      /** @description Empty when nothing was replaced or ignored. On a resubmission the only possible warning is `description_differs`. */
      warnings: components['schemas']['Warning'][];
      /** @description What was actually stored after defaults; on a resubmission (200), the values of the existing ticket. All five fields are always present; any may be null, and null is not an error (do not resend because of it). */
      applied: {
        /** @description Always present on creation; null only on a resubmission of a ticket that later lost its category. */
        category_id: number | null;
        priority_id: number | null;
        support_level: number | null;
        /** @description `identifier` of the stored nature; null when none. */
        nature: string | null;
        /** @description Company id stored. */
        company: string | null;
      };
    };
    Warning: {
      /** @description Open text. Known values: `category_fallback`, `priority_fallback`, `support_level_fallback`, `cnpj_ignored`, `ignored_fields`, `requester_truncated`, `description_differs`. New codes may appear: log and continue, the ticket was created (or already existed). */
      code: string;
      /** @description Human-readable English; may change. Logic must use `code`. */
      message: string;
      /** @description Only on `ignored_fields` (the ignored names in body order, `requester.<key>` inside requester, at most 20 names of at most 64 characters) and `requester_truncated` (`requester.name`, `requester.contact`). */
      fields?: string[];
    };
    /** @description Every refusal of this API (`application/problem+json`). Logic uses `code`, never `detail`. */
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
      /** @description Only on 422 about one body field: `external_id`, `description`, `company`, `nature`, `requester.name`, `requester.contact`. Absent on `invalid_body`. */
      param?: string;
      /** @description Only on 403 `forbidden_scope`: `help-desk-ticket.create` or `lead.create`. */
      required_scope?: string;
    };
    Problem400: components['schemas']['Problem'] & {
      /** @constant */
      status?: 400;
    };
    Problem400CodeOptional: components['schemas']['Problem'] & {
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
    Problem413: components['schemas']['Problem'] & {
      /** @constant */
      status?: 413;
    };
    Problem415: components['schemas']['Problem'] & {
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
  createHelpDeskTicket: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        /**
         * @example {
         *       "external_id": "pos-4711",
         *       "company": "acme",
         *       "description": "Terminal 3 does not print.",
         *       "category": 10,
         *       "nature": "duvida",
         *       "cnpj": "12.345.678/0001-95",
         *       "requester": {
         *         "name": "Ana",
         *         "contact": "ana@example.com"
         *       }
         *     }
         */
        'application/json': components['schemas']['TicketRequest'];
      };
    };
    responses: {
      /** @description The same `external_id` was sent before by this system: the existing ticket as created (`duplicate: true`, its own `applied`), never a second ticket. The body was still validated (the 422 rules apply). */
      200: {
        headers: {
          /** @description Made by the server for every response of the API (a client’s own header is not trusted). */
          'X-Request-Id': string;
          /** @description Calls per window. Absent: the limit was not measured on this call (never read as zero). */
          'X-RateLimit-Limit'?: number;
          /** @description Calls left in the sliding window; 0 on 429. */
          'X-RateLimit-Remaining'?: number;
          /** @description Unix seconds by which the balance has grown by at least one call (an upper bound). */
          'X-RateLimit-Reset'?: number;
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "ticket": "I-000042",
           *       "id": "0197a3c2-6b1e-7c4d-9f00-3a1b2c3d4e5f",
           *       "duplicate": false,
           *       "warnings": [
           *         {
           *           "code": "ignored_fields",
           *           "message": "These fields are not part of the ticket request and were ignored.",
           *           "fields": [
           *             "store"
           *           ]
           *         }
           *       ],
           *       "applied": {
           *         "category_id": 10,
           *         "priority_id": 2,
           *         "support_level": 1,
           *         "nature": "duvida",
           *         "company": "acme"
           *       }
           *     }
           */
          'application/json': components['schemas']['TicketResponse'];
        };
      };
      /** @description Ticket created: the ticket response with `duplicate: false`. */
      201: {
        headers: {
          /** @description Made by the server for every response of the API (a client’s own header is not trusted). */
          'X-Request-Id': string;
          /** @description Calls per window. Absent: the limit was not measured on this call (never read as zero). */
          'X-RateLimit-Limit'?: number;
          /** @description Calls left in the sliding window; 0 on 429. */
          'X-RateLimit-Remaining'?: number;
          /** @description Unix seconds by which the balance has grown by at least one call (an upper bound). */
          'X-RateLimit-Reset'?: number;
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "ticket": "I-000042",
           *       "id": "0197a3c2-6b1e-7c4d-9f00-3a1b2c3d4e5f",
           *       "duplicate": false,
           *       "warnings": [
           *         {
           *           "code": "ignored_fields",
           *           "message": "These fields are not part of the ticket request and were ignored.",
           *           "fields": [
           *             "store"
           *           ]
           *         }
           *       ],
           *       "applied": {
           *         "category_id": 10,
           *         "priority_id": 2,
           *         "support_level": 1,
           *         "nature": "duvida",
           *         "company": "acme"
           *       }
           *     }
           */
          'application/json': components['schemas']['TicketResponse'];
        };
      };
      /**
       * @description Bad Request.
       *
       *     - `conflicting_credentials`: A header of another system’s authentication was sent. Before the key, not counted in the limit.
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
       *     - `unauthorized`: Key absent, malformed or unknown; on the webhook also an unknown identifier or another system’s key. Header `WWW-Authenticate: Bearer`.
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
       *     - `system_inactive`: System deactivated. No `X-RateLimit-*` headers.
       *     - `forbidden_scope`: Key lacks the route’s scope; the body has `required_scope`. `X-RateLimit-*` headers present.
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
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem403'];
        };
      };
      /**
       * @description Not Found.
       *
       *     - `not_found`: The route’s path in another version or without version (and any path under the prefix that is no route). With `X-Request-Id`.
       */
      404: {
        headers: {
          /** @description Made by the server for every response of the API (a client’s own header is not trusted). */
          'X-Request-Id': string;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem404'];
        };
      };
      /**
       * @description Method Not Allowed.
       *
       *     - `method_not_allowed`: Wrong method; header `Allow`. Before the key, not counted in the limit.
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
       * @description Payload Too Large.
       *
       *     - `payload_too_large`: Body above 65,536 bytes counted as sent (bytes, not characters). Before the key.
       */
      413: {
        headers: {
          /** @description Made by the server for every response of the API (a client’s own header is not trusted). */
          'X-Request-Id': string;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem413'];
        };
      };
      /**
       * @description Unsupported Media Type.
       *
       *     - `unsupported_media_type`: Body sent without `Content-Type` or with one other than lowercase JSON. Before the key.
       */
      415: {
        headers: {
          /** @description Made by the server for every response of the API (a client’s own header is not trusted). */
          'X-Request-Id': string;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem415'];
        };
      };
      /**
       * @description Unprocessable Entity.
       *
       *     - `invalid_body`: Body is not a JSON object (broken JSON or invalid UTF-8 included). Before the key on the JSON routes (no `X-RateLimit-*`), after it on the webhook (with them). No `param`.
       *     - `missing_external_id`: Required field absent, empty or null (`param`).
       *     - `missing_company`: Required field absent, empty or null (`param`).
       *     - `invalid_company`: Company not in the list; `detail` lists the valid ones.
       *     - `missing_description`: Required field absent, empty or null (`param`).
       *     - `invalid_nature`: Nature not in the list.
       *     - `invalid_field`: A text field contains NUL, or a field has a JSON type it cannot have; `param` names the field.
       *     - `field_too_long`: `external_id` above 120 or `description` above 20000 characters (only these two fields).
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
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem422'];
        };
      };
      /**
       * @description Too Many Requests.
       *
       *     - `rate_limited`: The system’s limit (with `X-RateLimit-*`, Remaining 0) or an IP block (without). `Retry-After`: the real wait.
       */
      429: {
        headers: {
          /** @description Made by the server for every response of the API (a client’s own header is not trusted). */
          'X-Request-Id': string;
          /** @description Calls per window. Absent: the limit was not measured on this call (never read as zero). Present on the system-limit 429, absent on the IP-block 429. */
          'X-RateLimit-Limit'?: number;
          /** @description Calls left in the sliding window; 0 on 429. */
          'X-RateLimit-Remaining'?: number;
          /** @description Unix seconds by which the balance has grown by at least one call (an upper bound). */
          'X-RateLimit-Reset'?: number;
          /** @description Whole seconds to wait before sending the same request again. */
          'Retry-After': number;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem429'];
        };
      };
      /**
       * @description Internal Server Error.
       *
       *     - `internal_error`: Unexpected failure; nothing was applied.
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
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem500'];
        };
      };
      /**
       * @description Service Unavailable.
       *
       *     - `temporarily_unavailable`: The API is switched off for a while: every route answers it, with `Retry-After`; also a server that is shutting down, for a request it can no longer take (`Retry-After` 5). Keep the ticket and resend after the wait with the same `external_id`; never discard it.
       *     - `misconfigured_system`: The system cannot open tickets because of its own configuration (no usable default category); `Retry-After` 300. Keep the ticket and resend, as for any 503.
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
          /** @description Whole seconds to wait before sending the same request again. Maintenance: the value the operator set (300 by default); `misconfigured_system`: 300. */
          'Retry-After': number;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem503'];
        };
      };
    };
  };
  createHelpDeskTicketOptions: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description No body; `Allow` lists the route’s method and `OPTIONS`. */
      200: {
        headers: {
          /** @description Made by the server for every response of the API (a client’s own header is not trusted). */
          'X-Request-Id': string;
          /** @description Calls per window. Absent: the limit was not measured on this call (never read as zero). */
          'X-RateLimit-Limit'?: number;
          /** @description Calls left in the sliding window; 0 on 429. */
          'X-RateLimit-Remaining'?: number;
          /** @description Unix seconds by which the balance has grown by at least one call (an upper bound). */
          'X-RateLimit-Reset'?: number;
          /** @description The methods the route accepts. */
          Allow: string;
          [name: string]: unknown;
        };
        content?: never;
      };
      /**
       * @description Bad Request.
       *
       *     - `conflicting_credentials`: A header of another system’s authentication was sent. Before the key, not counted in the limit.
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
       *     - `unauthorized`: Key absent, malformed or unknown; on the webhook also an unknown identifier or another system’s key. Header `WWW-Authenticate: Bearer`.
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
       *     - `system_inactive`: System deactivated. No `X-RateLimit-*` headers.
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
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem403'];
        };
      };
      /**
       * @description Not Found.
       *
       *     - `not_found`: The route’s path in another version or without version (and any path under the prefix that is no route). With `X-Request-Id`.
       */
      404: {
        headers: {
          /** @description Made by the server for every response of the API (a client’s own header is not trusted). */
          'X-Request-Id': string;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem404'];
        };
      };
      /**
       * @description Payload Too Large.
       *
       *     - `payload_too_large`: Body above 65,536 bytes counted as sent (bytes, not characters). Before the key.
       */
      413: {
        headers: {
          /** @description Made by the server for every response of the API (a client’s own header is not trusted). */
          'X-Request-Id': string;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem413'];
        };
      };
      /**
       * @description Too Many Requests.
       *
       *     - `rate_limited`: The system’s limit (with `X-RateLimit-*`, Remaining 0) or an IP block (without). `Retry-After`: the real wait.
       */
      429: {
        headers: {
          /** @description Made by the server for every response of the API (a client’s own header is not trusted). */
          'X-Request-Id': string;
          /** @description Calls per window. Absent: the limit was not measured on this call (never read as zero). Present on the system-limit 429, absent on the IP-block 429. */
          'X-RateLimit-Limit'?: number;
          /** @description Calls left in the sliding window; 0 on 429. */
          'X-RateLimit-Remaining'?: number;
          /** @description Unix seconds by which the balance has grown by at least one call (an upper bound). */
          'X-RateLimit-Reset'?: number;
          /** @description Whole seconds to wait before sending the same request again. */
          'Retry-After': number;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem429'];
        };
      };
      /**
       * @description Internal Server Error.
       *
       *     - `internal_error`: Unexpected failure; nothing was applied.
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
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem500'];
        };
      };
      /**
       * @description Service Unavailable.
       *
       *     - `temporarily_unavailable`: The API is switched off for a while: every route answers it, with `Retry-After`; also a server that is shutting down, for a request it can no longer take (`Retry-After` 5). Keep the ticket and resend after the wait with the same `external_id`; never discard it.
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
          /** @description Whole seconds to wait before sending the same request again. Maintenance: the value the operator set (300 by default); `misconfigured_system`: 300. */
          'Retry-After': number;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem503'];
        };
      };
    };
  };
  getHelpDeskTicketOptions: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The companies, categories, priorities, support levels and natures this system may choose. */
      200: {
        headers: {
          /** @description Made by the server for every response of the API (a client’s own header is not trusted). */
          'X-Request-Id': string;
          /** @description Calls per window. Absent: the limit was not measured on this call (never read as zero). */
          'X-RateLimit-Limit'?: number;
          /** @description Calls left in the sliding window; 0 on 429. */
          'X-RateLimit-Remaining'?: number;
          /** @description Unix seconds by which the balance has grown by at least one call (an upper bound). */
          'X-RateLimit-Reset'?: number;
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "companies": [
           *         {
           *           "id": "acme",
           *           "name": "ACME Comércio"
           *         }
           *       ],
           *       "categories": [
           *         {
           *           "id": 10,
           *           "name": "Impressora",
           *           "description": "Printers and fiscal printers.",
           *           "default": true,
           *           "default_priority_id": 2,
           *           "type": {
           *             "id": 1,
           *             "name": "Incidente",
           *             "description": null
           *           }
           *         }
           *       ],
           *       "priorities": [
           *         {
           *           "id": 1,
           *           "name": "Alta",
           *           "description": null,
           *           "level": 1,
           *           "response_time_hours": 4
           *         },
           *         {
           *           "id": 2,
           *           "name": "Média",
           *           "description": null,
           *           "level": 2,
           *           "response_time_hours": 24
           *         }
           *       ],
           *       "support_levels": [
           *         {
           *           "id": 1,
           *           "name": "N1",
           *           "description": "First level."
           *         }
           *       ],
           *       "natures": [
           *         {
           *           "identifier": "duvida",
           *           "name": "Dúvida"
           *         }
           *       ]
           *     }
           */
          'application/json': components['schemas']['TicketOptions'];
        };
      };
      /**
       * @description Bad Request.
       *
       *     - `conflicting_credentials`: A header of another system’s authentication was sent. Before the key, not counted in the limit.
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
       *     - `unauthorized`: Key absent, malformed or unknown; on the webhook also an unknown identifier or another system’s key. Header `WWW-Authenticate: Bearer`.
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
       *     - `system_inactive`: System deactivated. No `X-RateLimit-*` headers.
       *     - `forbidden_scope`: Key lacks the route’s scope; the body has `required_scope`. `X-RateLimit-*` headers present.
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
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem403'];
        };
      };
      /**
       * @description Not Found.
       *
       *     - `not_found`: The route’s path in another version or without version (and any path under the prefix that is no route). With `X-Request-Id`.
       */
      404: {
        headers: {
          /** @description Made by the server for every response of the API (a client’s own header is not trusted). */
          'X-Request-Id': string;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem404'];
        };
      };
      /**
       * @description Method Not Allowed.
       *
       *     - `method_not_allowed`: Wrong method; header `Allow`. Before the key, not counted in the limit.
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
       * @description Payload Too Large.
       *
       *     - `payload_too_large`: Body above 65,536 bytes counted as sent (bytes, not characters). Before the key.
       */
      413: {
        headers: {
          /** @description Made by the server for every response of the API (a client’s own header is not trusted). */
          'X-Request-Id': string;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem413'];
        };
      };
      /**
       * @description Too Many Requests.
       *
       *     - `rate_limited`: The system’s limit (with `X-RateLimit-*`, Remaining 0) or an IP block (without). `Retry-After`: the real wait.
       */
      429: {
        headers: {
          /** @description Made by the server for every response of the API (a client’s own header is not trusted). */
          'X-Request-Id': string;
          /** @description Calls per window. Absent: the limit was not measured on this call (never read as zero). Present on the system-limit 429, absent on the IP-block 429. */
          'X-RateLimit-Limit'?: number;
          /** @description Calls left in the sliding window; 0 on 429. */
          'X-RateLimit-Remaining'?: number;
          /** @description Unix seconds by which the balance has grown by at least one call (an upper bound). */
          'X-RateLimit-Reset'?: number;
          /** @description Whole seconds to wait before sending the same request again. */
          'Retry-After': number;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem429'];
        };
      };
      /**
       * @description Internal Server Error.
       *
       *     - `internal_error`: Unexpected failure; nothing was applied.
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
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem500'];
        };
      };
      /**
       * @description Service Unavailable.
       *
       *     - `temporarily_unavailable`: The API is switched off for a while: every route answers it, with `Retry-After`; also a server that is shutting down, for a request it can no longer take (`Retry-After` 5). Keep the ticket and resend after the wait with the same `external_id`; never discard it.
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
          /** @description Whole seconds to wait before sending the same request again. Maintenance: the value the operator set (300 by default); `misconfigured_system`: 300. */
          'Retry-After': number;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem503'];
        };
      };
    };
  };
  getHelpDeskTicketOptionsOptions: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description No body; `Allow` lists the route’s method and `OPTIONS`. */
      200: {
        headers: {
          /** @description Made by the server for every response of the API (a client’s own header is not trusted). */
          'X-Request-Id': string;
          /** @description Calls per window. Absent: the limit was not measured on this call (never read as zero). */
          'X-RateLimit-Limit'?: number;
          /** @description Calls left in the sliding window; 0 on 429. */
          'X-RateLimit-Remaining'?: number;
          /** @description Unix seconds by which the balance has grown by at least one call (an upper bound). */
          'X-RateLimit-Reset'?: number;
          /** @description The methods the route accepts. */
          Allow: string;
          [name: string]: unknown;
        };
        content?: never;
      };
      /**
       * @description Bad Request.
       *
       *     - `conflicting_credentials`: A header of another system’s authentication was sent. Before the key, not counted in the limit.
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
       *     - `unauthorized`: Key absent, malformed or unknown; on the webhook also an unknown identifier or another system’s key. Header `WWW-Authenticate: Bearer`.
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
       *     - `system_inactive`: System deactivated. No `X-RateLimit-*` headers.
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
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem403'];
        };
      };
      /**
       * @description Not Found.
       *
       *     - `not_found`: The route’s path in another version or without version (and any path under the prefix that is no route). With `X-Request-Id`.
       */
      404: {
        headers: {
          /** @description Made by the server for every response of the API (a client’s own header is not trusted). */
          'X-Request-Id': string;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem404'];
        };
      };
      /**
       * @description Payload Too Large.
       *
       *     - `payload_too_large`: Body above 65,536 bytes counted as sent (bytes, not characters). Before the key.
       */
      413: {
        headers: {
          /** @description Made by the server for every response of the API (a client’s own header is not trusted). */
          'X-Request-Id': string;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem413'];
        };
      };
      /**
       * @description Too Many Requests.
       *
       *     - `rate_limited`: The system’s limit (with `X-RateLimit-*`, Remaining 0) or an IP block (without). `Retry-After`: the real wait.
       */
      429: {
        headers: {
          /** @description Made by the server for every response of the API (a client’s own header is not trusted). */
          'X-Request-Id': string;
          /** @description Calls per window. Absent: the limit was not measured on this call (never read as zero). Present on the system-limit 429, absent on the IP-block 429. */
          'X-RateLimit-Limit'?: number;
          /** @description Calls left in the sliding window; 0 on 429. */
          'X-RateLimit-Remaining'?: number;
          /** @description Unix seconds by which the balance has grown by at least one call (an upper bound). */
          'X-RateLimit-Reset'?: number;
          /** @description Whole seconds to wait before sending the same request again. */
          'Retry-After': number;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem429'];
        };
      };
      /**
       * @description Internal Server Error.
       *
       *     - `internal_error`: Unexpected failure; nothing was applied.
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
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem500'];
        };
      };
      /**
       * @description Service Unavailable.
       *
       *     - `temporarily_unavailable`: The API is switched off for a while: every route answers it, with `Retry-After`; also a server that is shutting down, for a request it can no longer take (`Retry-After` 5). Keep the ticket and resend after the wait with the same `external_id`; never discard it.
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
          /** @description Whole seconds to wait before sending the same request again. Maintenance: the value the operator set (300 by default); `misconfigured_system`: 300. */
          'Retry-After': number;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem503'];
        };
      };
    };
  };
  createLead: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        /**
         * @example {
         *       "external_id": "lead-1"
         *     }
         */
        'application/json': components['schemas']['LeadRequest'];
      };
    };
    responses: {
      /**
       * @description Bad Request.
       *
       *     - `conflicting_credentials`: A header of another system’s authentication was sent. Before the key, not counted in the limit.
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
       *     - `unauthorized`: Key absent, malformed or unknown; on the webhook also an unknown identifier or another system’s key. Header `WWW-Authenticate: Bearer`.
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
       *     - `system_inactive`: System deactivated. No `X-RateLimit-*` headers.
       *     - `forbidden_scope`: Key lacks the route’s scope; the body has `required_scope`. `X-RateLimit-*` headers present.
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
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem403'];
        };
      };
      /**
       * @description Not Found.
       *
       *     - `not_found`: The route’s path in another version or without version (and any path under the prefix that is no route). With `X-Request-Id`.
       */
      404: {
        headers: {
          /** @description Made by the server for every response of the API (a client’s own header is not trusted). */
          'X-Request-Id': string;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem404'];
        };
      };
      /**
       * @description Method Not Allowed.
       *
       *     - `method_not_allowed`: Wrong method; header `Allow`. Before the key, not counted in the limit.
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
       * @description Payload Too Large.
       *
       *     - `payload_too_large`: Body above 65,536 bytes counted as sent (bytes, not characters). Before the key.
       */
      413: {
        headers: {
          /** @description Made by the server for every response of the API (a client’s own header is not trusted). */
          'X-Request-Id': string;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem413'];
        };
      };
      /**
       * @description Unsupported Media Type.
       *
       *     - `unsupported_media_type`: Body sent without `Content-Type` or with one other than lowercase JSON. Before the key.
       */
      415: {
        headers: {
          /** @description Made by the server for every response of the API (a client’s own header is not trusted). */
          'X-Request-Id': string;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem415'];
        };
      };
      /**
       * @description Unprocessable Entity.
       *
       *     - `invalid_body`: Body is not a JSON object (broken JSON or invalid UTF-8 included). Before the key on the JSON routes (no `X-RateLimit-*`), after it on the webhook (with them). No `param`.
       *     - `missing_external_id`: Required field absent, empty or null (`param`).
       *     - `invalid_field`: A text field contains NUL, or a field has a JSON type it cannot have; `param` names the field.
       *     - `field_too_long`: `external_id` above 120 or `description` above 20000 characters (only these two fields).
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
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem422'];
        };
      };
      /**
       * @description Too Many Requests.
       *
       *     - `rate_limited`: The system’s limit (with `X-RateLimit-*`, Remaining 0) or an IP block (without). `Retry-After`: the real wait.
       */
      429: {
        headers: {
          /** @description Made by the server for every response of the API (a client’s own header is not trusted). */
          'X-Request-Id': string;
          /** @description Calls per window. Absent: the limit was not measured on this call (never read as zero). Present on the system-limit 429, absent on the IP-block 429. */
          'X-RateLimit-Limit'?: number;
          /** @description Calls left in the sliding window; 0 on 429. */
          'X-RateLimit-Remaining'?: number;
          /** @description Unix seconds by which the balance has grown by at least one call (an upper bound). */
          'X-RateLimit-Reset'?: number;
          /** @description Whole seconds to wait before sending the same request again. */
          'Retry-After': number;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem429'];
        };
      };
      /**
       * @description Internal Server Error.
       *
       *     - `internal_error`: Unexpected failure; nothing was applied.
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
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem500'];
        };
      };
      /**
       * @description Not Implemented.
       *
       *     - `not_implemented`: The lead route is planned.
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
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem501'];
        };
      };
      /**
       * @description Service Unavailable.
       *
       *     - `temporarily_unavailable`: The API is switched off for a while: every route answers it, with `Retry-After`; also a server that is shutting down, for a request it can no longer take (`Retry-After` 5). Keep the ticket and resend after the wait with the same `external_id`; never discard it.
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
          /** @description Whole seconds to wait before sending the same request again. Maintenance: the value the operator set (300 by default); `misconfigured_system`: 300. */
          'Retry-After': number;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem503'];
        };
      };
    };
  };
  createLeadOptions: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description No body; `Allow` lists the route’s method and `OPTIONS`. */
      200: {
        headers: {
          /** @description Made by the server for every response of the API (a client’s own header is not trusted). */
          'X-Request-Id': string;
          /** @description Calls per window. Absent: the limit was not measured on this call (never read as zero). */
          'X-RateLimit-Limit'?: number;
          /** @description Calls left in the sliding window; 0 on 429. */
          'X-RateLimit-Remaining'?: number;
          /** @description Unix seconds by which the balance has grown by at least one call (an upper bound). */
          'X-RateLimit-Reset'?: number;
          /** @description The methods the route accepts. */
          Allow: string;
          [name: string]: unknown;
        };
        content?: never;
      };
      /**
       * @description Bad Request.
       *
       *     - `conflicting_credentials`: A header of another system’s authentication was sent. Before the key, not counted in the limit.
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
       *     - `unauthorized`: Key absent, malformed or unknown; on the webhook also an unknown identifier or another system’s key. Header `WWW-Authenticate: Bearer`.
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
       *     - `system_inactive`: System deactivated. No `X-RateLimit-*` headers.
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
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem403'];
        };
      };
      /**
       * @description Not Found.
       *
       *     - `not_found`: The route’s path in another version or without version (and any path under the prefix that is no route). With `X-Request-Id`.
       */
      404: {
        headers: {
          /** @description Made by the server for every response of the API (a client’s own header is not trusted). */
          'X-Request-Id': string;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem404'];
        };
      };
      /**
       * @description Payload Too Large.
       *
       *     - `payload_too_large`: Body above 65,536 bytes counted as sent (bytes, not characters). Before the key.
       */
      413: {
        headers: {
          /** @description Made by the server for every response of the API (a client’s own header is not trusted). */
          'X-Request-Id': string;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem413'];
        };
      };
      /**
       * @description Too Many Requests.
       *
       *     - `rate_limited`: The system’s limit (with `X-RateLimit-*`, Remaining 0) or an IP block (without). `Retry-After`: the real wait.
       */
      429: {
        headers: {
          /** @description Made by the server for every response of the API (a client’s own header is not trusted). */
          'X-Request-Id': string;
          /** @description Calls per window. Absent: the limit was not measured on this call (never read as zero). Present on the system-limit 429, absent on the IP-block 429. */
          'X-RateLimit-Limit'?: number;
          /** @description Calls left in the sliding window; 0 on 429. */
          'X-RateLimit-Remaining'?: number;
          /** @description Unix seconds by which the balance has grown by at least one call (an upper bound). */
          'X-RateLimit-Reset'?: number;
          /** @description Whole seconds to wait before sending the same request again. */
          'Retry-After': number;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem429'];
        };
      };
      /**
       * @description Internal Server Error.
       *
       *     - `internal_error`: Unexpected failure; nothing was applied.
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
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem500'];
        };
      };
      /**
       * @description Service Unavailable.
       *
       *     - `temporarily_unavailable`: The API is switched off for a while: every route answers it, with `Retry-After`; also a server that is shutting down, for a request it can no longer take (`Retry-After` 5). Keep the ticket and resend after the wait with the same `external_id`; never discard it.
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
          /** @description Whole seconds to wait before sending the same request again. Maintenance: the value the operator set (300 by default); `misconfigured_system`: 300. */
          'Retry-After': number;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem503'];
        };
      };
    };
  };
  createHelpDeskTicketByWebhook: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description The system identifier given by support (lowercase letters, digits, `-`, `_`). */
        system: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        /**
         * @example {
         *       "external_id": "pos-4711",
         *       "company": "acme",
         *       "description": "Terminal 3 does not print.",
         *       "category": 10,
         *       "nature": "duvida",
         *       "cnpj": "12.345.678/0001-95",
         *       "requester": {
         *         "name": "Ana",
         *         "contact": "ana@example.com"
         *       }
         *     }
         */
        'application/json': components['schemas']['TicketRequest'];
        /** @example {"external_id":"pos-4711","company":"acme","description":"Terminal 3 does not print.","category":10,"nature":"duvida","cnpj":"12.345.678/0001-95","requester":{"name":"Ana","contact":"ana@example.com"}} */
        '*/*': string;
      };
    };
    responses: {
      /** @description The same `external_id` was sent before by this system: the existing ticket as created (`duplicate: true`, its own `applied`), never a second ticket. The body was still validated (the 422 rules apply). */
      200: {
        headers: {
          /** @description Made by the server for every response of the API (a client’s own header is not trusted). */
          'X-Request-Id': string;
          /** @description Calls per window. Absent: the limit was not measured on this call (never read as zero). */
          'X-RateLimit-Limit'?: number;
          /** @description Calls left in the sliding window; 0 on 429. */
          'X-RateLimit-Remaining'?: number;
          /** @description Unix seconds by which the balance has grown by at least one call (an upper bound). */
          'X-RateLimit-Reset'?: number;
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "ticket": "I-000042",
           *       "id": "0197a3c2-6b1e-7c4d-9f00-3a1b2c3d4e5f",
           *       "duplicate": false,
           *       "warnings": [
           *         {
           *           "code": "ignored_fields",
           *           "message": "These fields are not part of the ticket request and were ignored.",
           *           "fields": [
           *             "store"
           *           ]
           *         }
           *       ],
           *       "applied": {
           *         "category_id": 10,
           *         "priority_id": 2,
           *         "support_level": 1,
           *         "nature": "duvida",
           *         "company": "acme"
           *       }
           *     }
           */
          'application/json': components['schemas']['TicketResponse'];
        };
      };
      /** @description Ticket created: the ticket response with `duplicate: false`. */
      201: {
        headers: {
          /** @description Made by the server for every response of the API (a client’s own header is not trusted). */
          'X-Request-Id': string;
          /** @description Calls per window. Absent: the limit was not measured on this call (never read as zero). */
          'X-RateLimit-Limit'?: number;
          /** @description Calls left in the sliding window; 0 on 429. */
          'X-RateLimit-Remaining'?: number;
          /** @description Unix seconds by which the balance has grown by at least one call (an upper bound). */
          'X-RateLimit-Reset'?: number;
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "ticket": "I-000042",
           *       "id": "0197a3c2-6b1e-7c4d-9f00-3a1b2c3d4e5f",
           *       "duplicate": false,
           *       "warnings": [
           *         {
           *           "code": "ignored_fields",
           *           "message": "These fields are not part of the ticket request and were ignored.",
           *           "fields": [
           *             "store"
           *           ]
           *         }
           *       ],
           *       "applied": {
           *         "category_id": 10,
           *         "priority_id": 2,
           *         "support_level": 1,
           *         "nature": "duvida",
           *         "company": "acme"
           *       }
           *     }
           */
          'application/json': components['schemas']['TicketResponse'];
        };
      };
      /**
       * @description Bad Request.
       *
       *     - `conflicting_credentials`: A header of another system’s authentication was sent. Before the key, not counted in the limit.
       *     - (no `code`): a body that is not a JSON object or list under a JSON `Content-Type` (server-level, after the key and the rate check).
       */
      400: {
        headers: {
          /** @description Made by the server for every response of the API (a client’s own header is not trusted). */
          'X-Request-Id': string;
          /** @description Calls per window. Absent: the limit was not measured on this call (never read as zero). */
          'X-RateLimit-Limit'?: number;
          /** @description Calls left in the sliding window; 0 on 429. */
          'X-RateLimit-Remaining'?: number;
          /** @description Unix seconds by which the balance has grown by at least one call (an upper bound). */
          'X-RateLimit-Reset'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem400CodeOptional'];
        };
      };
      /**
       * @description Unauthorized.
       *
       *     - `unauthorized`: Key absent, malformed or unknown; on the webhook also an unknown identifier or another system’s key. Header `WWW-Authenticate: Bearer`.
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
       *     - `system_inactive`: System deactivated. No `X-RateLimit-*` headers.
       *     - `forbidden_scope`: Key lacks the route’s scope; the body has `required_scope`. `X-RateLimit-*` headers present.
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
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem403'];
        };
      };
      /**
       * @description Not Found.
       *
       *     - `not_found`: The route’s path in another version or without version (and any path under the prefix that is no route). With `X-Request-Id`.
       */
      404: {
        headers: {
          /** @description Made by the server for every response of the API (a client’s own header is not trusted). */
          'X-Request-Id': string;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem404'];
        };
      };
      /**
       * @description Method Not Allowed.
       *
       *     - `method_not_allowed`: Wrong method; header `Allow`. Before the key, not counted in the limit.
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
       * @description Payload Too Large.
       *
       *     - `payload_too_large`: Body above 65,536 bytes counted as sent (bytes, not characters). Before the key.
       */
      413: {
        headers: {
          /** @description Made by the server for every response of the API (a client’s own header is not trusted). */
          'X-Request-Id': string;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem413'];
        };
      };
      /**
       * @description Unprocessable Entity.
       *
       *     - `invalid_body`: Body is not a JSON object (broken JSON or invalid UTF-8 included). Before the key on the JSON routes (no `X-RateLimit-*`), after it on the webhook (with them). No `param`.
       *     - `missing_external_id`: Required field absent, empty or null (`param`).
       *     - `missing_company`: Required field absent, empty or null (`param`).
       *     - `invalid_company`: Company not in the list; `detail` lists the valid ones.
       *     - `missing_description`: Required field absent, empty or null (`param`).
       *     - `invalid_nature`: Nature not in the list.
       *     - `invalid_field`: A text field contains NUL, or a field has a JSON type it cannot have; `param` names the field.
       *     - `field_too_long`: `external_id` above 120 or `description` above 20000 characters (only these two fields).
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
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem422'];
        };
      };
      /**
       * @description Too Many Requests.
       *
       *     - `rate_limited`: The system’s limit (with `X-RateLimit-*`, Remaining 0) or an IP block (without). `Retry-After`: the real wait.
       */
      429: {
        headers: {
          /** @description Made by the server for every response of the API (a client’s own header is not trusted). */
          'X-Request-Id': string;
          /** @description Calls per window. Absent: the limit was not measured on this call (never read as zero). Present on the system-limit 429, absent on the IP-block 429. */
          'X-RateLimit-Limit'?: number;
          /** @description Calls left in the sliding window; 0 on 429. */
          'X-RateLimit-Remaining'?: number;
          /** @description Unix seconds by which the balance has grown by at least one call (an upper bound). */
          'X-RateLimit-Reset'?: number;
          /** @description Whole seconds to wait before sending the same request again. */
          'Retry-After': number;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem429'];
        };
      };
      /**
       * @description Internal Server Error.
       *
       *     - `internal_error`: Unexpected failure; nothing was applied.
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
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem500'];
        };
      };
      /**
       * @description Service Unavailable.
       *
       *     - `temporarily_unavailable`: The API is switched off for a while: every route answers it, with `Retry-After`; also a server that is shutting down, for a request it can no longer take (`Retry-After` 5). Keep the ticket and resend after the wait with the same `external_id`; never discard it.
       *     - `misconfigured_system`: The system cannot open tickets because of its own configuration (no usable default category); `Retry-After` 300. Keep the ticket and resend, as for any 503.
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
          /** @description Whole seconds to wait before sending the same request again. Maintenance: the value the operator set (300 by default); `misconfigured_system`: 300. */
          'Retry-After': number;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem503'];
        };
      };
    };
  };
  createHelpDeskTicketByWebhookOptions: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description The system identifier given by support (lowercase letters, digits, `-`, `_`). */
        system: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description No body; `Allow` lists the route’s method and `OPTIONS`. */
      200: {
        headers: {
          /** @description Made by the server for every response of the API (a client’s own header is not trusted). */
          'X-Request-Id': string;
          /** @description Calls per window. Absent: the limit was not measured on this call (never read as zero). */
          'X-RateLimit-Limit'?: number;
          /** @description Calls left in the sliding window; 0 on 429. */
          'X-RateLimit-Remaining'?: number;
          /** @description Unix seconds by which the balance has grown by at least one call (an upper bound). */
          'X-RateLimit-Reset'?: number;
          /** @description The methods the route accepts. */
          Allow: string;
          [name: string]: unknown;
        };
        content?: never;
      };
      /**
       * @description Bad Request.
       *
       *     - `conflicting_credentials`: A header of another system’s authentication was sent. Before the key, not counted in the limit.
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
       *     - `unauthorized`: Key absent, malformed or unknown; on the webhook also an unknown identifier or another system’s key. Header `WWW-Authenticate: Bearer`.
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
       *     - `system_inactive`: System deactivated. No `X-RateLimit-*` headers.
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
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem403'];
        };
      };
      /**
       * @description Not Found.
       *
       *     - `not_found`: The route’s path in another version or without version (and any path under the prefix that is no route). With `X-Request-Id`.
       */
      404: {
        headers: {
          /** @description Made by the server for every response of the API (a client’s own header is not trusted). */
          'X-Request-Id': string;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem404'];
        };
      };
      /**
       * @description Payload Too Large.
       *
       *     - `payload_too_large`: Body above 65,536 bytes counted as sent (bytes, not characters). Before the key.
       */
      413: {
        headers: {
          /** @description Made by the server for every response of the API (a client’s own header is not trusted). */
          'X-Request-Id': string;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem413'];
        };
      };
      /**
       * @description Too Many Requests.
       *
       *     - `rate_limited`: The system’s limit (with `X-RateLimit-*`, Remaining 0) or an IP block (without). `Retry-After`: the real wait.
       */
      429: {
        headers: {
          /** @description Made by the server for every response of the API (a client’s own header is not trusted). */
          'X-Request-Id': string;
          /** @description Calls per window. Absent: the limit was not measured on this call (never read as zero). Present on the system-limit 429, absent on the IP-block 429. */
          'X-RateLimit-Limit'?: number;
          /** @description Calls left in the sliding window; 0 on 429. */
          'X-RateLimit-Remaining'?: number;
          /** @description Unix seconds by which the balance has grown by at least one call (an upper bound). */
          'X-RateLimit-Reset'?: number;
          /** @description Whole seconds to wait before sending the same request again. */
          'Retry-After': number;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem429'];
        };
      };
      /**
       * @description Internal Server Error.
       *
       *     - `internal_error`: Unexpected failure; nothing was applied.
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
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem500'];
        };
      };
      /**
       * @description Service Unavailable.
       *
       *     - `temporarily_unavailable`: The API is switched off for a while: every route answers it, with `Retry-After`; also a server that is shutting down, for a request it can no longer take (`Retry-After` 5). Keep the ticket and resend after the wait with the same `external_id`; never discard it.
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
          /** @description Whole seconds to wait before sending the same request again. Maintenance: the value the operator set (300 by default); `misconfigured_system`: 300. */
          'Retry-After': number;
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem503'];
        };
      };
    };
  };
}
