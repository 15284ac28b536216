// One file's part of a validate report, in its format, made where the file was checked (in a worker thread too):
// the text that the CLI's report writers (json-stream.ts, sarif-stream.ts, lines-stream.ts, text-stream.ts) put
// between the report's head and its end, the same text the whole report's format writes for that file. Text
// crosses between threads as cheaply as a copy of its bytes; a report's objects are cloned one by one.
import type { TicketReference } from '../ticket/validate.js';
import { jsonPieces } from './json-pieces.js';
import { errorFindings, shownFindings } from './quiet.js';
import type { FileReport } from './report.js';
import { SarifFileResults } from './sarif.js';
import { fileTextLines } from './text.js';
import { githubLine } from './github.js';
import { sortedFindings, unixLine } from './unix.js';

/** What a file's text depends on besides the file: the format and its options (what can be sent to a worker). */
export interface FileFormat {
  format: 'json' | 'sarif' | 'unix' | 'github' | 'text';
  quiet: boolean;
  /** text: every reference listed; severities in colour. */
  references?: boolean;
  color?: boolean;
  /** sarif: the working folder's file: URI (SarifOptions.srcRoot). */
  srcRoot?: string;
}

/** What the summary counts of a file (buildReport's counts, --quiet's not applied). */
export interface FileCounts {
  references: number;
  error: number;
  warning: number;
  info: number;
  suppressed: number;
}

export interface FormattedFile {
  path: string;
  /** On a file that is neither a package nor a part of one: its not-a-ticket finding's message (foundTicketsOnly). */
  notTicket?: string;
  counts: FileCounts;
  /** How many findings it shows (lines of unix and github; results of SARIF). */
  shown: number;
  /** Its text, in blocks of about a million characters. */
  text: string[];
}

/** The places in a run's report where a file's parts are: JSON's file, SARIF's result. */
export const JSON_FILE_INDENT = '    ';
export const SARIF_RESULT_INDENT = '        ';

/** No rule indexes: JSON, unix and GitHub lines cite no rule by index (SARIF does). */
const NO_RULE_INDEXES: ReadonlyMap<string, number> = new Map();

/**
 * A file's text in `spec`'s format: JSON, the file's object (after its separator, at its indent); SARIF, its
 * results, each after ",\n" and its indent (`ruleIndexes` of the catalog for their ruleIndex); unix and GitHub,
 * its lines; text, its lines.
 */
export function formatFile(file: FileReport, spec: FileFormat, ruleIndexes: ReadonlyMap<string, number> = NO_RULE_INDEXES): FormattedFile {
  let shown = 0;
  const counted = (pieces: Iterable<string>) => (function* () {
    for (const piece of pieces) {
      shown++;
      yield piece;
    }
  })();
  let pieces: Iterable<string>;
  if (spec.format === 'json') pieces = jsonPieces(spec.quiet ? errorsOnlyFile(file) : file, JSON_FILE_INDENT);
  else if (spec.format === 'sarif') pieces = counted(sarifResults(file, spec, ruleIndexes));
  else if (spec.format === 'text') pieces = textPieces(spec.quiet ? errorsOnlyFile(file) : file, spec);
  else pieces = counted(sortedFindings(file, spec.quiet).map(({ f, ref }) => (spec.format === 'unix' ? unixLine(file, f) : githubLine(file, f, ref))));
  const text = blocks(pieces);
  const notTicket = file.part === undefined && file.package === undefined ? file.findings.find((f) => f.code === 'not-a-ticket')?.message : undefined;
  return { path: file.path, ...(notTicket !== undefined ? { notTicket } : {}), counts: fileCounts(file), shown, text };
}

/** A file's SARIF results in sarifPieces' order, each after ",\n" and its indent. */
function* sarifResults(file: FileReport, spec: FileFormat, ruleIndexes: ReadonlyMap<string, number>): Generator<string> {
  const made = new SarifFileResults(file, ruleIndexes, spec.srcRoot);
  const piece = (result: unknown) => `,\n${SARIF_RESULT_INDENT}${[...jsonPieces(result, SARIF_RESULT_INDENT)].join('')}`;
  for (const f of shownFindings(file.findings, spec.quiet)) yield piece(made.result(f));
  for (const ref of file.references) for (const f of shownFindings(ref.findings, spec.quiet)) yield piece(made.result(f, ref));
  for (const f of file.suppressed ?? []) yield piece(made.silenced(f));
  for (const ref of file.references) for (const f of ref.suppressed ?? []) yield piece(made.silenced(f, ref));
}

function* textPieces(file: FileReport, spec: FileFormat): Generator<string> {
  const lines: string[] = [];
  yield* fileTextLines(file, spec, lines);
  yield lines.join('');
}

/** Pieces joined into blocks of about a million characters (a big report's text is more than one string holds). */
function blocks(pieces: Iterable<string>): string[] {
  const out: string[] = [];
  let block: string[] = [];
  let size = 0;
  for (const piece of pieces) {
    block.push(piece);
    size += piece.length;
    if (size < 1 << 20) continue;
    out.push(block.join(''));
    block = [];
    size = 0;
  }
  if (size > 0) out.push(block.join(''));
  return out;
}

function fileCounts(file: FileReport): FileCounts {
  const counts: FileCounts = { references: file.references.length, error: 0, warning: 0, info: 0, suppressed: file.suppressed?.length ?? 0 };
  for (const f of file.findings) counts[f.severity]++;
  for (const r of file.references) {
    for (const f of r.findings) counts[f.severity]++;
    counts.suppressed += r.suppressed?.length ?? 0;
  }
  return counts;
}

export const errorsOnlyReference = (ref: TicketReference): TicketReference => ({ ...ref, findings: errorFindings(ref.findings) });
/** errorsOnly (report.ts) for one file. */
const errorsOnlyFile = (file: FileReport): FileReport => ({ ...file, findings: errorFindings(file.findings), references: file.references.map(errorsOnlyReference) });
