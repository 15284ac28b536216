// One pass over the whole text for what fast-xml-parser accepts and XML does not, outside the values we read:
// an XML declaration after the start, "--" inside a comment, an undefined entity or a bare "&" in text. The same
// pass runs whether the ticket was parsed whole or in runs (runs.ts), so the prolog and the text between runs
// are checked either way.
import { isXmlChar, piEnd, tagEnd } from './lex.js';

export interface MarkupProblem {
  code: 'xml-declaration-misplaced' | 'comment-double-hyphen' | 'undefined-entity' | 'bare-ampersand' | 'invalid-char-ref';
  offset: number;
  args: Record<string, string | number>;
}

const REFERENCE = /&(?:(lt|gt|amp|apos|quot)|#([0-9]{1,7})|#x([0-9A-Fa-f]{1,6})|([A-Za-z_:][-A-Za-z0-9._:]*));/y;

/**
 * The first problem of each kind (with how many there are): a ticket with a million bad references in its text
 * gets a handful of findings, not a million.
 */
export function scanMarkup(text: string): MarkupProblem[] {
  const first = new Map<MarkupProblem['code'], MarkupProblem>();
  const counts = new Map<MarkupProblem['code'], number>();
  const note = (code: MarkupProblem['code'], offset: number, args: Record<string, string | number> = {}) => {
    counts.set(code, (counts.get(code) ?? 0) + 1);
    if (!first.has(code)) first.set(code, { code, offset, args });
  };
  // XML 1.0 4.1, 2.4: references and "&" in character data.
  // The next "&" in the text, found once and kept while it lies beyond the segments checked (linear, not n^2).
  let nextAmp = -2;
  const checkText = (from: number, to: number) => {
    if (nextAmp !== -1 && nextAmp < from) nextAmp = text.indexOf('&', from);
    for (; nextAmp !== -1 && nextAmp < to; nextAmp = text.indexOf('&', nextAmp + 1)) {
      const a = nextAmp;
      REFERENCE.lastIndex = a;
      const m = REFERENCE.exec(text);
      if (m === null || m.index + m[0].length > to) note('bare-ampersand', a);
      else if (m[4] !== undefined) note('undefined-entity', a, { name: m[4] });
      else if (m[1] === undefined && !isXmlChar(m[2] !== undefined ? parseInt(m[2], 10) : parseInt(m[3]!, 16))) note('invalid-char-ref', a, { ref: m[0] });
    }
  };
  const n = text.length;
  let i = 0;
  while (i < n) {
    const lt = text.indexOf('<', i);
    checkText(i, lt === -1 ? n : lt);
    if (lt === -1) break;
    if (text.startsWith('<!--', lt)) {
      // XML 1.0 2.5: the string "--" must not occur within comments (nor end one: "--->").
      const end = text.indexOf('-->', lt + 4);
      if (end === -1) break;
      const dd = text.indexOf('--', lt + 4);
      if (dd < end) note('comment-double-hyphen', dd);
      i = end + 3;
    } else if (text.startsWith('<![CDATA[', lt)) {
      const end = text.indexOf(']]>', lt + 9);
      if (end === -1) break;
      i = end + 3;
    } else if (text.charCodeAt(lt + 1) === 0x3f /* "<?" */) {
      // XML 1.0 2.8 and 2.6: the declaration only at the very start; "xml" in any case is a reserved PI target.
      const target = /^[^\s?]*/.exec(text.slice(lt + 2, lt + 64))![0];
      if (target.toLowerCase() === 'xml' && lt !== 0) note('xml-declaration-misplaced', lt, { target });
      const end = piEnd(text, lt + 1);
      if (end === -1) break;
      i = end + 2;
    } else {
      const end = tagEnd(text, lt + 1, false);
      if (end === -1) break;
      i = end + 1;
    }
  }
  return [...first.values()].map((p) => ({ ...p, args: { ...p.args, more: (counts.get(p.code) ?? 1) - 1 } }));
}
