// IANA time-zone names, as places carry them.

const ZONE_SHAPE = /^[A-Za-z][A-Za-z0-9_+-]*(?:\/[A-Za-z0-9][A-Za-z0-9_+-]*)*$/;

/**
 * True for an IANA time-zone name the runtime knows, spelt as the database spells it: `America/Sao_Paulo`,
 * `UTC`, `Etc/GMT+3`, and links such as `Asia/Kolkata` or `Brazil/East`. Refused: unknown names, names
 * that only match ignoring case (`america/sao_paulo`), offsets (`-03:00`), spaces and other garbage.
 */
export function isIanaTimeZone(zone: string): boolean {
  if (zone.length > 64 || !ZONE_SHAPE.test(zone)) return false;
  let resolved: string;
  try {
    resolved = new Intl.DateTimeFormat('en-US', { timeZone: zone }).resolvedOptions().timeZone;
  } catch {
    return false;
  }
  // The runtime matches names ignoring case: the canonical name must be given in its own spelling.
  if (resolved.toLowerCase() === zone.toLowerCase()) return resolved === zone;
  // A link to another zone: every part of an IANA name starts with an uppercase letter.
  return zone.split('/').every((part) => /^[A-Z]/.test(part));
}
