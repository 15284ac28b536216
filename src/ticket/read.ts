// Step 1 of validateTicket: bytes to text, text to the element tree, and the findings about the file itself.
// A ticket that cannot be read (bytes in no known encoding, no XML, malformed XML) stops here.
import type { Profile } from '../rules/types.js';
import { decodeTicket } from './decode.js';
import { FileFindings } from './finding.js';
import { LineIndex } from './positions.js';
import type { TicketLayer } from '../rules/ticket-view.js';
import { DOCTYPE_RULES, DOCUMENT_RULES, ticketLayer } from './ticket-rules.js';
import { vendorRows } from './vendor.js';
import { vocabularyWith, type Vocabulary } from './vocabulary.js';
import type { LocatedFinding, TicketReport, ValidateOptions } from './validate.js';
import { readXml, scanMarkup, type ElementTree } from './xml/index.js';

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
  /** Which attributes of which elements hold URLs: the schemas' table and the caller's rows. */
  vocabulary: Vocabulary;
  /** What the ticket rules ask of this layer. */
  layer: TicketLayer;
  findings: FileFindings;
  report: TicketReport;
  /** Where the markup scan's findings go among the report's (after the reading's). */
  markupAt: number;
  /** "offset code" of each XML problem in a value the walk reported (noteReportedInValue). */
  reportedInValues: Set<string>;
}

/** Reads the ticket: the report begun, and the document unless it cannot be read (the report then says why). */
export function readTicket(input: string | Uint8Array, options: ValidateOptions, profile: Profile): { report: TicketReport; doc?: TicketDocument } {
  const decoded = decodeTicket(input);
  const lines = new LineIndex(decoded.text);
  const report: TicketReport = { encoding: decoded.charset.toUpperCase(), references: [], findings: [] };
  const findings = new FileFindings(report.findings, profile, lines);

  for (const p of decoded.problems) findings.add(p.code, p.offset, p.args);
  const declared = decoded.declaration?.problem;
  if (declared) {
    const { kind, offset, ...args } = declared;
    findings.add('xml-declaration', offset, { problem: kind, ...args });
  }
  if (decoded.problems.some((p) => p.code !== 'encoding-mismatch')) return { report };
  const xml = readXml(decoded.text, options);
  const text = xml.text;
  // The DOCTYPE's defaults matter for every attribute the ticket is read for, the caller's (urlAttributes) too.
  const vendors = options.vocabularies !== undefined && options.vocabularies.length > 0 ? vendorRows(options.vocabularies, text) : [];
  const vocabulary = vocabularyWith(vendors.length > 0 ? [...(options.urlAttributes ?? []), ...vendors] : options.urlAttributes);
  const layer = ticketLayer(vocabulary);
  if (xml.doctype) for (const rule of DOCTYPE_RULES) rule.checkDoctype(xml.doctype, layer, (r) => findings.add(rule.meta.code, r.offset, r.args));
  const tree = xml.tree;
  if (tree === undefined) {
    const failure = xml.failure;
    if (failure) {
      if (typeof failure.at === 'number') findings.add(failure.code, failure.at, failure.args);
      else findings.addAt(failure.code, failure.at, failure.args);
    }
    return { report };
  }
  const root = tree.roots[0]!;
  const rootName = tree.local(root);
  for (const rule of DOCUMENT_RULES) rule.checkDocument({ text, lines, tree, root, layer }, (r) => findings.add(rule.meta.code, r.offset, r.args));
  report.root = rootName;
  const version = options.jdfVersion ?? (rootName.startsWith('X') ? '2.0' : tree.attribute(root, 'Version')?.value);
  if (version !== undefined) report.jdfVersion = version;
  const urlCharset = decoded.charset.startsWith('utf-16') ? 'utf-8' : decoded.charset;
  const markupAt = report.findings.length;
  return { report, doc: { text, lines, tree, root, version, urlCharset, profile, vocabulary, layer, findings, report, markupAt, reportedInValues: new Set() } };
}

/** Notes the XML problems of a value the walk reported (with its reference, or as an rRef's), so that the markup scan does not report them again. */
export function noteReportedInValue(doc: TicketDocument, problems: ReadonlyArray<{ code: string; offset: number }>): void {
  for (const p of problems) doc.reportedInValues.add(`${p.offset} ${p.code}`);
}

/**
 * The last step: what the parser accepts and XML does not, in the whole text (whole or in runs alike), in the
 * prolog, comments, PIs, text and every tag. Its findings stand where the reading's end (before the walk's), and
 * leave out the problems of values the walk reported with their references.
 */
export function reportMarkup(doc: TicketDocument): void {
  const found = scanMarkup(doc.text, (code, offset) => doc.reportedInValues.has(`${offset} ${code}`));
  if (found.length === 0) return;
  const own: LocatedFinding[] = [];
  const into = new FileFindings(own, doc.profile, doc.lines);
  for (const p of found) into.add(p.code, p.offset, p.args);
  doc.report.findings.splice(doc.markupAt, 0, ...own);
}
