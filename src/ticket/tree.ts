// The element tree of a ticket with the offset of every start tag, built from fast-xml-parser's ordered output
// (a run of sibling elements at a time for big tickets).
import { XMLParser } from 'fast-xml-parser';
import { findAttribute, isNameChar, localName, type Attribute } from './attributes.js';

/** No element: the parent of a root, the first child of a leaf, the next sibling of a last child. */
export const NONE = -1;

/**
 * The elements of a ticket, each a number: its start tag's offset, parent, first child, next sibling and name
 * in typed arrays. A big ticket has millions of elements, and an object per element (with its links) would
 * cost four times as much as the text; this costs 20 bytes an element.
 */
export class ElementTree {
  /** The root elements (more than one only in a broken ticket). */
  readonly roots: number[] = [];
  private count = 0;
  private starts: Int32Array;
  private parents: Int32Array;
  private firstChildren: Int32Array;
  private nextSiblings: Int32Array;
  private names: Int32Array;
  private readonly nameIds = new Map<string, number>();
  private readonly qnames: string[] = [];
  private readonly locals: string[] = [];

  constructor(readonly text: string, capacity = 256) {
    this.starts = new Int32Array(capacity);
    this.parents = new Int32Array(capacity);
    this.firstChildren = new Int32Array(capacity);
    this.nextSiblings = new Int32Array(capacity);
    this.names = new Int32Array(capacity);
  }

  /** Adds an element after `previous`, the last child `parent` has so far (NONE: it is the first). */
  add(qname: string, start: number, parent: number, previous: number): number {
    if (this.count === this.starts.length) this.grow();
    const e = this.count++;
    let name = this.nameIds.get(qname);
    if (name === undefined) {
      name = this.qnames.length;
      this.nameIds.set(qname, name);
      this.qnames.push(qname);
      this.locals.push(localName(qname));
    }
    this.starts[e] = start;
    this.parents[e] = parent;
    this.firstChildren[e] = NONE;
    this.nextSiblings[e] = NONE;
    this.names[e] = name;
    if (parent === NONE) this.roots.push(e);
    else if (previous === NONE) this.firstChildren[parent] = e;
    else this.nextSiblings[previous] = e;
    return e;
  }

  private grow(): void {
    const widen = (a: Int32Array) => {
      const b = new Int32Array(a.length * 2);
      b.set(a);
      return b;
    };
    this.starts = widen(this.starts);
    this.parents = widen(this.parents);
    this.firstChildren = widen(this.firstChildren);
    this.nextSiblings = widen(this.nextSiblings);
    this.names = widen(this.names);
  }

  /** The local name ("FileSpec" for "jdf:FileSpec"). */
  local(e: number): string {
    return this.locals[this.names[e]!]!;
  }

  /** The name as written, prefix included. */
  qname(e: number): string {
    return this.qnames[this.names[e]!]!;
  }

  /** Offset of the start tag's "<" in the text. */
  start(e: number): number {
    return this.starts[e]!;
  }

  parent(e: number): number {
    return this.parents[e]!;
  }

  firstChild(e: number): number {
    return this.firstChildren[e]!;
  }

  nextSibling(e: number): number {
    return this.nextSiblings[e]!;
  }

  /** The attribute with this local name, read from the start tag in the text (not kept: most are asked for once). */
  attribute(e: number, local: string): Attribute | undefined {
    return findAttribute(this.text, this.starts[e]!, local);
  }

  /** The first child that passes `test`, or NONE. */
  findChild(e: number, test: (child: number) => boolean): number {
    for (let c = this.firstChildren[e]!; c !== NONE; c = this.nextSiblings[c]!) if (test(c)) return c;
    return NONE;
  }
}

const META: unique symbol = XMLParser.getMetaDataSymbol() as never;

/** Deeper trees are reported (xml-too-deep), not parsed: the parser recurses, and no ticket nests this deep. */
export const MAX_DEPTH = 500;

export class TooDeepError extends Error {
  constructor() {
    super(`elements nest deeper than ${MAX_DEPTH} levels`);
  }
}

let parser: XMLParser | undefined;
function getParser(): XMLParser {
  // Attributes are not parsed here (we read the few we need from the text, with their positions); entities are
  // not processed (DOCTYPE is blanked before parsing, and values are decoded by us).
  parser ??= new XMLParser({
    preserveOrder: true,
    ignoreAttributes: true,
    captureMetaData: true,
    processEntities: false,
    htmlEntities: false,
    ignoreDeclaration: true,
    ignorePiTags: true,
    parseTagValue: false,
    trimValues: true,
    maxNestedTags: MAX_DEPTH,
    // Callbacks get the matcher, not a path string built for every element (we use no callbacks).
    jPath: false,
  });
  return parser;
}

type OrderedNode = Record<string, unknown> & { [META]?: { startIndex: number; endIndex?: number } };

