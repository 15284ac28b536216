// jdf-filespec fix: apply the safe fixes to ticket files, atomically, keeping every other byte.
//
// The ticket's folder may be writable by someone else (a hot folder): every file we create there is created
// exclusively (O_CREAT | O_EXCL | O_NOFOLLOW, so a name planted in advance, a symbolic link above all, makes
// the call fail instead of being followed), its mode and owner are set through the open descriptor (fchmod,
// fchown: a name swapped after the create cannot redirect them), and nothing existing is ever overwritten but
// the ticket itself, by rename. The new file gets the ticket's mode, owner, extended attributes and ACLs. A
// ticket whose owner may not write it is left alone unless asked. What is not promised: see README, Security.
import { randomBytes } from 'node:crypto';
import { constants } from 'node:fs';
import { lstat, open, readdir, rename, unlink } from 'node:fs/promises';
import path from 'node:path';
import { redactPassword } from '../fileurl/redact.js';
import { applyEdits, planFixes, type FixPlan } from '../ticket/rewrite.js';
import type { ValidateOptions } from '../ticket/validate.js';
import { decodeToRewrite, readInPlace, UNFIT_IN_PLACE } from './rewrite-read.js';
import { DEFAULT_MAX_BYTES } from './limits.js';
import { readXattrs, writeXattrs, type Xattr } from './xattrs.js';

export interface FixOutcome {
  path: string;
  plan: FixPlan;
  /** The decoded text the plan refers to (for the diff). */
  text: string;
  /** How the file's bytes hold `text` (for the diff, made in the file's bytes). */
  encoding?: { charset: string; bom: boolean };
  written: boolean;
  backup?: string;
  /** Why nothing could be fixed in this file, if so. */
  refused?: string;
}

export interface FixOptions {
  dryRun: boolean;
  backup: boolean;
  /** Fix a ticket whose owner may not write it (mode 0444): refused otherwise. */
  allowReadOnly?: boolean;
  validate: ValidateOptions;
}

/** Our new file's mode and owner, those of the ticket it replaces, and the ticket's extended attributes and ACLs. */
interface Likeness {
  mode: number;
  uid: number;
  gid: number;
  xattrs?: readonly Xattr[];
}

const EXCLUSIVE = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW;
const runningAsRoot = () => process.getuid?.() === 0;

/** Where the random part of our temporary names comes from; a test replaces it to plant names in advance. */
export const tempRandom = { next: (): string => randomBytes(6).toString('hex') };

/** The name of our temporary file for `file`: beside it, hidden, with our PID and a random part. */
const tempName = (file: string) => path.join(path.dirname(file), `.${path.basename(file)}.jdf-filespec-${process.pid}-${tempRandom.next()}.tmp`);

/** How many names are tried before giving up: a taken name is someone else's (EEXIST, ELOOP), never reused. */
const TEMP_TRIES = 8;

/** Creates our temporary file for `file` exclusively (see createExclusive) under a name nobody holds; returns the name. */
export async function createTemp(file: string, bytes: Uint8Array, like: Likeness): Promise<string> {
  for (let tries = 1; ; tries++) {
    const temp = tempName(file);
    try {
      await createExclusive(temp, bytes, like);
      return temp;
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if ((code !== 'EEXIST' && code !== 'ELOOP') || tries === TEMP_TRIES) throw error;
    }
  }
}

/**
 * Creates `file` exclusively and writes `bytes` to it, with the mode (and, when we are root, the owner and
 * group) of `like`, set through the descriptor, then its extended attributes and ACLs, set by the name we
 * created, without following a link. Fails with EEXIST or ELOOP if the name is taken.
 */
export async function createExclusive(file: string, bytes: Uint8Array, like: Likeness): Promise<void> {
  const handle = await open(file, EXCLUSIVE, 0o600);
  try {
    await handle.writeFile(bytes);
    if (runningAsRoot()) await handle.chown(like.uid, like.gid);
    await handle.chmod(like.mode & 0o7777);
    await writeXattrs(file, like.xattrs ?? []);
    await handle.sync();
  } catch (error) {
    await handle.close();
    await unlink(file).catch(() => undefined); // ours: we created it
    throw error;
  }
  await handle.close();
}

