import { expandPaths } from '../node/discover.js';
import { parseMap } from '../node/local-files.js';
import { rebaseFile } from '../node/rebase.js';
import { viewTable } from '../node/config-file.js';
import { plural } from '../report/check-text.js';
import { maskedNote, rewritePatch } from '../report/patch.js';
import { linesForTerminal } from '../report/terminal.js';
import { readConfig } from './views.js';

export interface RebaseRun {
  paths: string[];
  from?: string;
  to?: string;
  toPrefix?: string;
  absolute: boolean;
  foldDirectory: boolean;
  dryRun: boolean;
  backup: boolean;
  config?: string;
  maps: string[];
  base?: string;
}

const usage = (message: string): number => {
  process.stderr.write(`jdf-filespec: ${message}\nRun "jdf-filespec rebase --help" for usage.\n`);
  return 2;
};

/** jdf-filespec rebase: 0 when every file was handled, 2 for a usage error or a path that could not be read or written. */
export async function runRebase(run: RebaseRun): Promise<number> {
  if ((run.to === undefined) === (run.toPrefix === undefined)) return usage('Name the target: --to VIEW or --to-prefix PREFIX (one of them).');
  let maps;
  try {
    maps = run.maps.map(parseMap);
  } catch (error) {
    return usage((error as Error).message);
  }
  const loaded = await readConfig(run.config);
  if (loaded === null) return 2;
  const table = viewTable(loaded, maps);
  if (!table) return usage('rebase needs a view table: a jdf-filespec.config.json (here or above, or --config FILE) or --map.');
  const views = Object.keys(table.views);
  for (const [option, view] of [['--from', run.from], ['--to', run.to]] as const) {
    if (view !== undefined && !views.includes(view)) return usage(`${option} ${view}: no such view (the table has ${views.join(', ')}).`);
  }
  const { sources, unreadable } = await expandPaths(run.paths, { packages: false });
  let failed = unreadable.length;
  for (const u of unreadable) process.stderr.write(`jdf-filespec: cannot read ${u.path}: ${u.reason}\n`);
  let changed = 0;
  let values = 0;
  for (const source of sources) {
    if (source.path === '-') {
      process.stderr.write('jdf-filespec: rebase works on files, not standard input\n');
      failed++;
      continue;
    }
    try {
      const outcome = await rebaseFile(source.path, {
        table,
        rebase: {
          ...(run.from !== undefined ? { from: run.from } : {}),
          ...(run.to !== undefined ? { to: run.to } : {}),
          ...(run.toPrefix !== undefined ? { toPrefix: run.toPrefix } : {}),
          absolute: run.absolute,
          foldDirectory: run.foldDirectory,
        },
        dryRun: run.dryRun,
        backup: run.backup,
        validate: run.base !== undefined ? { base: run.base } : {},
      });
      if (outcome.refused) {
        process.stderr.write(`${source.path}: not rebased: ${outcome.refused}\n`);
        failed++;
        continue;
      }
      if (run.dryRun) {
        const patch = rewritePatch(source.path, outcome.text, outcome.plan.edits, outcome.encoding);
        process.stdout.write(process.stdout.isTTY ? linesForTerminal(patch.text) : patch.bytes);
        const note = maskedNote(source.path, patch);
        if (note) process.stderr.write(`${note}\n`);
      } else if (outcome.written) {
        changed++;
        values += outcome.plan.edits.length;
        process.stdout.write(`${source.path}: ${plural(outcome.plan.edits.length, 'value')} rebased${outcome.backup ? `, original kept as ${outcome.backup}` : ''}\n`);
      }
      for (const s of outcome.plan.skipped) {
        // Notes on standard error, as fix: standard output is the diff (--dry-run) or the summary.
        process.stderr.write(`${source.path}:${s.line}:${s.column}: not rebased: ${s.element}/@${s.attribute} ${JSON.stringify(s.value)}: ${s.reason}\n`);
      }
    } catch (error) {
      failed++;
      process.stderr.write(`jdf-filespec: cannot rebase ${source.path}: ${(error as Error).message}\n`);
    }
  }
  if (!run.dryRun) process.stdout.write(`${plural(changed, 'file')} changed, ${plural(values, 'value')} rebased\n`);
  return failed > 0 ? 2 : 0;
}
