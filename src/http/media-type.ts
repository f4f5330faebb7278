/**
 * True for a JSON media type as the ticket API accepts it: `application/json` or a `+json` suffix, in
 * lowercase, with no parameter but an optional `charset=utf-8` (docs/ticket-api.md, POST ticket).
 */
export function isJsonMediaType(contentType: string | undefined): boolean {
  if (contentType === undefined) return false;
  const [type = '', ...parameters] = contentType.split(';');
  if (!/^application\/(?:json|[a-z0-9!#$&^_.-]+\+json)$/.test(type.trim())) return false;
  return parameters.every(
    (parameter) => parameter.trim() === '' || /^\s*charset\s*=\s*"?utf-8"?\s*$/i.test(parameter),
  );
}
