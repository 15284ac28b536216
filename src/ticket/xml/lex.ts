// What every reader in this folder shares: the character classes of XML 1.0 (2.2 Char, 2.3 S and NameChar)
// and the steps over a tag, a PI and a start tag's attributes, each stepping over quoted values as
// fast-xml-parser does, so that our reading of the text ends each construct where the parser's does.

/** XML 1.0 2.3: S. */
export const isSpace = (c: number): boolean => c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d;

// Past any S. Shared, so rare spaces (around "=") meet a warm loop, not a deopt.
export function skipSpace(text: string, from: number): number {
  let i = from;
  for (let c = text.charCodeAt(i); c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d; c = text.charCodeAt(++i));
  return i;
}

/** XML 1.0 2.3: NameChar, loosely (every non-ASCII character): the scans only need where a name ends. */
export const isNameChar = (c: number): boolean =>
  (c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a) || (c >= 0x30 && c <= 0x39) || c === 0x2d || c === 0x2e || c === 0x5f || c === 0x3a || c >= 0x80;

/**
 * XML 1.0 2.3: NameStartChar. A surrogate counts (a character of planes 1-14 is one; the rest are rare enough
 * that a name is not judged by them).
 */
export const isNameStartChar = (c: number): boolean =>
  (c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a) || c === 0x5f || c === 0x3a
  || (c >= 0xc0 && c <= 0xd6) || (c >= 0xd8 && c <= 0xf6) || (c >= 0xf8 && c <= 0x2ff) || (c >= 0x370 && c <= 0x37d)
  || (c >= 0x37f && c <= 0x1fff) || c === 0x200c || c === 0x200d || (c >= 0x2070 && c <= 0x218f) || (c >= 0x2c00 && c <= 0x2fef)
  || (c >= 0x3001 && c <= 0xdfff) || (c >= 0xf900 && c <= 0xfdcf) || (c >= 0xfdf0 && c <= 0xfffd);

/** XML 1.0 2.2: Char, the code points a document (and a character reference) may hold. */
export function isXmlChar(cp: number): boolean {
  return cp === 0x9 || cp === 0xa || cp === 0xd || (cp >= 0x20 && cp <= 0xd7ff) || (cp >= 0xe000 && cp <= 0xfffd) || (cp >= 0x10000 && cp <= 0x10ffff);
}

/** The "?" of the "?>" that ends a PI, searched from `from`, quoted values stepped over; -1 if none. */
export function piEnd(text: string, from: number): number {
  for (let j = from; j < text.length; j++) {
    const c = text.charCodeAt(j);
    if (c === 0x22 || c === 0x27) {
      j = text.indexOf(c === 0x22 ? '"' : "'", j + 1);
      if (j === -1) return -1;
    } else if (c === 0x3f && text.charCodeAt(j + 1) === 0x3e) {
      return j;
    }
  }
  return -1;
}

/** The ">" that ends a tag, searched from `from`, quoted values stepped over; -1 if none (or, with `ltEnds`, if a "<" comes first). */
export function tagEnd(text: string, from: number, ltEnds: boolean): number {
  for (let j = from; j < text.length; j++) {
    const c = text.charCodeAt(j);
    if (c === 0x22 || c === 0x27) {
      j = text.indexOf(c === 0x22 ? '"' : "'", j + 1);
      if (j === -1) return -1;
    } else if (c === 0x3e) {
      return j;
    } else if (c === 0x3c && ltEnds) {
      return -1;
    }
  }
  return -1;
}

/** Where one attribute of a start tag is: its name [nameStart, nameEnd) and its value between the quotes [valueStart, valueEnd). */
export interface AttributeSpan {
  nameStart: number;
  nameEnd: number;
  valueStart: number;
  valueEnd: number;
}

/** Where the attributes of the start tag whose "<" is at `start` begin: just past the element's name. */
export function attributesStart(text: string, start: number): number {
  let i = start + 1;
  while (i < text.length && isNameChar(text.charCodeAt(i))) i++;
  return i;
}

