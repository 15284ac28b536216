// Reading a ticket's XML: the only door into this folder.
//
// fast-xml-parser is the parser: what it accepts is what we read, and its validator finds what is not
// well-formed. The element tree (the order of elements and the offset of each start tag) is built by our scan
// of the tags, which reads them as the parser does; whatever the scan does not expect, by the parser
// (captureMetaData), whose validator then finds the problem. What the parser does not give, we read from the
// text ourselves, and only that:
// - the DOCTYPE (doctype.ts): what a DTD-aware consumer would take from it, then blanked to spaces, so that the
//   parser never declares, expands or fetches anything (processEntities is off as well);
// - the structure the parser lets through (tree.ts): an end tag that does not match, text outside the root;
// - attributes (attributes.ts, elements.ts): read from the start tag with their exact place, decoded as XML 1.0
//   3.3.3 says, with their problems (the parser gives no attribute offsets, and decodes entities its own way);
// - the element tree (scan.ts): each element added as its start tag is met, so the parser's output for the
//   whole document (five times the text) never exists;
// - the words for what the validator rejects (not-well-formed.ts): its messages mapped to ours, with our place;
// - markup (markup-scan.ts): what the parser accepts and XML does not, in every tag, value and text, one scan of
//   the whole text.
// All of them step over tags, PIs and quoted values as lex.ts does, which is as the parser does.
//
// The contract: every offset is a UTF-16 index into the text readXml returns, which is the text given with its
// DOCTYPE blanked (same length, same line breaks); nothing here throws on any input, and nothing here reports:
// problems come back as data ({ code, offset, args }) for src/ticket to place and word.
import { XMLValidator } from 'fast-xml-parser';
import { readDoctype, type Doctype } from './doctype.js';
import type { ElementTree } from './elements.js';
import { MAX_DEPTH } from './scan.js';
import { wordValidatorError } from './not-well-formed.js';
import { buildTree, firstNonMisc, TooDeepError, type StructureProblem } from './tree.js';

export type { Attribute } from './attributes.js';
export { decodeAttributeValue, localName } from './attributes.js';
export type { Doctype } from './doctype.js';
export { NONE, type ElementTree } from './elements.js';
export { scanMarkup } from './markup-scan.js';
export { buildByScan } from './tree.js';

/** Why a text is not an XML document we can read: xml-empty, xml-malformed or xml-too-deep. */
export interface XmlFailure {
  code: 'xml-empty' | 'xml-malformed' | 'xml-too-deep';
  /** An offset in the text, or the line and column fast-xml-parser's validator counted. */
  at: number | { line: number; column: number };
  args: Record<string, string | number>;
}

export interface XmlReading {
  /** The text with its DOCTYPE blanked: what every offset is into. */
  text: string;
  doctype: Doctype | null;
  /** The element tree, with at least one root; absent when the text is not a document (then `failure` says why). */
  tree?: ElementTree;
  failure?: XmlFailure;
}

export interface XmlOptions {
  /** Run fast-xml-parser's full validator first (ValidateOptions.strictXml). */
  strictXml?: boolean | undefined;
  /** Texts longer than this have their tree built by the scan (ValidateOptions.chunkChars). */
  chunkChars?: number | undefined;
}

/** Reads `text` as an XML document: its DOCTYPE, then its element tree with its structure checked. */
export function readXml(text: string, options: XmlOptions): XmlReading {
  if (text.trim() === '') return { text, doctype: null, failure: { code: 'xml-empty', at: 0, args: {} } };
  const doctype = readDoctype(text);
  const blanked = doctype ? doctype.text : text;
  const structure = structureOf(blanked, options);
  return { text: blanked, doctype, ...structure };
}

/** The validator counts only "\n" as a line end: give it a copy where CR and CRLF end lines the same way (same length). */
function forValidator(text: string): string {
  return text.indexOf('\r') === -1 ? text : text.replace(/\r\n?/g, (m) => (m.length === 2 ? ' \n' : '\n'));
}

function structureOf(text: string, options: XmlOptions): { tree?: ElementTree; failure?: XmlFailure } {
  // The full validator is a second pass over the text; by default it runs only to word a problem the tree
  // builder found (strictXml runs it first, and then what it rejects stops the reading). Its errors are put in
  // our words (not-well-formed.ts).
  const runValidator = () => XMLValidator.validate(forValidator(text), { allowBooleanAttributes: false });
  const malformed = (fallback?: StructureProblem, verdict = runValidator()): { failure?: XmlFailure } => {
    if (verdict !== true) {
      const { reason, at, detail } = wordValidatorError(text, verdict.err);
      return { failure: { code: 'xml-malformed', at, args: { detail, reason } } };
    }
    if (fallback) return { failure: { code: 'xml-malformed', at: fallback.offset, args: { detail: fallback.detail.charAt(0).toUpperCase() + fallback.detail.slice(1), reason: fallback.reason } } };
    return {};
  };
  if (options.strictXml) {
    const verdict = runValidator();
    if (verdict !== true) return malformed(undefined, verdict);
  }
  let tree: ElementTree;
  try {
    const built = buildTree(text, options.chunkChars);
    if (built.problem) return malformed(built.problem);
    tree = built.elements;
  } catch (error) {
    if (error instanceof TooDeepError) return { failure: { code: 'xml-too-deep', at: 0, args: { limit: MAX_DEPTH } } };
    return malformed({ reason: 'other', offset: 0, detail: `${error instanceof Error ? error.message : String(error)}.` });
  }
  if (tree.roots.length === 0) {
    const stray = firstNonMisc(text, 0, text.length);
    if (stray === -1) return { failure: { code: 'xml-empty', at: 0, args: {} } };
    return malformed({ reason: 'no-root', offset: stray, detail: 'there is no root element, only text.' });
  }
  return { tree };
}
