// What fast-xml-parser's validator rejects, in our words: its messages are its own ("Invalid '[ "JDF",
// "ResourcePool"]' found." at 1:1 for a ticket cut off), so each of its errors becomes a reason of ours, a
// sentence made here and the place it concerns. An error we do not know is reason `other`, never its words.
import { isNameChar, isSpace, piEnd, quoted, tagEnd } from './lex.js';

/** Why the text is not well-formed (the `reason` arg of xml-malformed). */
export type MalformedReason =
  | 'cut-off' | 'end-tag-mismatch' | 'end-tag-unopened' | 'end-tag-unended' | 'end-tag-content' | 'tag-name'
  | 'space-after-lt' | 'open-quote' | 'attribute-space' | 'attribute-no-value' | 'attribute-name'
  | 'attribute-repeated' | 'several-roots' | 'bare-ampersand' | 'text-outside-root' | 'no-root'
  | 'declaration-misplaced' | 'other';

/** The validator's error (ValidationError.err). */
export interface ValidatorError {
  code: string;
  msg: string;
  line?: number;
  col?: number;
}

export interface Malformation {
  reason: MalformedReason;
  /** An offset in the text, or the line and column the validator counted. */
  at: number | { line: number; column: number };
  detail: string;
}

const tag = (name: string) => `<${quoted(name)}>`;

