// One pass over the whole text for what fast-xml-parser accepts and XML does not: an XML declaration after the
// start, "--" inside a comment, "]]>", an undefined entity or a bare "&" in text, and in every tag, read or not:
// names that are not XML Names, attributes without "=" or quotes or the white space between them, "<", bare "&"
// and undefined entities in values. The same pass runs whether the tree came from the parser or from the scan
// (scan.ts).
import { isNameChar, isNameStartChar, isXmlChar, piEnd, quoted, referenceAt, tagEnd } from './lex.js';

export interface MarkupProblem {
  code:
    | 'xml-declaration-misplaced' | 'comment-double-hyphen' | 'undefined-entity' | 'bare-ampersand' | 'invalid-char-ref'
    | 'lt-in-attribute' | 'tag-malformed' | 'cdata-end-in-text';
  offset: number;
  args: Record<string, string | number>;
}

/**
 * What is wrong with a tag (tag-malformed): `name`, its name is not an XML Name; `space`, no white space before an
 * attribute; `attribute-name`, an attribute's name is not a Name; `no-value`, an attribute without "=" and a
 * value; `unquoted`, a value without quotes; `end-tag`, an end tag holds more than its name.
 */
export type TagProblem = 'name' | 'space' | 'attribute-name' | 'no-value' | 'unquoted' | 'end-tag';

/** Whether a problem of a value was reported already, with the reference that holds it (src/ticket/reference.ts). */
export type AlreadyReported = (code: MarkupProblem['code'], offset: number) => boolean;

// ASCII classes, the hot path of the tag scan: 1, NameStartChar; 2, NameChar (XML 1.0 2.3).
const ASCII = new Uint8Array(128);
for (let c = 0; c < 128; c++) ASCII[c] = (isNameStartChar(c) ? 1 : 0) | (isNameChar(c) ? 2 : 0);
const nameStart = (c: number) => (c < 128 ? (ASCII[c]! & 1) !== 0 : isNameStartChar(c));
const nameChar = (c: number) => (c < 128 ? (ASCII[c]! & 2) !== 0 : isNameChar(c));

/**
 * The first problem of each kind (with how many there are): a ticket with a million bad references in its text
 * gets a handful of findings, not a million. A problem `reported` says was reported already is left out.
 */
