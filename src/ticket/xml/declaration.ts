// The XML declaration at the start of a document, read once: its encoding for decoding (src/ticket/decode.ts),
// and the first place it breaks XML 1.0's grammar for the xml-declaration rule.
//   [23] XMLDecl      ::= '<?xml' VersionInfo EncodingDecl? SDDecl? S? '?>'
//   [24] VersionInfo  ::= S 'version' Eq ("'" VersionNum "'" | '"' VersionNum '"')
//   [25] Eq           ::= S? '=' S?
//   [26] VersionNum   ::= '1.' [0-9]+
//   [80] EncodingDecl ::= S 'encoding' Eq ('"' EncName '"' | "'" EncName "'" )
//   [81] EncName      ::= [A-Za-z] ([A-Za-z0-9._] | '-')*
//   [32] SDDecl       ::= S 'standalone' Eq (("'" ('yes' | 'no') "'") | ('"' ('yes' | 'no') '"'))
// A version 1.1 to 1.9 (and any '1.' [0-9]+) matches VersionNum: XML 1.0 2.8 says a 1.0 processor reads such a
// document as a 1.0 one, so it is no finding here.
import { isNameChar, isSpace, quoted } from './lex.js';

/**
 * How a declaration breaks the grammar: `target`, "<?XML" or another case of the reserved target (2.6); `space`,
 * no white space before a pseudo-attribute; `syntax`, something that is not a pseudo-attribute (no name, no "=",
 * no quoted value); `unknown`, a name other than version, encoding and standalone (they are case-sensitive);
 * `no-version`, no version; `order`, a pseudo-attribute given twice or out of the order version, encoding,
 * standalone; `value`, a value its production does not allow; `quote`, a value that does not end with its quote before the
 * "?>"; `unclosed`, no "?>".
 */
export type DeclarationProblemKind = 'target' | 'space' | 'syntax' | 'unknown' | 'no-version' | 'order' | 'value' | 'quote' | 'unclosed';

export interface DeclarationProblem {
  kind: DeclarationProblemKind;
  /** Offset in the text of the first character that does not fit. */
  offset: number;
  /** The pseudo-attribute (or, for `target`, the target) it concerns, as written (a long one cut, quoted()). */
  name?: string;
  /** Its value, as written (a long one cut). */
  value?: string;
}

/** A pseudo-attribute as written: name, value and where they stand. */
interface PseudoAttribute {
  name: string;
  nameAt: number;
  value: string;
  valueAt: number;
  /** Whether the value ends with the quote it starts with, before the "?>". */
  closed: boolean;
}

export interface XmlDeclaration {
  /** Offset just after its "?>", or -1 when it has none. */
  end: number;
  /** The encoding it names, when that is an EncName, wherever it stands among the pseudo-attributes. */
  encoding?: string;
  /** Offset of the encoding's value in the text. */
  encodingAt?: number;
  /** The first place it breaks XMLDecl, if any. */
  problem?: DeclarationProblem;
}

const ORDER = ['version', 'encoding', 'standalone'];

/** Each value's production, and how far a value fits it (the offset of its first character that does not). */
const PRODUCTIONS: Record<string, { whole: RegExp; fits: (value: string) => number }> = {
  // [26] VersionNum ::= '1.' [0-9]+
  version: { whole: /^1\.[0-9]+$/, fits: (v) => /^(?:1(?:\.[0-9]*)?)?/.exec(v)![0].length },
  // [81] EncName ::= [A-Za-z] ([A-Za-z0-9._] | '-')*
  encoding: { whole: /^[A-Za-z][A-Za-z0-9._-]*$/, fits: (v) => /^(?:[A-Za-z][A-Za-z0-9._-]*)?/.exec(v)![0].length },
  // [32] SDDecl: 'yes' | 'no'
  standalone: { whole: /^(?:yes|no)$/, fits: (v) => /^(?:y(?:es?)?|no?)?/.exec(v)![0].length },
};

