// jdf-filespec rebase: a ticket rewritten for another machine's view, in place, with the guarantees of fix:
// byte-exact outside the changed values, the ticket read as a regular file, the backup and the temporary
// file created exclusively with the ticket's mode, owner, extended attributes and ACL, and the ticket replaced by
// one rename, only if it did not change meanwhile.
import { lstat, rename, unlink } from 'node:fs/promises';
import { redactPassword } from '../fileurl/redact.js';
import { applyEdits, type FixPlan } from '../ticket/rewrite.js';
import type { ValidateOptions } from '../ticket/validate.js';
import { planRebase, type RebaseOptions } from '../views/rebase.js';
import type { ViewTable } from '../views/types.js';
import { createExclusive, createTemp, removeStaleTemps, type FixOutcome } from './fix.js';
import { decodeToRewrite, readInPlace, UNFIT_IN_PLACE } from './rewrite-read.js';
import { DEFAULT_MAX_BYTES } from './limits.js';
import { readXattrs } from './xattrs.js';

export interface RebaseFileOptions {
  table: ViewTable;
  rebase: RebaseOptions;
  dryRun: boolean;
  backup: boolean;
  validate: ValidateOptions;
}

/** What became of one ticket: as with fix. */
export type RebaseOutcome = FixOutcome;

/** Reads and checks a ticket and plans the rebase (nothing written). */
export async function planRebaseFile(file: string, options: Omit<RebaseFileOptions, 'dryRun' | 'backup'>): Promise<(RebaseOutcome & { bytes: Uint8Array; charset: string; bom: boolean; info: import('node:fs').Stats }) | RebaseOutcome> {
  const empty: FixPlan = { edits: [], skipped: [] };
  const refuse = (refused: string, text = ''): RebaseOutcome => ({ path: file, plan: empty, text, written: false, refused });
  const read = await readInPlace(file, options.validate.maxBytes ?? DEFAULT_MAX_BYTES, 'rebase');
  if ('refused' in read) return refuse(read.refused);
  const { bytes, info } = read;
  const checked = decodeToRewrite(bytes, file, options.validate);
  if ('unfit' in checked) return refuse(UNFIT_IN_PLACE[checked.unfit], checked.text);
  const { decoded, report } = checked;
  const plan = planRebase(decoded.text, report, options.table, options.rebase);
  return { path: file, plan, text: decoded.text, written: false, bytes, charset: decoded.charset.toUpperCase(), bom: decoded.bom, info };
}

export async function rebaseFile(file: string, options: RebaseFileOptions): Promise<RebaseOutcome> {
  const planned = await planRebaseFile(file, options);
  if (!('bytes' in planned)) return planned;
  const { bytes, charset, bom, info, ...outcome } = planned;
  const shown = (): RebaseOutcome => ({ ...outcome, encoding: { charset, bom }, plan: { ...outcome.plan, edits: outcome.plan.edits.map((e) => ({ ...e, from: redactPassword(e.from) })) } });
  if (outcome.plan.edits.length === 0 || options.dryRun) return shown();
  if (info.nlink > 1) return { ...shown(), refused: `the ticket has ${info.nlink} hard links, which a rewrite by rename would separate; rebase a copy` };
  const rewritten = applyEdits(bytes, outcome.text, charset, bom, outcome.plan.edits);
  const result: RebaseOutcome = { ...shown(), written: true };
  // As fix does: the new file and the backup get the ticket's extended attributes and POSIX ACL.
  const like = { mode: info.mode, uid: info.uid, gid: info.gid, xattrs: await readXattrs(file) };
  await removeStaleTemps(file);
  if (options.backup) {
    result.backup = `${file}.orig`;
    try {
      await createExclusive(result.backup, bytes, like);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'EEXIST' || code === 'ELOOP') return { ...shown(), refused: `${result.backup} exists already and is never overwritten; move it away first` };
      throw error;
    }
  }
  const temp = await createTemp(file, rewritten, like);
  try {
    const now = await lstat(file);
    if (now.ino !== info.ino || now.dev !== info.dev || now.mtimeMs !== info.mtimeMs || now.size !== info.size) {
      await unlink(temp);
      return { ...shown(), written: false, refused: 'the ticket changed while it was being rebased; run rebase again' };
    }
    await rename(temp, file);
  } catch (error) {
    await unlink(temp).catch(() => undefined);
    throw error;
  }
  return result;
}
