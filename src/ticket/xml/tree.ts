// The element tree of a ticket with the offset of every start tag: from our own scan of the tags (scan.ts), or,
// for small tickets and whatever the scan does not expect, from fast-xml-parser's ordered output.
import { XMLParser } from 'fast-xml-parser';
import { ElementTree, NONE } from './elements.js';
import { isSpace } from './lex.js';
import type { MalformedReason } from './not-well-formed.js';
import { MAX_DEPTH, scanElements, type ElementSink } from './scan.js';

// The key of the parser's metadata (captureMetaData), asked for only when the parser is used: the CLI's bundle
// loads fast-xml-parser when it is first needed (scripts/bundle.ts), and a ticket the scan reads never needs it.
declare const META: unique symbol;
let metaKey: typeof META | undefined;
const metaOf = (node: OrderedNode) => node[(metaKey ??= XMLParser.getMetaDataSymbol() as never)];

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
  reason: MalformedReason;
  offset: number;
  detail: string;
}

/** XML 1.0 2.8: only white space, comments and processing instructions may stand outside the root. */
export function firstNonMisc(text: string, from: number, to: number): number {
  let i = from;
  while (i < to) {
    const c = text.charCodeAt(i);
    if (isSpace(c)) { i++; continue; }
    if (text.startsWith('<!--', i)) { const end = text.indexOf('-->', i + 4); if (end === -1 || end >= to) return i; i = end + 3; continue; }
    if (text.startsWith('<?', i)) { const end = text.indexOf('?>', i + 2); if (end === -1 || end >= to) return i; i = end + 2; continue; }
    return i;
  }
  return -1;
}

export interface Tree {
  elements: ElementTree;
  problem?: StructureProblem;
}

/**
 * Builds the element tree of `text` and checks its structure on the way: every element closed by its own end
 * tag, nothing but comments, PIs and white space outside the root elements, no forbidden character.
 * Texts longer than `scanFrom` characters (by default all) are read by the scan (scan.ts), which keeps no parser
 * output: fast-xml-parser's for a whole document is about five times the text, and building it took most of the
 * time of a clean ticket. Whatever the scan does not expect is parsed whole, and fast-xml-parser, which accepts
 * "<a><b></a>", has its element offsets checked instead. Iterative, so deep nesting cannot overflow the stack.
 */
export function buildTree(text: string, scanFrom = 0): Tree {
  if (text.length > scanFrom) {
    const scanned = buildByScan(text);
    if (scanned !== undefined) return scanned;
  }
  const builder = new TreeBuilder(text);
  builder.parse();
  return builder.finish();
}

/**
 * The tree from the scan alone (scan.ts); undefined when the scan meets something it does not expect, and the
 * document must be parsed whole.
 */
export function buildByScan(text: string): Tree | undefined {
  const builder = new TreeBuilder(text);
  // The builder is the sink: a fresh closure per text was a deopt.
  return scanElements(text, builder) ? builder.finish() : undefined;
}

/** Adds the elements, from the scan or from fast-xml-parser's ordered output, checking the structure as it goes. */
class TreeBuilder implements ElementSink {
  readonly elements: ElementTree;
  private problem: StructureProblem | undefined;
  /** Where the last root element ended: only misc may stand between it and the next. */
  private previousEnd = 0;

  constructor(private readonly text: string) {
    // One element per 64 characters to start with (real tickets have about one per 50); the arrays double when full.
    this.elements = new ElementTree(text, Math.max(256, Math.min(1 << 22, text.length >> 6)));
  }

  note(reason: MalformedReason, offset: number, detail: string): void {
    if (this.problem === undefined || offset < this.problem.offset) this.problem = { reason, offset, detail };
  }

  /** Adds an element after `previous` (see ElementTree.add); `end` is where it ends, when known. */
  add(qname: string, start: number, parent: number, previous: number, mayHaveId: boolean, mayHaveUrl: boolean, end?: number): number {
    if (parent === NONE) {
      const stray = firstNonMisc(this.text, this.previousEnd, start);
      if (stray !== -1) this.note('text-outside-root', stray, 'there is text outside the root element.');
      this.previousEnd = end ?? this.text.length;
    }
    return this.elements.add(qname, start, parent, previous, mayHaveId, mayHaveUrl);
  }

  /** The root ended here (it was attached before its end was known). */
  rootEnded(end: number): void {
    this.previousEnd = end;
  }

  /** Parses the whole text with fast-xml-parser, comparing each end tag with its start tag. */
  parse(): void {
    const text = this.text;
    let ordered: OrderedNode[];
    try {
      ordered = getParser().parse(text) as OrderedNode[];
    } catch (error) {
      if (error instanceof RangeError || (error instanceof Error && /nested tags/i.test(error.message))) throw new TooDeepError();
      throw error;
    }
    const stack: Array<{ nodes: OrderedNode[]; parent: number }> = [{ nodes: ordered, parent: NONE }];
    while (stack.length > 0) {
      const { nodes, parent } = stack.pop()!;
      let previousSibling = NONE;
      for (const node of nodes) {
        let qname: string | undefined;
        for (const key in node) if (key !== ':@') { qname = key; break; }
        if (qname === undefined || qname === '#text' || qname.startsWith('?') || qname.startsWith('!')) continue;
        const meta = metaOf(node);
        const start = meta === undefined ? -1 : meta.startIndex;
        const end = meta?.endIndex;
        if (end === undefined) {
          this.note('cut-off', start, `the tag <${qname}> is never closed.`);
        } else if (text.charCodeAt(end - 2) !== 0x2f /* not "/>": there is an end tag, just before end */) {
          const close = text.lastIndexOf('</', end - 1);
          if (close > start) {
            const after = text.charCodeAt(close + 2 + qname.length);
            if (!text.startsWith(qname, close + 2) || !(after === 0x3e || isSpace(after))) {
              this.note('end-tag-mismatch', close, `<${qname}> is closed by ${text.slice(close, text.indexOf('>', close) + 1 || close + 2 + qname.length)}.`);
            }
          }
        }
        const element = this.add(qname, start, parent, previousSibling, true, true, end);
        previousSibling = element;
        const kids = node[qname];
        if (Array.isArray(kids) && kids.length > 0) stack.push({ nodes: kids as OrderedNode[], parent: element });
      }
    }
  }

  finish(): Tree {
    this.elements.trim();
    const text = this.text;
    const trailing = firstNonMisc(text, this.previousEnd, text.length);
    if (trailing !== -1 && this.elements.roots.length > 0) {
      const unopened = text.startsWith('</', trailing);
      this.note(unopened ? 'end-tag-unopened' : 'text-outside-root', trailing, unopened ? `the end tag ${text.slice(trailing, text.indexOf('>', trailing) + 1)} has no start tag.` : 'there is text after the root element.');
    }
    return this.problem ? { elements: this.elements, problem: this.problem } : { elements: this.elements };
  }
}
