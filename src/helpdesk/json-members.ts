/** One member of a JSON object as written in the body: its name and the raw text of its value. */
export interface JsonMember {
  name: string;
  raw: string;
}

/**
 * Lists the members of a JSON object text in the order they are written. `JSON.parse` moves
 * integer-like names such as "10" first, but `ignored_fields` must follow the body (docs/ticket-api.md,
 * Settled details). The text must already be known to be a valid JSON object.
 */
export function jsonObjectMembers(text: string): JsonMember[] {
  const members: JsonMember[] = [];
  let i = skipSpaces(text, 0);
  if (text[i] !== '{') return members;
  i = skipSpaces(text, i + 1);
  if (text[i] === '}') return members;
  for (;;) {
    const nameEnd = endOfString(text, i);
    const name = JSON.parse(text.slice(i, nameEnd)) as string;
    i = skipSpaces(text, nameEnd);
    i = skipSpaces(text, i + 1); // the colon
    const valueEnd = endOfValue(text, i);
    members.push({ name, raw: text.slice(i, valueEnd) });
    i = skipSpaces(text, valueEnd);
    if (text[i] !== ',') return members;
    i = skipSpaces(text, i + 1);
  }
}

function skipSpaces(text: string, from: number): number {
  let i = from;
  while (i < text.length && (text[i] === ' ' || text[i] === '\n' || text[i] === '\r' || text[i] === '\t'))
    i += 1;
  return i;
}

/** Index just past the string literal that starts at `from`. */
function endOfString(text: string, from: number): number {
  let i = from + 1;
  while (i < text.length && text[i] !== '"') i += text[i] === '\\' ? 2 : 1;
  return i + 1;
}

/** Index just past the JSON value that starts at `from`. */
function endOfValue(text: string, from: number): number {
  const first = text[from];
  if (first === '"') return endOfString(text, from);
  if (first !== '{' && first !== '[') {
    let i = from;
    while (i < text.length && !/[\s,}\]]/.test(text[i] ?? '')) i += 1;
    return i;
  }
  let depth = 0;
  let i = from;
  while (i < text.length) {
    const char = text[i];
    if (char === '"') {
      i = endOfString(text, i);
      continue;
    }
    if (char === '{' || char === '[') depth += 1;
    else if (char === '}' || char === ']') depth -= 1;
    i += 1;
    if (depth === 0) return i;
  }
  return i;
}
