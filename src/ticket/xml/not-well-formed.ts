// fast-xml-parser's validator errors in our words: a reason, a sentence and a place of ours (its message never
// reaches a user).
import { isNameChar, isSpace, piEnd, quoted, tagEnd } from './lex.js';

/** Why the text is not well-formed (xml-malformed's `reason`). */
export type MalformedReason =
  | 'cut-off' | 'end-tag-mismatch' | 'end-tag-unopened' | 'end-tag-unended' | 'end-tag-content' | 'tag-name'
  | 'space-after-lt' | 'open-quote' | 'attribute-space' | 'attribute-no-value' | 'attribute-name'
  | 'attribute-repeated' | 'several-roots' | 'bare-ampersand' | 'text-outside-root' | 'no-root'
  | 'declaration-misplaced' | 'other';

export interface Malformation {
  reason: MalformedReason;
  at: number | { line: number; column: number };
  detail: string;
}

// The validator's message (`n`: the first name it quotes), our reason and sentence.
const WORDS: Array<[RegExp, MalformedReason, (n: string, m: RegExpExecArray) => string]> = [
  [/\(opened in line (\d+), col (\d+)\) instead of closing tag '(.*)'/s, 'end-tag-mismatch',
    (n, m) => `The end tag </${quoted(m[3]!)}> stands where <${n}>, opened at ${m[1]}:${m[2]}, should be closed.`],
  [/^Closing .* has not been opened/s, 'end-tag-unopened', (n) => `The end tag </${n}> has no start tag.`],
  [/^Closing .* proper closing/s, 'end-tag-unended', (n) => `The end tag </${n}> has no ">".`],
  [/^Closing .* can't have/s, 'end-tag-content', (n) => `The end tag </${n}> holds more than its name.`],
  [/^Invalid space after/, 'space-after-lt', () => 'A "<" is followed by white space, not by a name.'],
  [/^Tag .* invalid name/s, 'tag-name', (n) => `"${n}" is not an XML name, so <${n} starts no tag.`],
  [/^Attributes for .* open quote/s, 'open-quote', (n) => `A value in the tag <${n}> has no closing quote.`],
  [/^Attribute .* no space in starting/s, 'attribute-space', (n) => `The attribute ${n} has no white space before it.`],
  [/^(Attribute .* without value|boolean attribute)/s, 'attribute-no-value', (n) => `The attribute ${n} has no quoted value.`],
  [/^Attribute .* invalid name/s, 'attribute-name', (n) => `"${n}" is not an XML name, so it names no attribute.`],
  [/^Attribute .* repeated/s, 'attribute-repeated', (n) => `The attribute ${n} is given twice in one tag.`],
  [/^Multiple possible root/, 'several-roots', () => 'A second root element follows the first.'],
  [/^char '&'/, 'bare-ampersand', () => 'A "&" starts no entity or character reference.'],
  [/^Extra text at the end/, 'text-outside-root', () => 'There is text after the root element.'],
  [/^char /, 'text-outside-root', () => 'There is text before the root element.'],
  [/^Start tag expected/, 'no-root', () => 'There is no root element, only text.'],
  [/^XML declaration allowed only/, 'declaration-misplaced', () => 'An XML declaration stands after the start of the text.'],
];

// A tag the validator cannot read it places after the tag's name or at its end: we place it at its "<".
const AT_TAG = new Set<MalformedReason>(['tag-name', 'space-after-lt', 'open-quote']);

/** Our reason, words and place for the validator's `error` on `text` (same length and line breaks as it saw). */
export function wordValidatorError(text: string, error: { msg: string; line?: number; col?: number }): Malformation {
  const at = { line: error.line ?? 1, column: error.col ?? 1 };
  // One element left open ("Unclosed tag") or more ("Invalid '[...]' found"): the text is cut off.
  if (/^Unclosed tag '|^Invalid '\[/.test(error.msg)) return cutOff(text) ?? { reason: 'cut-off', at: endOf(text), detail: 'The text ends before the root element is closed.' };
  for (const [pattern, reason, words] of WORDS) {
    const m = pattern.exec(error.msg);
    if (!m) continue;
    const detail = words(quoted(/'(.*?)'/s.exec(error.msg)?.[1] ?? ''), m);
    return { reason, at: AT_TAG.has(reason) ? text.lastIndexOf('<', offsetOf(text, at.line, at.column) - 1) : at, detail };
  }
  return { reason: 'other', at, detail: 'The markup breaks the XML grammar here.' };
}

/** The offset of a line and column (CR, LF and CRLF each end a line). */
function offsetOf(text: string, line: number, column: number): number {
  const breaks = /\r\n?|\n/g;
  let start = 0;
  for (let l = 1; l < line && breaks.exec(text); l++) start = breaks.lastIndex;
  return Math.min(text.length, start + column - 1);
}

/** "line:column" of an offset. */
function place(text: string, offset: number): string {
  const before = text.slice(0, offset);
  const lineStart = Math.max(before.lastIndexOf('\n'), before.lastIndexOf('\r')) + 1;
  return `${(before.match(/\r\n?|\n/g) ?? []).length + 1}:${offset - lineStart + 1}`;
}

/** Where the text ends, trailing white space left out. */
function endOf(text: string): number {
  let end = text.length;
  while (end > 0 && isSpace(text.charCodeAt(end - 1))) end--;
  return end;
}

interface Open {
  name: string;
  start: number;
}

/** The elements open where `text` ends, and the construct it ends inside; undefined if the nesting breaks. */
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

/** XML 1.0 2.1: the text ends with elements open: the innermost, where it opened, what holds it. */
function cutOff(text: string): Malformation | undefined {
  const state = openAtEnd(text);
  if (state === undefined || (state.open.length === 0 && state.inside === undefined)) return undefined;
  const open = [...state.open].reverse();
  const tag = (e: Open) => `<${quoted(e.name)}>`;
  const outer = open.slice(1, 4).map(tag).join(', ') + (open.length > 4 ? ` and ${open.length - 4} more` : '');
  const still = open[0] === undefined ? '' : `${tag(open[0])}, opened at ${place(text, open[0].start)}, is still open${outer ? ` (inside ${outer})` : ''}`;
  const detail = state.inside
    ? `The text ends inside ${state.inside.what}, begun at ${place(text, state.inside.start)}${still ? `, while ${still}` : ''}.`
    : `The text ends while ${still}.`;
  return { reason: 'cut-off', at: endOf(text), detail };
}
