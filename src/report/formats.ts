// Every format of a validate report, by name: what the CLI prints and what a Node user can produce the same way.
import type { RuleMeta } from '../rules/types.js';
import { githubLines } from './github.js';
import { jsonDocument } from './json-pieces.js';
import { errorsOnly, type ValidationReport } from './report.js';
import { sarifPieces, type SarifOptions } from './sarif.js';
import { textLines, type TextOptions } from './text.js';
import { unixLines } from './unix.js';

export const REPORT_FORMATS = ['text', 'json', 'sarif', 'unix', 'github'] as const;
export type ReportFormat = (typeof REPORT_FORMATS)[number];

export interface FormatOptions extends TextOptions, SarifOptions {
  /** The rule catalog, for SARIF's rules (ruleCatalog). */
  catalog?: readonly RuleMeta[];
}

/**
 * The report in `format`, in pieces: join them for a string, or write them one by one (a report can outgrow a
 * string). With `quiet`, errors only in every format, the counts those of what is shown.
 */
export function reportPieces(report: ValidationReport, format: ReportFormat, options: FormatOptions = {}): Iterable<string> {
  switch (format) {
    case 'json': return jsonDocument(options.quiet ? errorsOnly(report) : report);
    case 'sarif': return sarifPieces(options.quiet ? errorsOnly(report) : report, options.catalog ?? [], options);
    case 'unix': return unixLines(report, options);
    case 'github': return githubLines(report, options);
    default: return textLines(report, options);
  }
}
