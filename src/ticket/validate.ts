import type { Locality } from '../fileurl/locality.js';
import { resolveReference } from '../uri/resolve.js';
import { DEFAULT_MAX_BYTES, type Finding, type Platform, type Profile, type ReferenceKind, type Role } from '../rules/types.js';
import type { MappedBy } from '../views/types.js';
import { ElementPaths } from './element-paths.js';
import type { FileSpecFacts } from './filespec-facts.js';
import { makeFinding } from './finding.js';
import { readTicket, reportMarkup } from './read.js';
import { ReferenceQueue } from './reference-queue.js';
import { ReferenceRecorder, type Base } from './reference.js';
import { ResourceIndex } from './resources.js';
import type { RuleSettings } from '../rules/settings.js';
import type { BaseSource } from '../rules/ticket-view.js';
import { readChoices, settleFileFindings, silenceFindings, type SuppressedFinding } from './silence.js';
import { WALKED_RULES } from './ticket-rules.js';
import type { VocabularyRow } from './vocabulary.js';
import { Walk } from './walk.js';

export type { BaseSource };

export interface LocatedFinding extends Finding {
  line: number;
  column: number;
}

export interface TicketReference {
  /** XPath-like path of the element that holds the attribute. */
  element: string;
  attribute: string;
  /** `identifier`: a URI that names nothing to open (DevNS), checked as an absolute URI only. */
  role: Role | 'identifier';
  /** The attribute value after XML decoding (a password masked). */
  value: string;
  /** Where the value starts in the file (1-based). */
  line: number;
  column: number;
  /** Where the value ends: line and column just past its last character. */
  endLine: number;
  endColumn: number;
  /** Character offsets of the value in the decoded text, [start, end). */
  span: [number, number];
  base: string | null;
  baseSource: BaseSource;
  /** The path of the rRef element through which this use was reached, if any. */
  via?: string;
  kind: ReferenceKind;
  scheme?: string;
  resolved: string | null;
  local: Locality;
  findings: LocatedFinding[];
  /** The value with every safe fix applied, when one exists and `fix` writes it (src/ticket/fix-decision.ts). */
  fixed?: string;
  /** The value with every fix applied, which `fix` does not write, and why (instead of `fixed`). */
  fixRefused?: { fixed: string; reason: string };
  /** Findings of this value that a directive in the ticket silences: counted, not shown (README, "Rules on, off, or at another severity"). */
  suppressed?: SuppressedFinding[];
  /** With a view table: which view and entry it fell under, and the local path it was looked for at. */
  mappedBy?: MappedBy;
  /** In a job package: the part it names (a cid: URL's Content-ID, or a part's location or zip entry name). */
  packagePart?: PackagePartRef;
  /** What the FileSpec declares about its file (FileSize, CheckSum, MimeType), for --check-exists to compare. */
  fileSpec?: FileSpecFacts;
}

/** The part of a job package a reference names: its name as the package report gives it, and its Content-ID. */
export interface PackagePartRef {
  /** Content-ID in angle brackets, else Content-Location, file name or "part N"; a zip entry's name. */
  name: string;
  /** The part's Content-ID without angle brackets (MIME), when it has one. */
  contentId?: string;
}

export interface TicketReport {
  /** The charset the ticket was read in. */
  encoding: string;
  root?: string;
  /** JDF/@Version (or 2.0 for XJDF), which decides the raw non-ASCII rule. */
  jdfVersion?: string;
  references: TicketReference[];
  /** Findings about the file itself (XML, encoding, rRefs). */
  findings: LocatedFinding[];
  /** Findings about the file itself that a directive in the ticket silences: counted, not shown. */
  suppressed?: SuppressedFinding[];
}

export interface ValidateOptions {
  /** The ticket's own URI (file:///pub/hot-folder/ticket.jdf): its folder is the base when there is no Directory. */
  documentUri?: string;
  /** Overrides the ticket's folder as the base. */
  base?: string;
  profile?: Profile;
  platform?: Platform;
  drivePreserving?: boolean;
  localHosts?: readonly string[];
  /** Larger inputs are not read (a finding instead). Default DEFAULT_MAX_BYTES, 256 MiB (src/rules/types.ts). */
  maxBytes?: number;
  /**
   * Run fast-xml-parser's full validator before anything else. Without it, the markup is still checked (tags
   * closed by their own end tags, nothing outside the root, no forbidden characters, the names and attributes
   * of every tag, references in text and values), in the pass that builds the tree and one scan of the text;
   * with it, what the validator rejects is one xml-malformed finding and no reference is read.
   */
  strictXml?: boolean;
  /** Overrides the ticket's JDF/@Version for the raw non-ASCII rule. */
  jdfVersion?: string;
  /**
   * Tickets longer than this many characters have their element tree built by our own scan of the tags, which
   * reads them as fast-xml-parser does and keeps no parser output; shorter ones, and whatever the scan does not
   * expect, are parsed whole by fast-xml-parser. Default 0 (every ticket is scanned); Infinity always parses.
   * The report is the same either way. (The name is from when big tickets were parsed in runs of siblings.)
   */
  chunkChars?: number;
  /** Attributes to read beyond the schemas' (`--url-attribute`), such as a vendor's hot folder. */
  urlAttributes?: readonly VocabularyRow[];
  /**
   * Vendor vocabularies to read as well, by name (VENDOR_VOCABULARIES: `heidelberg`, `kodak`; see
   * data/vendor-vocabularies.json): their attributes matched by namespace URI. Unknown names read nothing
   * (unknownVocabulary says why).
   */
  vocabularies?: readonly string[];
  /**
   * Each rule named at another severity, or `off` (not reported, and its fix not applied); the others keep the
   * catalog's. The config's `rules` and `--rule CODE:SETTING`. Codes are not checked here (unknownRule does).
   */
  rules?: RuleSettings;
  /** Report each disabling directive in the ticket that silences nothing (unused-disable-directive). */
  reportUnusedDisableDirectives?: boolean;
}