/** A place where the markup is not well-formed, found while the tree is built. */
export interface StructureProblem {
  offset: number;
  detail: string;
}

/** XML 1.0 2.8: only white space, comments and processing instructions may stand outside the root. */
export function firstNonMisc(text: string, from: number, to: number): number {
  let i = from;
  while (i < to) {
    const c = text.charCodeAt(i);
    if (c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d) { i++; continue; }
    if (text.startsWith('<!--', i)) { const end = text.indexOf('-->', i + 4); if (end === -1 || end >= to) return i; i = end + 3; continue; }
    if (text.startsWith('<?', i)) { const end = text.indexOf('?>', i + 2); if (end === -1 || end >= to) return i; i = end + 2; continue; }
    return i;
  }
  return -1;
}

// XML 1.0 2.2: the characters a document may not contain at all.
export const FORBIDDEN_CHAR = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/;

export interface Tree {
  elements: ElementTree;
  problem?: StructureProblem;
}

/**
 * Documents longer than this are parsed a run of sibling elements at a time, so that fast-xml-parser's output
 * for the whole document (about five times the text) never exists at once.
 */
export const CHUNK_CHARS = 256 * 1024;

/**
 * Parses `text` into top-level elements and checks its structure on the way: every element closed by its own
 * end tag, nothing but comments, PIs and white space outside the root elements, no forbidden character.
 * fast-xml-parser accepts "<a><b></a>"; its element offsets let us catch that without a second pass.
 * Iterative, so deep nesting cannot overflow the stack.
 */
export function buildTree(text: string, chunkChars = CHUNK_CHARS): Tree {
  if (text.length > chunkChars) {
    const chunked = buildInChunks(text, chunkChars);
    if (chunked !== undefined) return chunked;
  }
  const builder = new TreeBuilder(text);
  builder.parse(0, text.length, NONE, NONE, true);
  return builder.finish();
}

/** Turns fast-xml-parser's ordered output into elements, checking the structure as it goes. */
class TreeBuilder {
  readonly elements: ElementTree;
  private problem: StructureProblem | undefined;
  /** Where the last root element ended: only misc may stand between it and the next. */
  private previousEnd = 0;

  constructor(private readonly text: string) {
    // About one element per 50 characters in real tickets; the arrays grow when there are more.
    this.elements = new ElementTree(text, Math.max(256, Math.min(1 << 22, text.length >> 6)));
  }

  note(offset: number, detail: string): void {
    if (this.problem === undefined || offset < this.problem.offset) this.problem = { offset, detail };
  }

  /** Adds an element after `previous` (see ElementTree.add); `end` is where it ends, when known. */
  add(qname: string, start: number, parent: number, previous: number, end: number | undefined): number {
    if (parent === NONE) {
      const stray = firstNonMisc(this.text, this.previousEnd, start);
      if (stray !== -1) this.note(stray, 'there is text outside the root element.');
      this.previousEnd = end ?? this.text.length;
    }
    return this.elements.add(qname, start, parent, previous);
  }

  /** The root ended here (it was attached before its end was known). */
  rootEnded(end: number): void {
    this.previousEnd = end;
  }

  /**
   * Parses text[from, to), a run of complete siblings, as children of `parent`. `checkEnds`: whether each end
   * tag must still be compared with its start tag (the chunk scanner has done so already). `previous` is
   * the last child `parent` has so far; the last it has afterwards is returned.
   */
  parse(from: number, to: number, parent: number, previous: number, checkEnds: boolean): number {
    const text = this.text;
    let ordered: OrderedNode[];
    try {
      ordered = getParser().parse(from === 0 && to === text.length ? text : text.slice(from, to)) as OrderedNode[];
    } catch (error) {
      if (error instanceof RangeError || (error instanceof Error && /nested tags/i.test(error.message))) throw new TooDeepError();
      throw error;
    }
    let last = previous;
    const stack: Array<{ nodes: OrderedNode[]; parent: number }> = [{ nodes: ordered, parent }];
    while (stack.length > 0) {
      const { nodes, parent: holder } = stack.pop()!;
      let previousSibling = holder === parent ? previous : NONE;
      for (const node of nodes) {
        let qname: string | undefined;
        for (const key in node) if (key !== ':@') { qname = key; break; }
        if (qname === undefined || qname === '#text' || qname.startsWith('?') || qname.startsWith('!')) continue;
        const meta = node[META];
        const start = meta === undefined ? -1 : meta.startIndex + from;
        const end = meta?.endIndex === undefined ? undefined : meta.endIndex + from;
        if (end === undefined) {
          this.note(start, `the tag <${qname}> is never closed.`);
        } else if (checkEnds && text.charCodeAt(end - 2) !== 0x2f /* not "/>": there is an end tag, just before end */) {
          const close = text.lastIndexOf('</', end - 1);
          if (close > start) {
            const after = text.charCodeAt(close + 2 + qname.length);
            if (!text.startsWith(qname, close + 2) || !(after === 0x3e || after === 0x20 || after === 0x09 || after === 0x0a || after === 0x0d)) {
              this.note(close, `<${qname}> is closed by ${text.slice(close, text.indexOf('>', close) + 1 || close + 2 + qname.length)}.`);
            }
          }
        }
        const element = this.add(qname, start, holder, previousSibling, end);
        previousSibling = element;
        const kids = node[qname];
        if (Array.isArray(kids) && kids.length > 0) stack.push({ nodes: kids as OrderedNode[], parent: element });
      }
      if (holder === parent) last = previousSibling;
    }
    return last;
  }

