// Request targets in absolute form (`GET http://host/v1/api-public/ping`), which a server must accept
// (RFC 9112, 3.2.2: "a server MUST accept the absolute-form in requests"), are routed by their path and
// query, exactly as the origin form (`GET /v1/api-public/ping`) is. The path is kept as sent: undecoded.

const ABSOLUTE_FORM = /^[a-z][a-z0-9+.-]*:\/\/[^/?#]*/i;

/**
 * The origin form of a request target: an absolute-form target loses its scheme and authority (an empty
 * path becomes `/`); any other target (origin form, `*`) is returned unchanged.
 */
export function originForm(target: string): string {
  const authority = ABSOLUTE_FORM.exec(target);
  if (authority === null) return target;
  const rest = target.slice(authority[0].length);
  return rest.startsWith('/') ? rest : `/${rest}`;
}
