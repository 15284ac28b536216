// Reads attributes of a start tag straight from the ticket text, so every value keeps its exact place
// (the parser gives element offsets only), and decodes each value as XML 1.0 section 3.3.3 says.
import { attributesStart, isXmlChar, newSpan, nextAttribute, quoted, referenceAt } from './lex.js';

export interface AttributeProblem {
  code: 'undefined-entity' | 'bare-ampersand' | 'lt-in-attribute' | 'invalid-char-ref' | 'invalid-xml-char' | 'duplicate-attribute';
  /** Offset in the text. */
  offset: number;
  /** Length in the text of a reference left as written (an undefined entity, a bad character reference). */
  length?: number;
  args: Record<string, string>;
}

export interface Attribute {
  /** Qualified name as written. */
  name: string;
  /** The value after XML decoding: character and entity references replaced, literal white space normalized. */
  value: string;
  /** Text offset of the first character after the opening quote. */
  valueStart: number;
  /** Text offset of the closing quote: the value as written is text[valueStart, valueEnd). */
  valueEnd: number;
  /** Text offset for each index of `value` (undefined when decoding changed nothing, then it is valueStart + index). */
  offsets: number[] | undefined;
  /** Shared and empty when there are none: replace it, never push to it. */
  problems: readonly AttributeProblem[];
}

/** The problems of an attribute that has none (one array for all of them). */
export const NO_PROBLEMS: readonly AttributeProblem[] = Object.freeze([]);

const PREDEFINED: Record<string, string> = { lt: '<', gt: '>', amp: '&', apos: "'", quot: '"' };

function isPairedSurrogate(text: string, i: number): boolean {
  const c = text.charCodeAt(i);
  if (c >= 0xd800 && c <= 0xdbff) { const d = text.charCodeAt(i + 1); return d >= 0xdc00 && d <= 0xdfff; }
  const b = text.charCodeAt(i - 1);
  return b >= 0xd800 && b <= 0xdbff;
}

/** The attribute `name` whose value is text[start, end), decoded (decodeAttributeValue). */
export function readAttribute(text: string, name: string, start: number, end: number): Attribute {
  // Every field written out, in one order: one shape for every attribute (an `offsets` added to some made a
  // second, and the walk's readAttributes was optimised again when it met it).
  if (isSimple(text, start, end)) return { name, value: text.slice(start, end), valueStart: start, valueEnd: end, offsets: undefined, problems: NO_PROBLEMS };
  const decoded = decodeAttributeValue(text, start, end);
  return { name, value: decoded.value, valueStart: start, valueEnd: end, offsets: decoded.offsets, problems: decoded.problems };
}

/** Whether text[start, end) decodes to itself: no reference, no white space to normalize, nothing to report. */
function isSimple(text: string, start: number, end: number): boolean {
  for (let i = start; i < end; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x26 || c < 0x20 || c === 0x3c || c >= 0xd800) return false;
  }
  return true;
}

/** XML 1.0 3.3.3: attribute-value normalization for a CDATA attribute. */
export function decodeAttributeValue(text: string, start: number, end: number): { value: string; offsets: number[] | undefined; problems: readonly AttributeProblem[] } {
  if (isSimple(text, start, end)) return { value: text.slice(start, end), offsets: undefined, problems: NO_PROBLEMS };
  const problems: AttributeProblem[] = [];
  let value = '';
  const offsets: number[] = [];
  const push = (s: string, at: number) => {
    value += s;
    for (let k = 0; k < s.length; k++) offsets.push(at);
  };
  for (let i = start; i < end; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x0d) {
      push(' ', i);
      if (text.charCodeAt(i + 1) === 0x0a) i++; // XML 2.11: CRLF is one line end
    } else if (c === 0x09 || c === 0x0a) {
      push(' ', i);
    } else if (c === 0x3c) {
      problems.push({ code: 'lt-in-attribute', offset: i, args: {} });
      push('<', i);
    } else if (c < 0x20 || c === 0xfffe || c === 0xffff || (c >= 0xd800 && c <= 0xdfff && !isPairedSurrogate(text, i))) {
      problems.push({ code: 'invalid-xml-char', offset: i, args: { code: 'U+' + c.toString(16).toUpperCase().padStart(4, '0') } });
      push(text[i]!, i);
    } else if (c >= 0xd800 && c <= 0xdbff) {
      push(text.slice(i, i + 2), i);
      i++;
    } else if (c === 0x26) {
      const ref = referenceAt(text, i, end);
      if (ref.kind === 'bare') {
        problems.push({ code: 'bare-ampersand', offset: i, args: {} });
        push('&', i);
        continue;
      }
      const written = text.slice(i, ref.end);
      if (ref.kind === 'char') {
        if (!isXmlChar(ref.codePoint!)) {
          problems.push({ code: 'invalid-char-ref', offset: i, length: written.length, args: { ref: quoted(written) } });
          push(written, i);
        } else {
          push(String.fromCodePoint(ref.codePoint!), i);
        }
      } else if (ref.kind === 'predefined') {
        push(PREDEFINED[ref.name!]!, i);
      } else {
        problems.push({ code: 'undefined-entity', offset: i, length: written.length, args: { name: quoted(ref.name!) } });
        push(written, i);
      }
      i = ref.end - 1;
    } else {
      push(text[i]!, i);
    }
  }
  return { value, offsets, problems };
}

/**
 * The attribute of the start tag at `start` named exactly `name`, read without decoding or keeping the others:
 * most elements are asked for one attribute, most of the time absent. Namespaces in XML 1.0 section 6.2: an
 * attribute without a prefix is in no namespace, so "x:URL" is another attribute, never the URL. The rest of
 * the tag is read too: a second attribute of the same name (XML 1.0 3.1, which consumers resolve differently,
 * fast-xml-parser keeping the last) is a problem on the one returned.
 */
export function findAttribute(text: string, start: number, name: string): Attribute | undefined {
  let found: Attribute | undefined;
  const span = newSpan();
  for (let i = attributesStart(text, start); (i = nextAttribute(text, i, span)) !== -1; ) {
    const { nameStart, nameEnd, valueStart, valueEnd } = span;
    if (nameEnd - nameStart !== name.length || !text.startsWith(name, nameStart)) continue;
    if (found !== undefined) {
      found.problems = [...found.problems, { code: 'duplicate-attribute', offset: nameStart, args: { name } }];
      return found;
    }
    found = readAttribute(text, name, valueStart, valueEnd);
  }
  return found;
}

/** The local part of a qualified name ("jdf:FileSpec" is "FileSpec"). */
export function localName(qname: string): string {
  return qname.slice(qname.indexOf(':') + 1); // no branch to deopt on
}
