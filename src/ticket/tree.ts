// The element tree of a ticket with the offset of every start tag, built from fast-xml-parser's ordered output.
import { XMLParser } from 'fast-xml-parser';
import { localName, scanStartTag, type StartTag } from './attributes.js';

export class XmlElement {
  readonly children: XmlElement[] = [];
  private tag: StartTag | undefined;

  constructor(
    readonly qname: string,
    readonly local: string,
    /** Offset of "<" in the text. */
    readonly start: number,
    readonly parent: XmlElement | undefined,
    private readonly text: string,
  ) {}

  /** The start tag's attributes, read from the text the first time they are asked for. */
  get attributes(): StartTag['attributes'] {
    this.tag ??= scanStartTag(this.text, this.start);
    return this.tag.attributes;
  }

  attribute(local: string) {
    return this.attributes.find((a) => localName(a.name) === local && !a.name.startsWith('xmlns'));
  }
}

const META: unique symbol = XMLParser.getMetaDataSymbol() as never;

/** Deeper trees are reported (xml-too-deep), not parsed: the parser recurses, and no ticket nests this deep. */
export const MAX_DEPTH = 2000;

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
  });
  return parser;
}

type OrderedNode = Record<string, unknown> & { [META]?: { startIndex: number } };

/** Parses `text` (well-formed already: the validator ran) into top-level elements. Iterative, so deep nesting cannot overflow the stack. */
export function buildTree(text: string): XmlElement[] {
  let ordered: OrderedNode[];
  try {
    ordered = getParser().parse(text) as OrderedNode[];
  } catch (error) {
    if (error instanceof RangeError || (error instanceof Error && /nested tags/i.test(error.message))) throw new TooDeepError();
    throw error;
  }
  const roots: XmlElement[] = [];
  const stack: Array<{ nodes: OrderedNode[]; parent: XmlElement | undefined }> = [{ nodes: ordered, parent: undefined }];
  while (stack.length > 0) {
    const { nodes, parent } = stack.pop()!;
    for (const node of nodes) {
      let qname: string | undefined;
      for (const key in node) if (key !== ':@') { qname = key; break; }
      if (qname === undefined || qname === '#text' || qname.startsWith('?') || qname.startsWith('!')) continue;
      const start = (node as OrderedNode)[META]?.startIndex ?? -1;
      const element = new XmlElement(qname, localName(qname), start, parent, text);
      (parent ? parent.children : roots).push(element);
      const kids = node[qname];
      if (Array.isArray(kids) && kids.length > 0) stack.push({ nodes: kids as OrderedNode[], parent: element });
    }
  }
  return roots;
}
