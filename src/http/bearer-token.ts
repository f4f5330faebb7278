/**
 * The token of an `Authorization: Bearer <token>` header: the scheme word in any case, spaces around
 * and between tolerated. Null when the header is absent or not of that shape.
 */
export function bearerToken(header: string | undefined): string | null {
  if (header === undefined) return null;
  const match = /^\s*bearer\s+(\S+)\s*$/i.exec(header);
  return match?.[1] ?? null;
}