/**
 * XML 1.0 3.1, Attribute ::= Name Eq AttValue: reads the attribute at or after `i` (white space first) into
 * `span` and returns where the next one may start; -1 at the end of the tag, or where the tag stops looking
 * like one (the parser words that problem).
 */
export function nextAttribute(text: string, from: number, span: AttributeSpan): number {
  const n = text.length;
  let i = skipSpace(text, from);
  const c = text.charCodeAt(i);
  if (i >= n || c === 0x3e || c === 0x2f || !isNameChar(c)) return -1;
  const nameStart = i;
  while (i < n && isNameChar(text.charCodeAt(i))) i++;
  const nameEnd = i;
  i = skipSpace(text, i);
  if (text.charCodeAt(i) !== 0x3d) return -1;
  i = skipSpace(text, i + 1);
  const quote = text[i];
  if (quote !== '"' && quote !== "'") return -1;
  const valueEnd = text.indexOf(quote, i + 1);
  if (valueEnd === -1) return -1;
  span.nameStart = nameStart;
  span.nameEnd = nameEnd;
  span.valueStart = i + 1;
  span.valueEnd = valueEnd;
  return valueEnd + 1;
}

/** A span to fill. */
export const newSpan = (): AttributeSpan => ({ nameStart: 0, nameEnd: 0, valueStart: 0, valueEnd: 0 });

/** XML 1.0 4.1: what an "&" begins. `end` is just past the ";" (or the "&" itself when bare). */
export interface Reference {
  kind: 'bare' | 'predefined' | 'char' | 'entity';
  end: number;
  /** The entity's name (predefined or not). */
  name: string | undefined;
  /** The code point of a character reference (0x110000 when past Unicode). */
  codePoint: number | undefined;
}

const PREDEFINED_NAMES: ReadonlySet<string> = new Set(['lt', 'gt', 'amp', 'apos', 'quot']);

const hexValue = (c: number): number => (c >= 0x30 && c <= 0x39 ? c - 0x30 : c >= 0x61 && c <= 0x66 ? c - 0x57 : c >= 0x41 && c <= 0x46 ? c - 0x37 : -1);

/**
 * XML 1.0 4.1, Reference ::= EntityRef | CharRef: the reference the "&" at `amp` begins, read no further than
 * `end`; a bare "&" when none does. Each character is looked at once, and none of them is an "&".
 */
export function referenceAt(text: string, amp: number, end: number): Reference {
  const i = amp + 1;
  if (text.charCodeAt(i) === 0x23 /* "#" */) {
    const hex = text.charCodeAt(i + 1) === 0x78;
    const from = hex ? i + 2 : i + 1;
    let j = from;
    let cp = 0;
    for (; j < end; j++) {
      const c = text.charCodeAt(j);
      const d = hex ? hexValue(c) : c >= 0x30 && c <= 0x39 ? c - 0x30 : -1;
      if (d < 0) break;
      cp = Math.min(cp * (hex ? 16 : 10) + d, 0x110000);
    }
    if (j === from || j >= end || text.charCodeAt(j) !== 0x3b) return bare(amp);
    return reference('char', j + 1, undefined, cp);
  }
  if (i >= end || !isNameStartChar(text.charCodeAt(i))) return bare(amp);
  let j = i + 1;
  while (j < end && isNameChar(text.charCodeAt(j))) j++;
  if (j >= end || text.charCodeAt(j) !== 0x3b) return bare(amp);
  const name = text.slice(i, j);
  return reference(PREDEFINED_NAMES.has(name) ? 'predefined' : 'entity', j + 1, name, undefined);
}

// One shape for every Reference.
const reference = (kind: Reference['kind'], end: number, name: string | undefined, codePoint: number | undefined): Reference =>
  ({ kind, end, name, codePoint });

const bare = (amp: number): Reference => reference('bare', amp + 1, undefined, undefined);

/** A name or reference quoted in a problem's args, cut to `max` characters. */
export const quoted = (s: string, max = 64): string => (s.length <= max ? s : `${s.slice(0, max - 3)}...`);
