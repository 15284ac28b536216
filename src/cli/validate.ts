import { stat } from 'node:fs/promises';
import { defaultJobs, validateBatch } from '../node/batch.js';
import { expandPaths, type DiscoverOptions } from '../node/discover.js';
import { writePieces } from '../node/output.js';
import type { LocalFileOptions } from '../node/local-files.js';
import { withViews } from './views.js';
import { buildReport, exitCodeOf } from '../report/report.js';
import { jsonDocument } from '../report/json-pieces.js';
import { sarifPieces } from '../report/sarif.js';
import { textLines } from '../report/text.js';
import { ruleCatalog } from '../rules/catalog.js';
import type { ValidateOptions } from '../ticket/validate.js';
import { parseUrlAttribute } from '../ticket/vocabulary.js';
import { packageVersion } from './version.js';
import { unmatched } from './unmatched.js';

export interface ValidateRun {
  paths: string[];
  discovery?: DiscoverOptions;
  /** A folder or pattern without tickets is a usage error (exit 2). */
  errorOnUnmatchedPattern?: boolean;
  format: 'text' | 'json' | 'sarif';
  quiet: boolean;
  references: boolean;
  maxBytes: number;
  exitZero: boolean;
  /** Worker threads; by default one per core for many tickets, none for a few. */
  jobs?: number;
  /** --check-exists, --map, --root. */
  local?: LocalFileOptions;
  options: ValidateOptions;
  /** --config FILE; else jdf-filespec.config.json is looked for upward from the working folder. */
  config?: string;
  /** --url-attribute ELEMENT/@ATTR[=directory], as given. */
  urlAttributes?: string[];
}

/** Reads the tickets, validates each, prints the report; returns the exit code (2 when a path could not be read). */
export async function runValidate(run: ValidateRun): Promise<number> {
  const extra = [];
  for (const text of run.urlAttributes ?? []) {
    const row = parseUrlAttribute(text);
    if (row === undefined) {
      process.stderr.write(`jdf-filespec: --url-attribute takes ELEMENT/@ATTR or ELEMENT/@ATTR=directory (such as Device/@HDM:Hotfolder=directory), not "${text}"\n`);
      return 2;
    }
    extra.push(row);
  }
  if (extra.length > 0) run = { ...run, options: { ...run.options, urlAttributes: extra } };
  if (run.local?.root !== undefined) {
    try {
      if (!(await stat(run.local.root)).isDirectory()) throw new Error('not a folder');
    } catch {
      process.stderr.write(`jdf-filespec: --root ${run.local.root} is not a folder\n`);
      return 2;
    }
  }
  const local = await withViews(run.config, run.local);
  if (local === null) return 2;
  const expanded = await expandPaths(run.paths, run.discovery);
  if (run.errorOnUnmatchedPattern !== false && unmatched(expanded.unmatched)) return 2;
  // A progress line on a terminal only: never in a pipe, never with machine formats.
  const showProgress = process.stderr.isTTY === true && run.format === 'text' && expanded.sources.length >= 20;
  let lastDrawn = 0;
  const progress = showProgress
    ? (done: number, total: number) => {
        const now = Date.now();
        if (now - lastDrawn < 100 && done + 1 < total) return;
        lastDrawn = now;
        const width = 30;
        const filled = Math.round((width * (done + 1)) / total);
        process.stderr.write(`\r[${'#'.repeat(filled)}${' '.repeat(width - filled)}] ${done + 1}/${total} tickets`);
      }
    : undefined;
  const { files, unreadable } = await validateBatch(expanded.sources, run.options, run.maxBytes, run.jobs ?? defaultJobs(expanded.sources.length), local, progress);
  if (showProgress) process.stderr.write('\r\x1b[K');
  unreadable.unshift(...expanded.unreadable);
  const report = buildReport(files, packageVersion());
  // In pieces: the report of a ticket with a million references is more text than one string may hold.
  const output = run.format === 'json' ? jsonDocument(report) : run.format === 'sarif' ? sarifPieces(report, ruleCatalog) : textLines(report, { quiet: run.quiet, references: run.references });
  await writePieces(process.stdout, output);
  for (const u of unreadable) process.stderr.write(`jdf-filespec: cannot read ${u.path}: ${u.reason}\n`);
  if (unreadable.length > 0) return 2;
  return run.exitZero ? 0 : exitCodeOf(report);
}