export function scanMarkup(text: string, reported: AlreadyReported = () => false): MarkupProblem[] {
  const first = new Map<MarkupProblem['code'], MarkupProblem>();
  const counts = new Map<MarkupProblem['code'], number>();
  const note = (code: MarkupProblem['code'], offset: number, args: Record<string, string | number> = {}) => {
    counts.set(code, (counts.get(code) ?? 0) + 1);
    if (!first.has(code)) first.set(code, { code, offset, args });
  };
  const n = text.length;
  // The next "&", "<" and "]]>" in the text, each found once and kept while it lies beyond the stretches checked:
  // a search looks no further than the next one (linear, not n^2).
  let nextAmp = -2;
  let nextLt = -2;
  let nextCdataEnd = -2;
  // XML 1.0 4.1: references, in text and in values alike.
  const checkReferences = (from: number, to: number, inValue: boolean) => {
    if (nextAmp !== -1 && nextAmp < from) nextAmp = text.indexOf('&', from);
    for (; nextAmp !== -1 && nextAmp < to; nextAmp = text.indexOf('&', nextAmp + 1)) {
      const a = nextAmp;
      const ref = referenceAt(text, a, to);
      let code: 'bare-ampersand' | 'undefined-entity' | 'invalid-char-ref' | undefined;
      if (ref.kind === 'bare') code = 'bare-ampersand';
      else if (ref.kind === 'entity') code = 'undefined-entity';
      else if (ref.kind === 'char' && !isXmlChar(ref.codePoint!)) code = 'invalid-char-ref';
      if (code === undefined || (inValue && reported(code, a))) continue;
      note(code, a, code === 'undefined-entity' ? { name: quoted(ref.name!) } : code === 'invalid-char-ref' ? { ref: quoted(text.slice(a, ref.end)) } : {});
    }
  };
  // XML 1.0 2.4: CharData does not hold "]]>".
  const checkText = (from: number, to: number) => {
    checkReferences(from, to, false);
    if (nextCdataEnd !== -1 && nextCdataEnd < from) nextCdataEnd = text.indexOf(']]>', from);
    if (nextCdataEnd !== -1 && nextCdataEnd + 3 <= to) {
      note('cdata-end-in-text', nextCdataEnd);
      for (nextCdataEnd = text.indexOf(']]>', nextCdataEnd + 3); nextCdataEnd !== -1 && nextCdataEnd + 3 <= to; nextCdataEnd = text.indexOf(']]>', nextCdataEnd + 3)) note('cdata-end-in-text', nextCdataEnd);
    }
  };
  // XML 1.0 3.1, AttValue ::= '"' ([^<&"] | Reference)* '"' (or between "'").
  const checkValue = (from: number, to: number) => {
    if (nextLt !== -1 && nextLt < from) nextLt = text.indexOf('<', from);
    for (; nextLt !== -1 && nextLt < to; nextLt = text.indexOf('<', nextLt + 1)) if (!reported('lt-in-attribute', nextLt)) note('lt-in-attribute', nextLt);
    checkReferences(from, to, true);
  };
  const nameOf = (from: number) => {
    let j = from;
    while (j < n && nameChar(text.charCodeAt(j))) j++;
    return quoted(text.slice(from, j));
  };
  const skipSpace = (from: number) => {
    let j = from;
    for (let c = text.charCodeAt(j); c === 0x20 || c === 0x0a || c === 0x09 || c === 0x0d; c = text.charCodeAt(++j));
    return j;
  };
  const malformed = (problem: TagProblem, lt: number, at: number, attribute?: number): number => {
    const args: Record<string, string | number> = { tag: nameOf(lt + (text.charCodeAt(lt + 1) === 0x2f ? 2 : 1)), problem };
    if (attribute !== undefined) args.attribute = nameOf(attribute);
    note('tag-malformed', at, args);
    return tagEnd(text, lt + 1, false);
  };
  // XML 1.0 3.1, ETag ::= '</' Name S? '>'.
  const endTag = (lt: number): number => {
    if (!nameStart(text.charCodeAt(lt + 2))) return malformed('name', lt, lt + 2);
    let j = lt + 3;
    while (j < n && nameChar(text.charCodeAt(j))) j++;
    j = skipSpace(j);
    if (j < n && text.charCodeAt(j) !== 0x3e) return malformed('end-tag', lt, j);
    return j < n ? j : -1;
  };
  // XML 1.0 3.1, STag ::= '<' Name (S Attribute)* S? '>', EmptyElemTag the same with '/>'; Attribute ::= Name Eq AttValue.
  // On a problem, the tag ends where the parser ends it (tagEnd).
  const startTag = (lt: number): number => {
    if (!nameStart(text.charCodeAt(lt + 1))) return malformed('name', lt, lt + 1);
    let i = lt + 2;
    while (i < n && nameChar(text.charCodeAt(i))) i++;
    for (;;) {
      const k = skipSpace(i);
      if (k >= n) return -1;
      const c = text.charCodeAt(k);
      if (c === 0x3e) return k;
      if (c === 0x2f && text.charCodeAt(k + 1) === 0x3e) return k + 1;
      if (k === i) return malformed('space', lt, k);
      if (!nameStart(c)) return malformed('attribute-name', lt, k);
      let j = k + 1;
      while (j < n && nameChar(text.charCodeAt(j))) j++;
      j = skipSpace(j);
      if (text.charCodeAt(j) !== 0x3d /* "=" */) return malformed('no-value', lt, k, k);
      j = skipSpace(j + 1);
      const quote = text.charCodeAt(j);
      if (quote !== 0x22 && quote !== 0x27) return malformed('unquoted', lt, j, k);
      const valueEnd = text.indexOf(quote === 0x22 ? '"' : "'", j + 1);
      if (valueEnd === -1) return -1;
      checkValue(j + 1, valueEnd);
      i = valueEnd + 1;
    }
  };
  let i = 0;
  while (i < n) {
    // The "<" a value's check found is the first at or after i, if it is not before it.
    const lt = nextLt >= i ? nextLt : text.indexOf('<', i);
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
      const end = text.charCodeAt(lt + 1) === 0x2f ? endTag(lt) : startTag(lt);
      if (end === -1) break;
      i = end + 1;
    }
  }
  return [...first.values()].map((p) => ({ ...p, args: { ...p.args, more: (counts.get(p.code) ?? 1) - 1 } }));
}