/** The report for a ticket that was not read because it is larger than maxBytes. */
export function oversizeReport(size: number, maxBytes: number, profile: Profile = 'jdf'): TicketReport {
  return { encoding: 'unknown', references: [], findings: [makeFinding('file-too-large', profile, { size, limit: maxBytes }, { line: 1, column: 1 })] };
}

/** What validateTicketStream hands over last: the report without its references and findings, and how many there were. */
export interface TicketSummary {
  /** The charset the ticket was read in. */
  encoding: string;
  root?: string;
  jdfVersion?: string;
  /** Findings about the file itself that a directive in the ticket silences: counted, not shown. */
  suppressed?: SuppressedFinding[];
  /** How many references and file-level findings were handed over. */
  references: number;
  findings: number;
}

/** What validateTicketStream calls, in this order: start, each reference, each finding about the file itself, the end. */
export interface TicketVisitor {
  /** The ticket is read (in `encoding`): first of all, before any reference. */
  start?(head: { encoding: string }): void;
  /** A reference, settled, as the walk reaches it (in the order of TicketReport's references): the visitor's to keep or drop. */
  reference(ref: TicketReference): void;
  /** A finding about the file itself (TicketReport's findings, in their order), once every reference is handed over. */
  finding(finding: LocatedFinding): void;
  end(summary: TicketSummary): void;
}

/**
 * validateTicket, handed over as it goes: each reference once nothing later in the walk can change it, then the
 * findings about the file, then the summary. It keeps nothing of the report itself (only the text, the element
 * tree and the resource index the walk needs), so a ticket of a million references is checked in bounded memory
 * when the visitor drops what it is given. Collecting everything gives validateTicket's report. Never throws
 * (but passes on what the visitor throws).
 */
export function validateTicketStream(input: string | Uint8Array, options: ValidateOptions, visitor: TicketVisitor): void {
  let references = 0;
  const report = walkTicket(input, options, (ref) => {
    references++;
    visitor.reference(ref);
  }, visitor.start?.bind(visitor));
  for (const f of report.findings) visitor.finding(f);
  const summary: TicketSummary = { encoding: report.encoding, references, findings: report.findings.length };
  if (report.root !== undefined) summary.root = report.root;
  if (report.jdfVersion !== undefined) summary.jdfVersion = report.jdfVersion;
  if (report.suppressed !== undefined) summary.suppressed = report.suppressed;
  visitor.end(summary);
}

/**
 * Finds every file reference in a JDF, XJDF or JMF ticket, resolves each against its real base (the
 * RunList/@Directory that applies, the container, or the ticket's folder), checks it, and reports where each
 * problem is. Never throws: broken input comes back as findings. The same walk as validateTicketStream, every
 * reference kept.
 */
export function validateTicket(input: string | Uint8Array, options: ValidateOptions = {}): TicketReport {
  const references: TicketReference[] = [];
  const report = walkTicket(input, options, (ref) => references.push(ref));
  report.references = references;
  return report;
}

/**
 * The walk of both: the report without its references, each handed to `emit` when settled.
 *
 * The steps: read and decode the document (read.ts), index its resources (resources.ts), walk it from each
 * root with the element paths at hand (walk.ts, element-paths.ts), each reference's findings (reference.ts),
 * each settled and handed over when nothing later can change it (reference-queue.ts); then what only the whole
 * walk tells, and the markup the walk did not read (read.ts, reportMarkup). The ticket rules run at these steps
 * (ticket-rules.ts).
 */
function walkTicket(input: string | Uint8Array, options: ValidateOptions, emit: (ref: TicketReference) => void, start?: (head: { encoding: string }) => void): TicketReport {
  const profile = options.profile ?? 'jdf';
  const size = typeof input === 'string' ? input.length : input.byteLength;
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES;
  if (size > maxBytes) {
    const oversize = oversizeReport(size, maxBytes, profile);
    silenceFindings(undefined, oversize, options.rules, false);
    start?.({ encoding: oversize.encoding });
    return oversize;
  }
  const { report, doc } = readTicket(input, options, profile);
  start?.({ encoding: report.encoding });
  if (doc === undefined) {
    silenceFindings(undefined, report, options.rules, false);
    return report;
  }
  const index = new ResourceIndex(doc.tree);
  const paths = new ElementPaths(doc.tree, (e) => index.idOf(e));
  const reading = readChoices(doc, options.rules, options.reportUnusedDisableDirectives === true);
  const queue = new ReferenceQueue({ text: doc.text, charset: report.encoding, choices: reading?.choices, emit });
  const references = new ReferenceRecorder(doc, options, paths, queue);
  new Walk({ doc, index, paths, references, vocabulary: doc.vocabulary, documentBase: documentBaseOf(options) }).run();
  queue.end();
  for (const rule of WALKED_RULES) rule.checkWalked(doc, queue.xmlCharFindings, (r) => doc.findings.add(rule.meta.code, r.offset, r.args));
  reportMarkup(doc);
  if (reading !== undefined) settleFileFindings(doc, report, reading);
  return report;
}

/** The base of references outside RunList and Preview: the caller's, or the ticket's folder, or none. */
function documentBaseOf(options: ValidateOptions): Base {
  if (options.base !== undefined) return { uri: options.base, source: 'option' };
  // The folder of a document URI, with its trailing "/": "." resolved against it (RFC 3986 5.2).
  if (options.documentUri !== undefined) return { uri: resolveReference('.', options.documentUri), source: 'document' };
  return { uri: null, source: 'none' };
}