/** XML 1.0 2.8: the declaration `text` starts with, or undefined when it starts with no "<?xml" (in any case). */
export function readXmlDeclaration(text: string): XmlDeclaration | undefined {
  if (!text.startsWith('<?')) return undefined;
  let i = 2;
  while (i < text.length && isNameChar(text.charCodeAt(i))) i++;
  const target = text.slice(2, i);
  if (target.toLowerCase() !== 'xml') return undefined;
  // XML 1.0 2.6: a PI ends at the first "?>".
  const close = text.indexOf('?>', i);
  const limit = close === -1 ? text.length : close;
  const { attributes, stop } = pseudoAttributes(text, i, limit);
  const encoding = attributes.find((a) => a.name === 'encoding' && a.closed && PRODUCTIONS['encoding']!.whole.test(a.value));
  const declaration: XmlDeclaration = { end: close === -1 ? -1 : close + 2 };
  if (encoding) Object.assign(declaration, { encoding: encoding.value, encodingAt: encoding.valueAt });
  const problem = problemOf(target, close, attributes, stop, limit);
  if (problem) declaration.problem = problem;
  return declaration;
}

/** The first problem: a reserved target, then no "?>", then the pseudo-attributes. */
function problemOf(target: string, close: number, attributes: readonly PseudoAttribute[], stop: DeclarationProblem | undefined, limit: number): DeclarationProblem | undefined {
  if (target !== 'xml') return { kind: 'target', offset: 2, name: quoted(target) };
  if (close === -1) return { kind: 'unclosed', offset: 0 };
  return firstBroken(attributes, stop, limit);
}

/** The pseudo-attributes from `from` to `limit`, read as far as each has a name, "=" and a quoted value. */
function pseudoAttributes(text: string, from: number, limit: number): { attributes: PseudoAttribute[]; stop?: DeclarationProblem } {
  const attributes: PseudoAttribute[] = [];
  const skipSpace = (j: number) => {
    while (j < limit && isSpace(text.charCodeAt(j))) j++;
    return j;
  };
  for (let i = from; ;) {
    const nameAt = skipSpace(i);
    if (nameAt >= limit) return { attributes };
    if (nameAt === i) return { attributes, stop: { kind: isNameChar(text.charCodeAt(nameAt)) ? 'space' : 'syntax', offset: nameAt } };
    let j = nameAt;
    while (j < limit && isNameChar(text.charCodeAt(j))) j++;
    const name = text.slice(nameAt, j);
    if (name === '') return { attributes, stop: { kind: 'syntax', offset: nameAt } };
    // [25] Eq ::= S? '=' S?
    j = skipSpace(j);
    if (text.charCodeAt(j) !== 0x3d || j >= limit) return { attributes, stop: { kind: 'syntax', offset: j, name: quoted(name) } };
    j = skipSpace(j + 1);
    const quote = text.charAt(j);
    if ((quote !== '"' && quote !== "'") || j >= limit) return { attributes, stop: { kind: 'syntax', offset: j, name: quoted(name) } };
    const end = text.indexOf(quote, j + 1);
    const closed = end !== -1 && end < limit;
    attributes.push({ name, nameAt, value: text.slice(j + 1, closed ? end : limit), valueAt: j + 1, closed });
    if (!closed) return { attributes };
    i = end + 1;
  }
}

/**
 * XML 1.0 2.8 [23], [24], [80], [32]: the first pseudo-attribute out of place or with a value its production does
 * not allow; then where the reading of them stopped, if it did; then a declaration without a version.
 */
function firstBroken(attributes: readonly PseudoAttribute[], stop: DeclarationProblem | undefined, limit: number): DeclarationProblem | undefined {
  const hasVersion = attributes.some((a) => a.name === 'version');
  let last = -1;
  for (const a of attributes) {
    const place = ORDER.indexOf(a.name);
    if (place === -1) return { kind: 'unknown', offset: a.nameAt, name: quoted(a.name) };
    if (last === -1 && place !== 0) return { kind: hasVersion ? 'order' : 'no-version', offset: a.nameAt, name: a.name };
    if (place <= last) return { kind: 'order', offset: a.nameAt, name: a.name };
    last = place;
    const production = PRODUCTIONS[a.name]!;
    if (!production.whole.test(a.value)) return { kind: 'value', offset: a.valueAt + production.fits(a.value), name: a.name, value: quoted(a.value) };
    if (!a.closed) return { kind: 'quote', offset: a.valueAt + a.value.length, name: a.name, value: quoted(a.value) };
  }
  return stop ?? (hasVersion ? undefined : { kind: 'no-version', offset: limit });
}
