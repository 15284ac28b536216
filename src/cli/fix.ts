import { expandPaths, type DiscoverOptions } from '../node/discover.js';
import { ignoredFiles, unmatched } from './unmatched.js';
import { fixFile, type FixOptions } from '../node/fix.js';
import { plural } from '../report/check-text.js';

/** jdf-filespec fix (--dry-run: a unified diff on standard output, notes on standard error): 0 when every file was handled, 2 when a path could not be read or written. */
export async function runFix(run: FixOptions & { paths: string[]; discovery?: DiscoverOptions; errorOnUnmatchedPattern?: boolean }): Promise<number> {
  const { sources, unreadable, unmatched: none, ignored } = await expandPaths(run.paths, { ...run.discovery, packages: false });
  ignoredFiles(ignored);
  if (run.errorOnUnmatchedPattern !== false && unmatched(none)) return 2;
  let failed = unreadable.length;
  for (const u of unreadable) process.stderr.write(`jdf-filespec: cannot read ${u.path}: ${u.reason}\n`);
  let changed = 0;
  let values = 0;
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
        process.stderr.write(`${source.path}: not fixed: ${outcome.refused}\n`);
        continue;
      }
      if (patches) {
        const patch = patches.rewritePatch(source.path, outcome.text, outcome.plan.edits);
        process.stdout.write(patch.text);
        const note = patches.maskedNote(source.path, patch);
        if (note) process.stderr.write(`${note}\n`);
      } else if (outcome.written) {
        changed++;
        values += outcome.plan.edits.length;
        process.stdout.write(`${source.path}: ${plural(outcome.plan.edits.length, 'value')} fixed${outcome.backup ? `, original kept as ${outcome.backup}` : ''}\n`);
      }
      for (const s of outcome.plan.skipped) {
        // Notes on standard error: standard output is the diff (--dry-run) or the summary.
        process.stderr.write(`${source.path}:${s.line}:${s.column}: not fixed: ${s.element}/@${s.attribute} ${JSON.stringify(s.value)} -> ${JSON.stringify(s.fixed)}: ${s.reason}\n`);
      }
    } catch (error) {
      failed++;
      process.stderr.write(`jdf-filespec: cannot fix ${source.path}: ${(error as Error).message}\n`);
    }
  }
  if (!run.dryRun) process.stdout.write(`${plural(changed, 'file')} changed, ${plural(values, 'value')} fixed\n`);
  return failed > 0 ? 2 : 0;
}
