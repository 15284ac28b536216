import { expandPaths, type DiscoverOptions } from '../node/discover.js';
import { ignoredFiles, unmatched } from './unmatched.js';
import { validateSources } from '../node/batch.js';
import type { TicketSource } from '../node/files.js';
import { fixFile, type FixOptions, type FixOutcome } from '../node/fix.js';
import { DEFAULT_MAX_BYTES } from '../node/limits.js';
import { plural } from '../report/check-text.js';
import { forTerminal, linesForTerminal } from '../report/terminal.js';

/**
 * jdf-filespec fix (--dry-run: a unified diff on standard output, notes on standard error). As `eslint --fix`:
 * 0 when no error is left, 1 when one is (a finding without a safe fix, a value not fixed), 2 when a path could
 * not be read or written.
 */
export async function runFix(run: FixOptions & { paths: string[]; discovery?: DiscoverOptions; errorOnUnmatchedPattern?: boolean }): Promise<number> {
  const { sources, unreadable, unmatched: none, ignored } = await expandPaths(run.paths, { ...run.discovery, packages: false });
  ignoredFiles(ignored);
  if (run.errorOnUnmatchedPattern !== false && unmatched(none)) return 2;
  let failed = unreadable.length;
  for (const u of unreadable) process.stderr.write(forTerminal(`jdf-filespec: cannot read ${u.path}: ${u.reason}`) + '\n');
  let changed = 0;
  let values = 0;
  let errors = 0;
  // jsdiff only for --dry-run.
  const patches = run.dryRun ? await import('../report/patch.js') : undefined;
  for (const source of sources) {
    if (source.path === '-') {
      process.stderr.write('jdf-filespec: fix works on files, not standard input\n');
      failed++;
      continue;
    }
    try {
      const outcome = await fixFile(source.path, run);
      if (outcome.refused) {
        process.stderr.write(forTerminal(`${source.path}: not fixed: ${outcome.refused}`) + '\n');
        errors += await errorsLeft(source, run, outcome);
        continue;
      }
      if (patches) {
        const patch = patches.rewritePatch(source.path, outcome.text, outcome.plan.edits, outcome.encoding);
        // The diff holds the file's bytes, which `git apply` needs as they are; a terminal gets them escaped.
        process.stdout.write(process.stdout.isTTY ? linesForTerminal(patch.text) : patch.bytes);
        const note = patches.maskedNote(source.path, patch);
        if (note) process.stderr.write(forTerminal(note) + '\n');
      } else if (outcome.written) {
        changed++;
        values += outcome.plan.edits.length;
        process.stdout.write(forTerminal(`${source.path}: ${plural(outcome.plan.edits.length, 'value')} fixed${outcome.backup ? `, original kept as ${outcome.backup}` : ''}`) + '\n');
      }
      for (const s of outcome.plan.skipped) {
        // Notes on standard error: standard output is the diff (--dry-run) or the summary.
        process.stderr.write(forTerminal(`${source.path}:${s.line}:${s.column}: not fixed: ${s.element}/@${s.attribute} ${JSON.stringify(s.value)} -> ${JSON.stringify(s.fixed)}: ${s.reason}`) + '\n');
      }
      errors += await errorsLeft(source, run, outcome);
    } catch (error) {
      failed++;
      process.stderr.write(forTerminal(`jdf-filespec: cannot fix ${source.path}: ${(error as Error).message}`) + '\n');
    }
  }
  if (!run.dryRun) process.stdout.write(`${plural(changed, 'file')} changed, ${plural(values, 'value')} fixed\n`);
  if (errors > 0) process.stderr.write(`jdf-filespec: ${plural(errors, 'error')} left that fix cannot correct (validate lists them)\n`);
  return failed > 0 ? 2 : errors > 0 ? 1 : 0;
}

/** The error findings a file holds once fixed: read again after a write; with --dry-run, those no edit of the plan clears. */
async function errorsLeft(source: TicketSource, run: FixOptions, outcome: FixOutcome): Promise<number> {
  const reports = await validateSources([source], run.validate, { maxBytes: run.validate.maxBytes ?? DEFAULT_MAX_BYTES, isolate: false });
  const edited = new Set(outcome.written ? [] : outcome.plan.edits.map((e) => `${e.span[0]}:${e.span[1]}`));
  let count = 0;
  for (const report of reports) {
    if (!('references' in report)) continue;
    count += report.findings.filter((f) => f.severity === 'error').length;
    for (const ref of report.references) {
      const fixedHere = edited.has(`${ref.span[0]}:${ref.span[1]}`);
      count += ref.findings.filter((f) => f.severity === 'error' && !(fixedHere && f.fix !== undefined)).length;
    }
  }
  return count;
}
