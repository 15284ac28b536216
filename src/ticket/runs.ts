// Big tickets are parsed a run of sibling elements at a time: this scan finds the runs.
import { isNameChar } from './attributes.js';
import { NONE } from './elements.js';

/** Deeper trees are reported (xml-too-deep), not parsed: the parser recurses, and no ticket nests this deep. */
export const MAX_DEPTH = 500;

/** An element the chunk scanner has seen open and not yet closed. */
interface OpenElement {
  name: string;
  start: number;
  /** Added (not NONE) once the element is too big to be parsed whole: then its children are parsed in runs. */
  element: number;
  /** Where the run of children not yet parsed begins (-1: none). */
  runStart: number;
  /** The last child parsed or added so far. */
  lastChild: number;
}

/** What the scan hands its runs, and the elements that hold them, to (the tree builder). */
export interface RunSink {
  /** Parses text[from, to), complete siblings, as children of `parent` after `previous`; returns the last. */
  parseRun(from: number, to: number, parent: number, previous: number): number;
  /** Adds an element whose children come in runs, after `previous`; returns it. */
  addHolder(qname: string, start: number, parent: number, previous: number): number;
  /** The root element, added before its end was known, ended here. */
  rootEnded(end: number): void;
}

/**
 * Finds the tags with a scan that only tracks nesting (comments, CDATA, PIs and quoted attribute values
 * skipped), and hands `sink` runs of complete sibling elements of about `chunkChars` each. The elements that
 * hold those runs are added from the scan. Anything the scan does not expect (an end tag that does not match,
 * an unclosed construct, "<" that starts no tag, a name the parser would end elsewhere) returns false: the
 * caller then parses the document whole, which finds and words the problem.
 */
export function scanInRuns(text: string, chunkChars: number, sink: RunSink): boolean {
  const documentLevel: OpenElement = { name: '', start: -1, element: NONE, runStart: -1, lastChild: NONE };
  const open: OpenElement[] = [documentLevel];
  const parseRun = (holder: OpenElement, to: number) => {
    if (holder.runStart !== -1 && holder.runStart < to) holder.lastChild = sink.parseRun(holder.runStart, to, holder.element, holder.lastChild);
    holder.runStart = -1;
  };
  // The elements open[1..depth] are added (outermost first), each after its parent's pending run.
  const build = (depth: number) => {
    for (let k = 1; k <= depth; k++) {
      const o = open[k]!;
      if (o.element !== NONE) continue;
      const parent = open[k - 1]!;
      parseRun(parent, o.start);
      o.element = sink.addHolder(o.name, o.start, parent.element, parent.lastChild);
      parent.lastChild = o.element;
    }
  };
  // A child of open[depth] ended at `end`: parse the run of children when it is long enough.
  const childEnded = (end: number) => {
    const depth = open.length - 1;
    if (end - open[depth]!.runStart >= chunkChars) {
      build(depth);
      parseRun(open[depth]!, end);
    }
  };
  const n = text.length;
  let i = 0;
  for (;;) {
    const lt = text.indexOf('<', i);
    if (lt === -1) break;
    const c = text.charCodeAt(lt + 1);
    if (c === 0x2f /* "</" */) {
      const gt = text.indexOf('>', lt);
      if (gt === -1 || open.length === 1) return false;
      const closing = open.pop()!;
      let nameEnd = lt + 2 + closing.name.length;
      if (!text.startsWith(closing.name, lt + 2)) return false;
      while (nameEnd < gt && isSpaceCode(text.charCodeAt(nameEnd))) nameEnd++;
      if (nameEnd !== gt) return false;
      i = gt + 1;
      if (closing.element !== NONE) {
        parseRun(closing, lt);
        if (open.length === 1) sink.rootEnded(i);
      } else {
        childEnded(i);
      }
    } else if (c === 0x21 /* "<!" */) {
      let end: number;
      if (text.startsWith('<!--', lt)) end = text.indexOf('-->', lt + 4) + 3;
      else if (text.startsWith('<![CDATA[', lt)) end = text.indexOf(']]>', lt + 9) + 3;
      else return false;
      if (end === 2) return false;
      i = end;
    } else if (c === 0x3f /* "<?" */) {
      // Like the parser, a quoted "?>" does not end a PI.
      const end = tagEnd(text, lt + 1, true); // from the "?": "<?>" is a whole PI to the parser
      if (end === -1) return false;
      i = end + 2;
    } else {
      let j = lt + 1;
      while (j < n && isNameChar(text.charCodeAt(j))) j++;
      const after = text.charCodeAt(j);
      // A name must end where the parser's does (at white space, "/>" or ">"), or the two would read different tags.
      if (j === lt + 1 || !(isSpaceCode(after) || after === 0x3e || (after === 0x2f && text.charCodeAt(j + 1) === 0x3e))) return false;
      const name = text.slice(lt + 1, j);
      j = tagEnd(text, j, false);
      if (j === -1) return false;
      const parent = open[open.length - 1]!;
      if (parent.runStart === -1) parent.runStart = lt;
      i = j + 1;
      if (text.charCodeAt(j - 1) === 0x2f /* "/>" */) {
        childEnded(i);
      } else {
        if (open.length > MAX_DEPTH) return false;
        open.push({ name, start: lt, element: NONE, runStart: -1, lastChild: NONE });
      }
    }
  }
  if (open.length !== 1) return false;
  parseRun(documentLevel, n);
  return true;
}

/** Where the tag ends (its ">", or the "?" of "?>" for a PI), stepping over quoted values; -1 if it does not. */
function tagEnd(text: string, from: number, pi: boolean): number {
  const n = text.length;
  for (let j = from; j < n; j++) {
    const ch = text.charCodeAt(j);
    if (ch === 0x22 || ch === 0x27) {
      j = text.indexOf(ch === 0x22 ? '"' : "'", j + 1);
      if (j === -1) return -1;
    } else if (pi ? ch === 0x3f && text.charCodeAt(j + 1) === 0x3e : ch === 0x3e) {
      return j;
    } else if (ch === 0x3c && !pi) {
      return -1; // "<" inside a tag: not something the scan should guess about
    }
  }
  return -1;
}

const isSpaceCode = (c: number): boolean => c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d;
