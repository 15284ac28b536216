// jdf-filespec check: URLs from the command line or a file, checked one by one.
import { readFileSync } from 'node:fs';
import { checkUrl, type CheckResult } from '../check.js';
import { formatCheckText } from '../report/check-text.js';
import { jsonDocument } from '../report/json-pieces.js';
import { errorFindings } from '../report/quiet.js';
import { writePieces } from '../node/output.js';
import type { CheckOptions } from '../rules/types.js';
import { EXIT, UsageError } from './define.js';

export interface CheckRun {
  urls: string[];
  /** One URL per line. */
  file?: string;
  format: 'text' | 'json';
  quiet: boolean;
  exitZero: boolean;
  options: CheckOptions;
}

function readUrlList(file: string): string[] {
  // One URL per line; lines that start with "# " are comments. Only the line break is stripped, so a
  // trailing space stays part of the URL (appendix Table 4, example 27).
  return readFileSync(file, 'utf8')
    .split(/\r?\n/)
    .filter((line) => line !== '' && !line.startsWith('# '));
}

export async function runCheck(run: CheckRun): Promise<number> {
  const urls = [...run.urls, ...(run.file !== undefined ? readUrlList(run.file) : [])];
  if (urls.length === 0) throw new UsageError('Give at least one URL, or --file.');
  const results: CheckResult[] = urls.map((u) => checkUrl(u, run.options));
  // --quiet: errors only, in either format.
  const shown = run.quiet ? results.map((r) => ({ ...r, findings: errorFindings(r.findings) })) : results;
  await writePieces(process.stdout, run.format === 'json' ? jsonDocument(shown) : [formatCheckText(results, { quiet: run.quiet })]);
  const anyError = results.some((r) => r.findings.some((f) => f.severity === 'error'));
  return anyError && !run.exitZero ? EXIT.findings : EXIT.clean;
}
