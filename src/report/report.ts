// The report of a validate run: the documented JSON shape (schemas/report.schema.json) that every format starts from.
import type { LocatedFinding, TicketReport } from '../ticket/validate.js';
import { countFindings, type Counts } from './check-text.js';
import { errorFindings } from './quiet.js';

export interface FileReport extends TicketReport {
  /** The path as given, or "-" for standard input. */
  path: string;
  documentUri?: string;
  /** In a package (MIME or zip): the part this ticket report is for (Content-ID or entry name); absent on the package's own report. */
  part?: string;
  /** On a package's own report: its kind and parts. */
  package?: { kind: 'mime' | 'zip'; parts: Array<{ name: string; contentId?: string; location?: string; contentType?: string; size: number; sniffed?: string; ticket: boolean; root?: boolean }> };
}

export interface ValidationReport {
  tool: { name: 'jdf-filespec'; version: string };
  files: FileReport[];
  /** `suppressed`: findings a directive in the ticket silences (listed under `suppressed`, not counted as findings). */
  summary: Counts & { files: number; references: number; suppressed: number };
}

export function* allFindings(file: TicketReport): Iterable<LocatedFinding> {
  yield* file.findings;
  for (const r of file.references) yield* r.findings;
}

export function buildReport(files: FileReport[], version: string): ValidationReport {
  const counts: Counts = { error: 0, warning: 0, info: 0 };
  let references = 0;
  let suppressed = 0;
  for (const f of files) {
    suppressed += f.suppressed?.length ?? 0;
    for (const r of f.references) suppressed += r.suppressed?.length ?? 0;
    const c = countFindings(allFindings(f));
    counts.error += c.error;
    counts.warning += c.warning;
    counts.info += c.info;
    references += f.references.length;
  }
  return { tool: { name: 'jdf-filespec', version }, files, summary: { files: files.length, references, ...counts, suppressed } };
}

/**
 * The report as --quiet shows it, in every format: errors only (ESLint's getErrorResults), warnings and infos
 * dropped from each file and reference, and the summary counting what is left. Every file and reference stays.
 */
export function errorsOnly(report: ValidationReport): ValidationReport {
  const files = report.files.map((file) => ({ ...file, findings: errorFindings(file.findings), references: file.references.map((r) => ({ ...r, findings: errorFindings(r.findings) })) }));
  return { ...report, files, summary: { ...report.summary, warning: 0, info: 0 } };
}

/** publint's way: the exit code is a small pure function of the findings. */
export function exitCodeOf(report: ValidationReport): 0 | 1 {
  return report.summary.error > 0 ? 1 : 0;
}