// The validator's message, matched in order, and our sentence from what it names.
const WORDS: Array<[RegExp, MalformedReason, (m: RegExpExecArray) => string]> = [
  [/^Expected closing tag '(.*)' \(opened in line (\d+), col (\d+)\) instead of closing tag '(.*)'\.$/s, 'end-tag-mismatch',
    (m) => `The end tag </${quoted(m[4]!)}> stands where ${tag(m[1]!)}, opened at ${m[2]}:${m[3]}, should be closed.`],
  [/^Closing tag '(.*)' has not been opened\.$/s, 'end-tag-unopened', (m) => `The end tag </${quoted(m[1]!)}> has no start tag.`],
  [/^Closing tag '(.*)' doesn't have proper closing\.$/s, 'end-tag-unended', (m) => `The end tag </${quoted(m[1]!)}> has no ">".`],
  [/^Closing tag '(.*)' can't have attributes or invalid starting\.$/s, 'end-tag-content', (m) => `The end tag </${quoted(m[1]!)}> holds more than its name.`],
  [/^Invalid space after '<'\.$/, 'space-after-lt', () => 'A "<" is followed by white space, not by a name.'],
  [/^Tag '(.*)' is an invalid name\.$/s, 'tag-name', (m) => `"${quoted(m[1]!)}" is not an XML name, so <${quoted(m[1]!)} starts no tag.`],
  [/^Attributes for '(.*)' have open quote\.$/s, 'open-quote', (m) => `A value in the tag ${tag(m[1]!)} has no closing quote.`],
  [/^Attribute '(.*)' has no space in starting\.$/s, 'attribute-space', (m) => `The attribute ${quoted(m[1]!)} has no white space before it.`],
  [/^(?:Attribute '(.*)' is without value|boolean attribute '(.*)' is not allowed)\.$/s, 'attribute-no-value',
    (m) => `The attribute ${quoted(m[1] ?? m[2]!)} has no quoted value.`],
  [/^Attribute '(.*)' is an invalid name\.$/s, 'attribute-name', (m) => `"${quoted(m[1]!)}" is not an XML name, so it names no attribute.`],
  [/^Attribute '(.*)' is repeated\.$/s, 'attribute-repeated', (m) => `The attribute ${quoted(m[1]!)} is given twice in one tag.`],
  [/^Multiple possible root nodes found\.$/, 'several-roots', () => 'A second root element follows the first.'],
  [/^char '&' is not expected\.$/, 'bare-ampersand', () => 'A "&" starts no entity or character reference.'],
  [/^Extra text at the end$/, 'text-outside-root', () => 'There is text after the root element.'],
  [/^char '.*' is not expected\.$/s, 'text-outside-root', () => 'There is text before the root element.'],
  [/^Start tag expected\.$/, 'no-root', () => 'There is no root element, only text.'],
  [/^XML declaration allowed only at the start of the document\.$/, 'declaration-misplaced', () => 'An XML declaration stands after the start of the text.'],
];

/** Our reason, words and place for the validator's `error` about `text` (the text it validated, same length and line breaks). */
export function wordValidatorError(text: string, error: ValidatorError): Malformation {
  const at = { line: error.line ?? 1, column: error.col ?? 1 };
  // One element left open ("Unclosed tag") or more ("Invalid '[...]' found", placed at 1:1): the text is cut off.
  if (/^Unclosed tag '|^Invalid '\[/.test(error.msg)) return cutOff(text) ?? { reason: 'cut-off', at: endOf(text), detail: 'The text ends before the root element is closed.' };
  for (const [pattern, reason, words] of WORDS) {
    const m = pattern.exec(error.msg);
    // A tag the validator could not read it places after its name or at its end: we place it at its "<".
    if (m) return { reason, at: AT_TAG.has(reason) ? text.lastIndexOf('<', offsetOf(text, at.line, at.column) - 1) : at, detail: words(m) };
  }
  return { reason: 'other', at, detail: 'The markup breaks the XML grammar here.' };
}

const AT_TAG = new Set<MalformedReason>(['tag-name', 'space-after-lt', 'open-quote']);

/** The offset of a line and column (CR, LF and CRLF each end a line, as the validator's copy of the text has it). */
function offsetOf(text: string, line: number, column: number): number {
  let start = 0;
  for (let l = 1; l < line; l++) {
    const lf = text.indexOf('\n', start);
    const cr = text.indexOf('\r', start);
    const end = cr !== -1 && (lf === -1 || cr < lf) ? cr : lf;
    if (end === -1) break;
    start = end + (text.startsWith('\r\n', end) ? 2 : 1);
  }
  return Math.min(text.length, start + column - 1);
}

/** Where the text ends, white space left out: the end of its last line that holds anything. */
const endOf = (text: string): number => {
  let end = text.length;
  while (end > 0 && isSpace(text.charCodeAt(end - 1))) end--;
  return end;
};

interface Open {
  name: string;
  start: number;
}

/**
 * XML 1.0 2.1: a document ends with its root element closed. Which elements are still open where `text` ends (the
 * innermost last), and the construct the text ends inside, if any; undefined when the nesting breaks before.
 */
function openAtEnd(text: string): { open: Open[]; inside?: { what: string; start: number } } | undefined {
  const open: Open[] = [];
  const nameAt = (from: number) => {
    let j = from;
    while (j < text.length && isNameChar(text.charCodeAt(j))) j++;
    return text.slice(from, j);
  };
  for (let i = text.indexOf('<'); i !== -1; i = text.indexOf('<', i)) {
    let what: string;
    let end: number;
    if (text.startsWith('<!--', i)) [what, end] = ['a comment', text.indexOf('-->', i + 4) + 2];
    else if (text.startsWith('<![CDATA[', i)) [what, end] = ['a CDATA section', text.indexOf(']]>', i + 9) + 2];
    else if (text.startsWith('<?', i)) [what, end] = ['a processing instruction', piEnd(text, i + 1) + 1];
    else if (text.startsWith('</', i)) {
      [what, end] = [`the end tag </${quoted(nameAt(i + 2))}`, text.indexOf('>', i)];
      if (end !== -1 && open.pop()?.name !== nameAt(i + 2)) return undefined;
    } else {
      [what, end] = [`the start tag <${quoted(nameAt(i + 1))}`, tagEnd(text, i + 1, false)];
      if (end !== -1 && text.charCodeAt(end - 1) !== 0x2f /* not "/>" */) open.push({ name: nameAt(i + 1), start: i });
    }
    if (end < i) return { open, inside: { what, start: i } };
    i = end + 1;
  }
  return { open };
}

/** XML 1.0 2.1: the text ends with elements still open; says the innermost, where it opened, and what holds it. */
function cutOff(text: string): Malformation | undefined {
  const state = openAtEnd(text);
  if (state === undefined || (state.open.length === 0 && state.inside === undefined)) return undefined;
  const place = (offset: number) => {
    const before = text.slice(0, offset);
    const lineStart = Math.max(before.lastIndexOf('\n'), before.lastIndexOf('\r')) + 1;
    return `${(before.match(/\r\n?|\n/g) ?? []).length + 1}:${offset - lineStart + 1}`;
  };
  const open = [...state.open].reverse();
  const innermost = open[0];
  const outer = open.slice(1, 4).map((e) => tag(e.name)).join(', ') + (open.length > 4 ? ` and ${open.length - 4} more` : '');
  const still = innermost === undefined ? '' : `${tag(innermost.name)}, opened at ${place(innermost.start)}, is still open${outer ? ` (inside ${outer})` : ''}`;
  const detail = state.inside
    ? `The text ends inside ${state.inside.what}, begun at ${place(state.inside.start)}${still ? `, while ${still}` : ''}.`
    : `The text ends while ${still}.`;
  return { reason: 'cut-off', at: endOf(text), detail };
}
