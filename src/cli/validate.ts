import { readFileSync } from 'node:fs';
import { expandPaths, readTicket } from '../node/files.js';
import { buildReport, exitCodeOf, type FileReport } from '../report/report.js';
import { formatSarif } from '../report/sarif.js';
import { formatText } from '../report/text.js';
import { ruleCatalog } from '../rules/catalog.js';
import { oversizeReport, validateTicket, type ValidateOptions } from '../ticket/validate.js';

export interface ValidateRun {
  paths: string[];
  format: 'text' | 'json' | 'sarif';
  quiet: boolean;
  references: boolean;
  maxBytes: number;
  exitZero: boolean;
  options: ValidateOptions;
}

export function packageVersion(): string {
  try {
    return JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')).version as string;
  } catch {
    return '0.0.0';
  }
}

/** Reads the tickets, validates each, prints the report; returns the exit code (2 when a path could not be read). */
export async function runValidate(run: ValidateRun): Promise<number> {
  const { sources, unreadable } = await expandPaths(run.paths);
  const files: FileReport[] = [];
  for (const source of sources) {
    const read = await readTicket(source, run.maxBytes);
    if ('error' in read) {
      unreadable.push({ path: source.path, reason: read.error });
      continue;
    }
    const options: ValidateOptions = { ...run.options, maxBytes: run.maxBytes, ...(source.documentUri ? { documentUri: source.documentUri } : {}) };
    const ticket = 'tooLarge' in read ? oversizeReport(read.tooLarge, run.maxBytes, run.options.profile) : validateTicket(read.bytes, options);
    files.push({ path: source.path, ...(source.documentUri ? { documentUri: source.documentUri } : {}), ...ticket });
  }
  const report = buildReport(files, packageVersion());
  const output = run.format === 'json' ? JSON.stringify(report, null, 2) + '\n' : run.format === 'sarif' ? formatSarif(report, ruleCatalog) : formatText(report, { quiet: run.quiet, references: run.references });
  process.stdout.write(output);
  for (const u of unreadable) process.stderr.write(`jdf-filespec: cannot read ${u.path}: ${u.reason}\n`);
  if (unreadable.length > 0) return 2;
  return run.exitZero ? 0 : exitCodeOf(report);
}