  finish(): Tree {
    const text = this.text;
    const trailing = firstNonMisc(text, this.previousEnd, text.length);
    if (trailing !== -1 && this.elements.roots.length > 0) {
      this.note(trailing, text.startsWith('</', trailing) ? `the end tag ${text.slice(trailing, text.indexOf('>', trailing) + 1)} has no start tag.` : 'there is text after the root element.');
    }
    return this.problem ? { elements: this.elements, problem: this.problem } : { elements: this.elements };
  }
}

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

/**
 * Finds the tags with a scan that only tracks nesting (comments, CDATA, PIs and quoted attribute values
 * skipped), and hands fast-xml-parser runs of complete sibling elements of about `chunkChars` each. The
 * elements that hold those runs are built from the scan. Anything the scan does not expect (an end tag that
 * does not match, an unclosed construct, "<" that starts no tag) returns undefined: the caller parses the
 * document whole, which finds and words the problem.
 */
export function buildInChunks(text: string, chunkChars: number): Tree | undefined {
  const builder = new TreeBuilder(text);
  const documentLevel: OpenElement = { name: '', start: -1, element: NONE, runStart: -1, lastChild: NONE };
  const open: OpenElement[] = [documentLevel];
  const parseRun = (holder: OpenElement, to: number) => {
    if (holder.runStart !== -1 && holder.runStart < to) holder.lastChild = builder.parse(holder.runStart, to, holder.element, holder.lastChild, false);
    holder.runStart = -1;
  };
  // The elements open[1..depth] are added (outermost first), each after its parent's pending run.
  const build = (depth: number) => {
    for (let k = 1; k <= depth; k++) {
      const o = open[k]!;
      if (o.element !== NONE) continue;
      const parent = open[k - 1]!;
      parseRun(parent, o.start);
      o.element = builder.add(o.name, o.start, parent.element, parent.lastChild, undefined);
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
      if (gt === -1 || open.length === 1) return undefined;
      const closing = open.pop()!;
      let nameEnd = lt + 2 + closing.name.length;
      if (!text.startsWith(closing.name, lt + 2)) return undefined;
      while (nameEnd < gt && isSpaceCode(text.charCodeAt(nameEnd))) nameEnd++;
      if (nameEnd !== gt) return undefined;
      i = gt + 1;
      if (closing.element !== NONE) {
        parseRun(closing, lt);
        if (open.length === 1) builder.rootEnded(i);
      } else {
        childEnded(i);
      }
    } else if (c === 0x21 /* "<!" */) {
      let end: number;
      if (text.startsWith('<!--', lt)) end = text.indexOf('-->', lt + 4) + 3;
      else if (text.startsWith('<![CDATA[', lt)) end = text.indexOf(']]>', lt + 9) + 3;
      else return undefined;
      if (end === 2) return undefined;
      i = end;
    } else if (c === 0x3f /* "<?" */) {
      // Like the parser, a quoted "?>" does not end a PI.
      const end = tagEnd(text, lt + 2, true);
      if (end === -1) return undefined;
      i = end + 2;
    } else {
      let j = lt + 1;
      while (j < n && isNameChar(text.charCodeAt(j))) j++;
      const after = text.charCodeAt(j);
      // A name must end where the parser's does (at white space, "/>" or ">"), or the two would read different tags.
      if (j === lt + 1 || !(isSpaceCode(after) || after === 0x3e || (after === 0x2f && text.charCodeAt(j + 1) === 0x3e))) return undefined;
      const name = text.slice(lt + 1, j);
      j = tagEnd(text, j, false);
      if (j === -1) return undefined;
      const parent = open[open.length - 1]!;
      if (parent.runStart === -1) parent.runStart = lt;
      i = j + 1;
      if (text.charCodeAt(j - 1) === 0x2f /* "/>" */) {
        childEnded(i);
      } else {
        if (open.length > MAX_DEPTH) return undefined;
        open.push({ name, start: lt, element: NONE, runStart: -1, lastChild: NONE });
      }
    }
  }
  if (open.length !== 1) return undefined;
  parseRun(documentLevel, n);
  return builder.finish();
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
