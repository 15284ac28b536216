// XML 1.0 2.2's Char production, for invalid-xml-char's scan of a whole document (values are the lexer's).

// XML 1.0 2.2: the characters a document may not contain at all, and every surrogate (one in a pair is a
// character of #x10000-#x10FFFF, a Char; forbiddenAt passes over those).
const FORBIDDEN_OR_SURROGATE = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uD800-\uDFFF\uFFFE\uFFFF]/g;

/** XML 1.0 2.2: where the first character outside Char stands in `text` (a surrogate not in a pair is one), or -1. */
export function forbiddenAt(text: string): number {
  FORBIDDEN_OR_SURROGATE.lastIndex = 0;
  for (let m = FORBIDDEN_OR_SURROGATE.exec(text); m !== null; m = FORBIDDEN_OR_SURROGATE.exec(text)) {
    const c = text.charCodeAt(m.index);
    const next = text.charCodeAt(m.index + 1);
    if (c < 0xd800 || c > 0xdbff || !(next >= 0xdc00 && next <= 0xdfff)) return m.index; // a low one met here has no high before it
    FORBIDDEN_OR_SURROGATE.lastIndex = m.index + 2;
  }
  return -1;
}
