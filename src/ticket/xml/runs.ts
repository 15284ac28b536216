// Big tickets are parsed a run of sibling elements at a time: this scan finds the runs.
import { NONE } from './elements.js';
import { isNameChar, isSpace, piEnd, tagEnd } from './lex.js';

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
  return new RunScan(text, chunkChars, sink).scan();
}

/** Each step returns where the scan goes on, or -1 for something it does not expect. */
class RunScan {
  private readonly documentLevel: OpenElement = { name: '', start: -1, element: NONE, runStart: -1, lastChild: NONE };
  private readonly open: OpenElement[] = [this.documentLevel];

  constructor(
    private readonly text: string,
    private readonly chunkChars: number,
    private readonly sink: RunSink,
  ) {}

  scan(): boolean {
    const text = this.text;
    let i = 0;
    for (;;) {
      const lt = text.indexOf('<', i);
      if (lt === -1) break;
      const c = text.charCodeAt(lt + 1);
      if (c === 0x2f /* "</" */) i = this.endTag(lt);
      else if (c === 0x21 /* "<!" */) i = this.commentOrCdata(lt);
      else if (c === 0x3f /* "<?" */) {
        // Like the parser, a quoted "?>" does not end a PI.
        const end = piEnd(text, lt + 1); // from the "?": "<?>" is a whole PI to the parser
        i = end === -1 ? -1 : end + 2;
      } else i = this.startTag(lt);
      if (i === -1) return false;
    }
    if (this.open.length !== 1) return false;
    this.parseRun(this.documentLevel, text.length);
    return true;
  }

  private endTag(lt: number): number {
    const { text, open } = this;
    const gt = text.indexOf('>', lt);
    if (gt === -1 || open.length === 1) return -1;
    const closing = open.pop()!;
    let nameEnd = lt + 2 + closing.name.length;
    if (!text.startsWith(closing.name, lt + 2)) return -1;
    while (nameEnd < gt && isSpace(text.charCodeAt(nameEnd))) nameEnd++;
    if (nameEnd !== gt) return -1;
    const i = gt + 1;
    if (closing.element !== NONE) {
      this.parseRun(closing, lt);
      if (open.length === 1) this.sink.rootEnded(i);
    } else {
      this.childEnded(i);
    }
    return i;
  }

  private commentOrCdata(lt: number): number {
    const text = this.text;
    let end: number;
    if (text.startsWith('<!--', lt)) end = text.indexOf('-->', lt + 4) + 3;
    else if (text.startsWith('<![CDATA[', lt)) end = text.indexOf(']]>', lt + 9) + 3;
    else return -1;
    return end === 2 ? -1 : end;
  }

  private startTag(lt: number): number {
    const { text, open } = this;
    let j = lt + 1;
    while (j < text.length && isNameChar(text.charCodeAt(j))) j++;
    const after = text.charCodeAt(j);
    // A name must end where the parser's does (at white space, "/>" or ">"), or the two would read different tags.
    if (j === lt + 1 || !(isSpace(after) || after === 0x3e || (after === 0x2f && text.charCodeAt(j + 1) === 0x3e))) return -1;
    const name = text.slice(lt + 1, j);
    j = tagEnd(text, j, true); // "<" inside a tag: not something the scan should guess about
    if (j === -1) return -1;
    const parent = open[open.length - 1]!;
    if (parent.runStart === -1) parent.runStart = lt;
    const i = j + 1;
    if (text.charCodeAt(j - 1) === 0x2f /* "/>" */) {
      this.childEnded(i);
    } else {
      if (open.length > MAX_DEPTH) return -1;
      open.push({ name, start: lt, element: NONE, runStart: -1, lastChild: NONE });
    }
    return i;
  }

  private parseRun(holder: OpenElement, to: number): void {
    if (holder.runStart !== -1 && holder.runStart < to) holder.lastChild = this.sink.parseRun(holder.runStart, to, holder.element, holder.lastChild);
    holder.runStart = -1;
  }

  /** The elements open[1..depth] are added (outermost first), each after its parent's pending run. */
  private build(depth: number): void {
    for (let k = 1; k <= depth; k++) {
      const o = this.open[k]!;
      if (o.element !== NONE) continue;
      const parent = this.open[k - 1]!;
      this.parseRun(parent, o.start);
      o.element = this.sink.addHolder(o.name, o.start, parent.element, parent.lastChild);
      parent.lastChild = o.element;
    }
  }

  /** A child of the innermost open element ended at `end`: parse the run of children when it is long enough. */
  private childEnded(end: number): void {
    const depth = this.open.length - 1;
    if (end - this.open[depth]!.runStart >= this.chunkChars) {
      this.build(depth);
      this.parseRun(this.open[depth]!, end);
    }
  }
}