/**
 * Temporary files of ours for `file` left by a run that was killed (kill -9 leaves one behind): removed when
 * they are plain files owned by us and the process that made them is gone. unlink never follows a link.
 */
export async function removeStaleTemps(file: string): Promise<void> {
  const dir = path.dirname(file);
  const prefix = `.${path.basename(file)}.jdf-filespec-`;
  let names: string[];
  try {
    names = await readdir(dir);
  } catch {
    return;
  }
  for (const name of names) {
    if (!name.startsWith(prefix)) continue;
    const m = /^(\d+)(?:-[0-9a-f]+)?\.tmp$/.exec(name.slice(prefix.length));
    if (!m || Number(m[1]) === process.pid || isRunning(Number(m[1]))) continue;
    const stale = path.join(dir, name);
    try {
      const info = await lstat(stale);
      if (info.isFile() && info.uid === process.getuid?.()) await unlink(stale);
    } catch {
      // gone already, or not ours to remove
    }
  }
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export async function fixFile(file: string, options: FixOptions): Promise<FixOutcome> {
  const empty: FixPlan = { edits: [], skipped: [] };
  const refuse = (refused: string, text = ''): FixOutcome => ({ path: file, plan: empty, text, written: false, refused });
  const read = await readInPlace(file, options.validate.maxBytes ?? DEFAULT_MAX_BYTES, 'fix');
  if ('refused' in read) return refuse(read.refused);
  const { bytes, info } = read;
  // Replacing a file with another by rename would cut it from its other names: each would keep the old text.
  if (info.nlink > 1) return refuse(`the ticket has ${info.nlink} hard links, which a fix by rename would separate; fix a copy`);
  // A rename needs only the folder's write permission: the ticket's own "read-only" would not stop it.
  if ((info.mode & 0o200) === 0 && options.allowReadOnly !== true) {
    return refuse(`the ticket is read-only (mode 0${(info.mode & 0o7777).toString(8)}); --allow-read-only fixes it anyway`);
  }
  const checked = decodeToRewrite(bytes, file, options.validate);
  if ('unfit' in checked) return refuse(UNFIT_IN_PLACE[checked.unfit], checked.text);
  const { decoded, report } = checked;
  const plan = planFixes(decoded.text, report);
  for (const e of plan.edits) {
    e.from = redactPassword(e.from);
  }
  const encoding = { charset: decoded.charset.toUpperCase(), bom: decoded.bom };
  if (plan.edits.length === 0 || options.dryRun) return { path: file, plan, text: decoded.text, encoding, written: false };
  const fixed = applyEdits(bytes, decoded.text, decoded.charset.toUpperCase(), decoded.bom, plan.edits);
  const outcome: FixOutcome = { path: file, plan, text: decoded.text, encoding, written: true };
  const like: Likeness = { mode: info.mode, uid: info.uid, gid: info.gid, xattrs: await readXattrs(file) };
  await removeStaleTemps(file);
  if (options.backup) {
    outcome.backup = `${file}.orig`;
    try {
      // The bytes we read and checked, not a copy by name made later; an existing .orig is never overwritten.
      await createExclusive(outcome.backup, bytes, like);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'EEXIST' || code === 'ELOOP') return refuse(`${outcome.backup} exists already and is never overwritten; move it away first`, decoded.text);
      throw error;
    }
  }
  // Atomic: a temporary file beside the ticket, with its mode, renamed over it.
  const temp = await createTemp(file, fixed, like);
  let created = true;
  try {
    // The ticket must still be the file we read: another writer would otherwise lose its change.
    const now = await lstat(file);
    if (now.ino !== info.ino || now.dev !== info.dev || now.mtimeMs !== info.mtimeMs || now.size !== info.size) {
      await unlink(temp);
      created = false;
      return refuse('the ticket changed while it was being fixed; run fix again', decoded.text);
    }
    await rename(temp, file);
    created = false;
  } catch (error) {
    if (created) await unlink(temp).catch(() => undefined);
    throw error;
  }
  return outcome;
}
