// The element tree from one scan of the tags: each element is added when its start tag is met, with no parser
// output in between. It reads tags as fast-xml-parser does (comments, CDATA, PIs and quoted values stepped over,
// a name ending where the parser's does), and gives up on anything it does not expect: the caller then has the
// parser read the document whole, which finds and words the problem.
import { NONE } from './elements.js';
import { isNameChar, isSpace, piEnd, skipSpace, tagEnd } from './lex.js';

/** Deeper trees are reported (xml-too-deep), not parsed: the parser recurses, and no ticket nests this deep. */
export const MAX_DEPTH = 500;

/** What the scan hands the elements it finds to (the tree builder). */
export interface ElementSink {
  /**
   * Adds an element whose start tag is at `start`, the next child of `parent` after `previous`; returns it.
   * `mayHaveId`, `mayHaveUrl`: whether the text of its start tag holds "ID", "URL" (most do not, and need no look
   * for an ID, or for the attributes every JDF element may have, CommentURL and PipeURL).
   */
  add(qname: string, start: number, parent: number, previous: number, mayHaveId: boolean, mayHaveUrl: boolean): number;
  /** The root element, added before its end was known, ended here. */
  rootEnded(end: number): void;
}

/** The names met, by a key of their length and two characters (a cache: a name whose key is taken is made anew). */
const SEEN_SLOTS = 256;
const newSeenNames = (): string[] => new Array<string>(SEEN_SLOTS).fill('');

/** text[from, to) as a string: the one met before when the cache has it (no substring made and dropped per tag). */
function nameAt(text: string, from: number, to: number, seen: string[]): string {
  const length = to - from;
  const slot = (length * 31 + text.charCodeAt(from + 1) * 7 + text.charCodeAt(to - 1)) & (SEEN_SLOTS - 1);
  const known = seen[slot]!;
  if (known.length === length && text.startsWith(known, from)) return known;
  return (seen[slot] = text.slice(from, to));
}

/**
 * Adds every element of `text` to `sink`, in document order, and checks the nesting on the way (each end tag
 * names the element it closes). False for anything fast-xml-parser might read differently: an end tag that does
 * not match, an unclosed construct, "<" that starts no tag, a name the parser would end elsewhere or rename
 * (it splits at any JavaScript white space, and renames "__proto__"), nesting deeper than MAX_DEPTH.
 */
export function scanElements(text: string, sink: ElementSink): boolean {
  const n = text.length;
  // The open elements, the document level first: each one's element, name and last child so far.
  const open: number[] = [NONE];
  const names: string[] = [''];
  const lastChild: number[] = [NONE];
  // The next "ID" and "URL" in the text, each found once and kept while it lies ahead (linear, as markup-scan.ts does).
  // The names met lately, so that the name of a tag is not a new string each time (seenName).
  const seen = newSeenNames();
  let nextId = -2;
  let nextUrl = -2;
  let i = 0;
  for (;;) {
    const lt = text.indexOf('<', i);
    if (lt === -1) break;
    const c = text.charCodeAt(lt + 1);
    if (c === 0x2f /* "</" */) {
      const gt = text.indexOf('>', lt);
      const depth = open.length - 1;
      if (gt === -1 || depth === 0) return false;
      const name = names[depth]!;
      if (!text.startsWith(name, lt + 2)) return false;
      if (skipSpace(text, lt + 2 + name.length) !== gt) return false;
      open.pop();
      names.pop();
      lastChild.pop();
      i = gt + 1;
      if (depth === 1) sink.rootEnded(i);
    } else if (c === 0x21 /* "<!" */) {
      let end: number;
      if (text.startsWith('<!--', lt)) end = text.indexOf('-->', lt + 4) + 3;
      else if (text.startsWith('<![CDATA[', lt)) end = text.indexOf(']]>', lt + 9) + 3;
      else return false;
      if (end === 2) return false;
      i = end;
    } else if (c === 0x3f /* "<?" */) {
      // Like the parser, a quoted "?>" does not end a PI.
      const end = piEnd(text, lt + 1); // from the "?": "<?>" is a whole PI to the parser
      if (end === -1) return false;
      i = end + 2;
    } else {
      let j = lt + 1;
      let wide = false;
      for (; j < n; j++) {
        const d = text.charCodeAt(j);
        if (!isNameChar(d)) break;
        if (d >= 0x80) wide = true;
      }
      const after = text.charCodeAt(j);
      // Both compared on every tag: a first "<a/>" is no deopt.
      const slash = after === 0x2f;
      const gtNext = text.charCodeAt(j + 1) === 0x3e;
      // A name must end where the parser's does (at white space, "/>" or ">"), or the two would read different tags.
      if (j === lt + 1 || !(isSpace(after) || after === 0x3e || (slash && gtNext))) return false;
      const name = nameAt(text, lt + 1, j, seen);
      if (name === '__proto__' || (wide && /\s/.test(name))) return false;
      const gt = tagEnd(text, j, true); // "<" inside a tag: not something the scan should guess about
      if (gt === -1) return false;
      if (nextId !== -1 && nextId < lt) nextId = text.indexOf('ID', lt);
      if (nextUrl !== -1 && nextUrl < lt) nextUrl = text.indexOf('URL', lt);
      const depth = open.length - 1;
      const e = sink.add(name, lt, open[depth]!, lastChild[depth]!, nextId !== -1 && nextId < gt, nextUrl !== -1 && nextUrl < gt);
      lastChild[depth] = e;
      i = gt + 1;
      if (text.charCodeAt(gt - 1) === 0x2f /* "/>" */) {
        if (depth === 0) sink.rootEnded(i);
      } else {
        if (open.length > MAX_DEPTH) return false;
        open.push(e);
        names.push(name);
        lastChild.push(NONE);
      }
    }
  }
  return open.length === 1;
}
