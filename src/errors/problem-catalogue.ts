/**
 * The one catalogue of problem codes of the service: each code's HTTP status and default detail.
 * The two public documents list their codes under "Errors"; the admin API adds its own at the end.
 */
export const problemCatalogue = {
  // Both public APIs
  conflicting_credentials: {
    status: 400,
    detail:
      'Send only the Authorization header of this API; another system’s authentication header was sent.',
  },
  not_found: {
    status: 404,
    detail: 'There is no such route. Check the path, its version and any trailing slash.',
  },
  method_not_allowed: {
    status: 405,
    detail: 'This route does not accept that method; see the Allow header.',
  },
  rate_limited: { status: 429, detail: 'Too many requests. Retry after the time in the Retry-After header.' },
  internal_error: {
    status: 500,
    detail: 'An unexpected error occurred. Retry later; the request was not applied.',
  },
  not_implemented: { status: 501, detail: 'This route is planned and not available yet.' },
  temporarily_unavailable: {
    status: 503,
    detail:
      'The API is temporarily switched off. Keep the request and resend it after the time in the Retry-After header.',
  },

  // The HTTP edge of every listener: requests refused before any API reads them (Node's HTTP parser, the
  // time limits, the Expect header), answered in the same problem+json shape as every other refusal
  malformed_request: {
    status: 400,
    detail: 'The request is not valid HTTP/1.1 and could not be read. Fix the request before resending it.',
  },
  // Also a receipts upload whose body stops arriving or takes too long (UPLOAD_IDLE_TIMEOUT_MS,
  // UPLOAD_TIMEOUT_MS), with a detail of its own.
  request_timeout: {
    status: 408,
    detail: 'The request did not arrive in time. Send it again, whole and without pauses.',
  },
  expectation_failed: {
    status: 417,
    detail: 'The Expect header cannot be met. Send the request without it, or with Expect: 100-continue.',
  },
  headers_too_large: {
    status: 431,
    detail: 'The request head is too large: the request line and headers may take at most 16 KiB.',
  },

  // Partner help-desk ticket API (docs/ticket-api.md, Errors)
  unauthorized: { status: 401, detail: 'A valid API key is required: send Authorization: Bearer <API_KEY>.' },
  system_inactive: { status: 403, detail: 'This system is deactivated. Contact support.' },
  forbidden_scope: { status: 403, detail: 'The API key lacks the scope this route requires.' },
  payload_too_large: { status: 413, detail: 'The request body is larger than 65536 bytes.' },
  unsupported_media_type: {
    status: 415,
    detail: 'Send the body as JSON with Content-Type: application/json (lowercase).',
  },
  invalid_body: { status: 422, detail: 'The request body must be a JSON object.' },
  invalid_field: { status: 422, detail: 'A field has a value that is not allowed.' },
  missing_external_id: { status: 422, detail: '"external_id" is required.' },
  missing_description: { status: 422, detail: '"description" is required.' },
  missing_company: { status: 422, detail: '"company" is required.' },
  field_too_long: { status: 422, detail: 'A field is longer than allowed.' },
  invalid_company: { status: 422, detail: '"company" is not one of the companies of the options route.' },
  invalid_nature: { status: 422, detail: '"nature" is not one of the natures of the options route.' },
  misconfigured_system: {
    status: 503,
    detail:
      'This system cannot open tickets because of its configuration (no usable default category). Support has been told; keep the ticket and resend after the time in the Retry-After header.',
  },

  // Point-of-sale data API (docs/pos-api.md, Errors)
  invalid_token: {
    status: 401,
    detail: 'A valid API key is required: send Authorization: Bearer <API_KEY>.',
  },
  forbidden_permission: { status: 403, detail: 'The API key lacks the permission this route requires.' },
  invalid_parameter: { status: 422, detail: 'A query parameter is missing, unknown, repeated or invalid.' },

  // Admin API (docs/admin-rules.md): bad input says what to fix and changes nothing
  forbidden: {
    status: 403,
    detail: 'The support token may only list systems, keys and tickets, and revoke keys.',
  },
  malformed_json: { status: 400, detail: 'The request body is not valid JSON.' },
  validation_failed: { status: 422, detail: 'The request is not valid.' },
  conflict: { status: 409, detail: 'The request conflicts with the stored data.' },
  no_receipts: {
    status: 422,
    detail:
      'The upload holds no receipts (an empty list, an empty body or only blank lines); nothing was stored. Check that the file sent exists and is not empty.',
  },
  // A receipts upload whose last step (the transaction writing it) could not finish: never a 500, since
  // the operator can act on it. Resending is safe: receipts are upserted by id.
  upload_write_timeout: {
    status: 503,
    detail:
      'Writing the receipts took longer than UPLOAD_WRITE_TIMEOUT_MS, the time limit of an upload’s last step; it was rolled back and nothing of this upload was stored. Send it again in smaller parts, or raise UPLOAD_WRITE_TIMEOUT_MS.',
  },
  upload_interrupted: {
    status: 503,
    detail:
      'The database stopped answering while the receipts were written (stopped, restarting or unreachable), and the upload was rolled back: nothing of it is stored, unless the connection was lost at the very moment of its commit. Either way, send it again after the time in the Retry-After header, once GET /readyz answers 200: receipts are upserted by id, so a resent upload stores each receipt once.',
  },
} as const satisfies Record<string, { status: number; detail: string }>;

export type ProblemCode = keyof typeof problemCatalogue;
