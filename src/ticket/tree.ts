// The element tree of a ticket with the offset of every start tag, built from fast-xml-parser's ordered output.
import { XMLParser } from 'fast-xml-parser';
import { findAttribute, localName, type Attribute } from './attributes.js';

export class XmlElement {
  readonly children: XmlElement[] = [];
  /** Attributes asked for so far, by local name (null: looked for, absent). */
  private found: Record<string, Attribute | null> | undefined;

  constructor(
    readonly qname: string,
    readonly local: string,
    /** Offset of "<" in the text. */
    readonly start: number,
    readonly parent: XmlElement | undefined,
    private readonly text: string,
  ) {}

  /** The attribute with this local name, read from the start tag in the text the first time it is asked for. */
  attribute(local: string): Attribute | undefined {
    this.found ??= {};
    let a = this.found[local];
    if (a === undefined) {
      a = findAttribute(this.text, this.start, local) ?? null;
      this.found[local] = a;
    }
    return a ?? undefined;
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

/**
 * Parses `text` into top-level elements and checks its structure on the way: every element closed by its own
 * end tag, nothing but comments, PIs and white space outside the root elements, no forbidden character.
 * fast-xml-parser accepts "<a><b></a>"; its element offsets let us catch that without a second pass.
 * Iterative, so deep nesting cannot overflow the stack.
 */
export function buildTree(text: string): { roots: XmlElement[]; problem?: StructureProblem } {
  let ordered: OrderedNode[];
  try {
    ordered = getParser().parse(text) as OrderedNode[];
  } catch (error) {
    if (error instanceof RangeError || (error instanceof Error && /nested tags/i.test(error.message))) throw new TooDeepError();
    throw error;
  }
  let problem: StructureProblem | undefined;
  const note = (offset: number, detail: string) => {
    if (problem === undefined || offset < problem.offset) problem = { offset, detail };
  };
  const roots: XmlElement[] = [];
  let previousEnd = 0;
  const stack: Array<{ nodes: OrderedNode[]; parent: XmlElement | undefined }> = [{ nodes: ordered, parent: undefined }];
  while (stack.length > 0) {
    const { nodes, parent } = stack.pop()!;
    for (const node of nodes) {
      let qname: string | undefined;
      for (const key in node) if (key !== ':@') { qname = key; break; }
      if (qname === undefined || qname === '#text' || qname.startsWith('?') || qname.startsWith('!')) continue;
      const meta = (node as OrderedNode)[META];
      const start = meta?.startIndex ?? -1;
      const end = meta?.endIndex;
      const element = new XmlElement(qname, localName(qname), start, parent, text);
      if (end === undefined) {
        note(start, `the tag <${qname}> is never closed.`);
      } else if (text.charCodeAt(end - 2) !== 0x2f /* not "/>": there is an end tag, just before end */) {
        const close = text.lastIndexOf('</', end - 1);
        if (close > start) {
          const after = text.charCodeAt(close + 2 + qname.length);
          if (!text.startsWith(qname, close + 2) || !(after === 0x3e || after === 0x20 || after === 0x09 || after === 0x0a || after === 0x0d)) {
            note(close, `<${qname}> is closed by ${text.slice(close, text.indexOf('>', close) + 1 || close + 2 + qname.length)}.`);
          }
        }
      }
      if (parent) parent.children.push(element);
      else {
        const stray = firstNonMisc(text, previousEnd, start);
        if (stray !== -1) note(stray, 'there is text outside the root element.');
        previousEnd = end ?? text.length;
        roots.push(element);
      }
      const kids = node[qname];
      if (Array.isArray(kids) && kids.length > 0) stack.push({ nodes: kids as OrderedNode[], parent: element });
    }
  }
  const trailing = firstNonMisc(text, previousEnd, text.length);
  if (trailing !== -1 && roots.length > 0) note(trailing, text.startsWith('</', trailing) ? `the end tag ${text.slice(trailing, text.indexOf('>', trailing) + 1)} has no start tag.` : 'there is text after the root element.');
  return problem ? { roots, problem } : { roots };
}
