// Where a face may send a browser back to after a form (the language switch's `back`): a path of the
// face itself, as the pages write it, with its query (a report's place and period). The value comes from
// the form, so anything else (another site through `//host` or a backslash, which browsers read as a
// slash; a dot segment that climbs out of the face; a character that cannot stand in a Location header,
// CR/LF or U+2028 among them) is not followed. The path's rules apply to the path: in the query, after
// the first `?`, a browser reads `//` or `\` as data, never as a host, so only the characters are checked.

/** Visible ASCII only: what a path and query look like once percent-encoded, as a browser sends them. */
const VISIBLE_ASCII = /^[\x21-\x7e]*$/;

/** A `.` or `..` segment, written plainly or percent-encoded. */
const DOT_SEGMENT = /\/(?:\.|%2e){1,2}(?:[/?#]|$)/i;

/** The longest `back` followed: a page's own path and query are far shorter. */
const MAX_LENGTH = 2048;

/** True when `value` is a path of the face under `prefix` that a redirect may safely point to. */
export function isSafeFacePath(prefix: string, value: unknown): value is string {
  if (typeof value !== 'string' || value.length > MAX_LENGTH || !VISIBLE_ASCII.test(value)) return false;
  // A fragment is never sent by a browser, so no page's own address holds one.
  if (value.includes('#')) return false;
  const query = value.indexOf('?');
  const path = query === -1 ? value : value.slice(0, query);
  return (
    path.startsWith(`${prefix}/`) && !path.includes('//') && !path.includes('\\') && !DOT_SEGMENT.test(path)
  );
}
