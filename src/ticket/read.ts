// Step 1 of validateTicket: bytes to text, text to the element tree, and the findings about the file itself.
// A ticket that cannot be read (bytes in no known encoding, no XML, malformed XML) stops here.
import { XMLValidator } from 'fast-xml-parser';
import type { Profile } from '../rules/types.js';
import { decodeTicket } from './decode.js';
import { readDoctype } from './doctype.js';
import type { ElementTree } from './elements.js';
import { FileFindings } from './finding.js';
import { scanMarkup } from './markup-scan.js';
import { LineIndex } from './positions.js';
import { MAX_DEPTH } from './runs.js';
import { buildTree, firstNonMisc, TooDeepError } from './tree.js';
import type { TicketReport, ValidateOptions } from './validate.js';
import { DOCTYPE_RULES, DOCUMENT_RULES } from './ticket-rules.js';

/** A ticket read: what the walk needs, and the report its findings go into. */
export interface TicketDocument {
  /** The decoded text, its DOCTYPE blanked (line breaks kept, so every offset and position stays). */
  text: string;
  lines: LineIndex;
  tree: ElementTree;
  /** The first root element (a second one is a finding). */
  root: number;
  /** JDF/@Version (or 2.0 for XJDF), or the caller's. */
  version: string | undefined;
  /** The charset of percent-escaped octets: the declared one (appendix section 3); UTF-16 tickets escape UTF-8. */
  urlCharset: string;
  profile: Profile;
  findings: FileFindings;
  report: TicketReport;
}

/** What ticket rules see of a document. */
export type TicketView = Pick<TicketDocument, 'text' | 'lines' | 'tree' | 'root'>;

/** Reads the ticket: the report begun, and the document unless it cannot be read (the report then says why). */
export function readTicket(input: string | Uint8Array, options: ValidateOptions, profile: Profile): { report: TicketReport; doc?: TicketDocument } {
  const decoded = decodeTicket(input);
  let text = decoded.text;
  const lines = new LineIndex(text);
  const report: TicketReport = { encoding: decoded.charset.toUpperCase(), references: [], findings: [] };
  const findings = new FileFindings(report.findings, profile, lines);

  for (const p of decoded.problems) findings.add(p.code, p.offset, p.args);
  if (decoded.problems.some((p) => p.code !== 'encoding-mismatch')) return { report };
  if (text.trim() === '') {
    findings.add('xml-empty', 0);
    return { report };
  }

  const doctype = readDoctype(text);
  if (doctype) {
    text = doctype.text;
    for (const rule of DOCTYPE_RULES) rule.checkDoctype(doctype, (r) => findings.add(rule.meta.code, r.offset, r.args));
  }

  const tree = structureOf(text, options, findings);
  if (tree === undefined) return { report };
  const root = tree.roots[0]!;
  const rootName = tree.local(root);
  for (const rule of DOCUMENT_RULES) rule.checkDocument({ text, lines, tree, root }, (r) => findings.add(rule.meta.code, r.offset, r.args));
  report.root = rootName;
  // What the parser accepts and XML does not, in the prolog, comments, PIs and text (whole or in runs alike).
  for (const p of scanMarkup(text)) findings.add(p.code, p.offset, p.args);
  const version = options.jdfVersion ?? (rootName.startsWith('X') ? '2.0' : tree.attribute(root, 'Version')?.value);
  if (version !== undefined) report.jdfVersion = version;
  const urlCharset = decoded.charset.startsWith('utf-16') ? 'utf-8' : decoded.charset;
  return { report, doc: { text, lines, tree, root, version, urlCharset, profile, findings, report } };
}

/** The validator counts only "\n" as a line end: give it a copy where CR and CRLF end lines the same way (same length). */
function forValidator(text: string): string {
  return text.indexOf('\r') === -1 ? text : text.replace(/\r\n?/g, (m) => (m.length === 2 ? ' \n' : '\n'));
}

/**
 * The element tree, with at least one root; undefined when the text is not well-formed XML (an xml-malformed,
 * xml-too-deep or xml-empty finding says why).
 */
function structureOf(text: string, options: ValidateOptions, findings: FileFindings): ElementTree | undefined {
  // The full validator is a second pass over the text; by default it runs only to word a problem the tree
  // builder found (strictXml runs it first, and then it also checks attributes of elements we do not read).
  const runValidator = () => XMLValidator.validate(forValidator(text), { allowBooleanAttributes: false });
  const malformed = (fallback?: { offset: number; detail: string }, verdict = runValidator()): undefined => {
    if (verdict !== true) {
      findings.addAt('xml-malformed', { line: verdict.err.line ?? 1, column: verdict.err.col ?? 1 }, { detail: verdict.err.msg.replace(/\.?$/, '.') });
    } else if (fallback) {
      findings.add('xml-malformed', fallback.offset, { detail: fallback.detail.charAt(0).toUpperCase() + fallback.detail.slice(1) });
    }
    return undefined;
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
    if (error instanceof TooDeepError) findings.add('xml-too-deep', 0, { limit: MAX_DEPTH });
    else malformed({ offset: 0, detail: `${error instanceof Error ? error.message : String(error)}.` });
    return undefined;
  }
  if (tree.roots.length === 0) {
    const stray = firstNonMisc(text, 0, text.length);
    if (stray === -1) findings.add('xml-empty', 0);
    else malformed({ offset: stray, detail: 'there is no root element, only text.' });
    return undefined;
  }
  return tree;
}
