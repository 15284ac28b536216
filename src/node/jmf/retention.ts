// The outbox's retention: a finished queue entry (Completed or Aborted) untouched for longer than keepMs is
// removed, with its claim in .claims/ and what a dead instance left in .incoming/; nothing in progress is.
// Removal is one rename out of sight (into .removed/, the same file system), then the removal of what was renamed:
// a reader sharing the outbox sees an entry whole or not at all, and of two instances sweeping at once one rename
// succeeds and the other finds the name gone (ENOENT) and goes on. A sweep cut short (a shutdown, a crash) leaves
// at most a folder in .removed/, which the next sweep (of any instance) removes. jdf-filespec/node exports it for a
// server of one's own around handleJmf (README "Library"); serve runs it on a timer (src/cli/serve-retention.ts).
import { randomUUID } from 'node:crypto';
import { mkdir, readdir, readFile, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import type { EntryRecord } from './outbox.js';
import { CLAIM_STALE_MS as IN_PROGRESS_MS } from './options.js';
import { safeId } from './outbox.js';

/** The states a queue entry leaves for good (JDF 1.x QueueEntry/@Status): removable once old enough. */
const FINISHED = new Set(['Completed', 'Aborted']);

/** How long a folder in .removed/ is left to the instance that renamed it there before another removes it. */
const LEFTOVER_MS = 10 * 60_000;

export interface SweepOptions {
  /** A finished queue entry (Completed or Aborted), and its claim, untouched for longer than this (ms) is removed.
   * No default: serve's is 30 days (`--keep`), and it refuses under an hour, since a claim kept shorter lets a
   * sender's late retry count as a new job. Infinity removes nothing but leftovers. */
  keepMs: number;
  /** An entry without status.json (or a claim without an answer) is in progress unless untouched for longer than
   * this as well: give handleJmf's claimStaleMs, or the longest a request is handled (default 120000). */
  inProgressMs?: number;
  /** The clock (ms since the epoch); Date.now by default. */
  now?: () => number;
  /** Looked at between two removals: once aborted, the sweep stops there and resolves with what it removed
   * (`stopped: true`) rather than rejecting: those removals are done. The next sweep finishes the work. */
  signal?: AbortSignal;
}

/** Something a sweep could not remove, or a folder of the outbox it could not read. */
export interface SweepFailure {
  /** The absolute path of the folder or file. */
  path: string;
  /** Why, as the file system said it (its `code`: EACCES, EBUSY, ENOTDIR, ...). */
  error: Error;
}

export interface SweepResult {
  /** The QueueEntryIDs of the entries removed. */
  entries: string[];
  /** Claim folders removed (their names are hashes: no use to a person). */
  claims: number;
  /** Leftovers removed: bodies a dead instance left in .incoming/, folders a sweep cut short left in .removed/. */
  leftovers: number;
  /** What could not be removed, and why: the sweep goes on past each, and the next one tries again. */
  failed: SweepFailure[];
  /** Whether the signal stopped the sweep before its end. */
  stopped: boolean;
}

/**
 * One sweep of a handleJmf outbox: each finished queue entry older than keepMs removed with its claim, and what
 * dead instances left. Safe with handleJmf answering meanwhile and with other instances sweeping the same outbox
 * (never an error for what another removed first). Rejects only for bad options (TypeError, RangeError) and
 * an outbox that is not a readable folder (the file system's error; nothing is made); each thing it cannot
 * remove is in `failed` instead.
 */
export async function sweepOutbox(outbox: string, o: SweepOptions): Promise<SweepResult> {
  const inProgressMs = o.inProgressMs ?? IN_PROGRESS_MS;
  checkMs('keepMs', o.keepMs);
  checkMs('inProgressMs', inProgressMs);
  const now = (o.now ?? Date.now)();
  const swept: SweepResult = { entries: [], claims: 0, leftovers: 0, failed: [], stopped: false };
  const stop = () => (swept.stopped ||= o.signal?.aborted === true);
  const top = await readdir(outbox);
  const trash = path.join(outbox, '.removed');
  await mkdir(trash, { recursive: true });
  const take = async (from: string, label: string): Promise<boolean> => {
    try {
      return await removeVia(trash, from, label);
    } catch (error) {
      swept.failed.push({ path: from, error: error as Error });
      return false;
    }
  };
  const ages = { keepMs: o.keepMs, inProgressMs };
  for (const name of top) {
    if (stop()) return swept;
    if (!safeId(name) || !(await entryExpired(path.join(outbox, name), now, ages))) continue;
    if (await take(path.join(outbox, name), `entry-${name}`)) swept.entries.push(name);
  }
  const claims = path.join(outbox, '.claims');
  for (const name of await listing(claims, swept)) {
    if (stop()) return swept;
    const dir = path.join(claims, name);
    const age = now - (await newest(dir));
    const held = await names(dir);
    if (!(age > o.keepMs) || !(held.includes('answer.json') || age > inProgressMs)) continue;
    // A claim goes with its queue entry: while the entry is kept (Waiting, say), a repeat still gets its answer.
    if (!(await entryKept(outbox, dir, held)) && (await take(dir, `claim-${name}`))) swept.claims += 1;
  }
  // A body still arriving is written to as it comes; one untouched this long was left by an instance that died.
  const incoming = path.join(outbox, '.incoming');
  for (const name of await listing(incoming, swept)) {
    if (stop()) return swept;
    if ((await newest(path.join(incoming, name))) < now - Math.max(o.keepMs, inProgressMs) && (await take(path.join(incoming, name), `incoming-${name}`))) swept.leftovers += 1;
  }
  if (!stop()) swept.leftovers += await removeLeftovers(trash, now - LEFTOVER_MS, take);
  return swept;
}

/** A duration option must be a number of milliseconds, 0 or more (Infinity: never). */
function checkMs(name: string, value: unknown): void {
  if (typeof value !== 'number') throw new TypeError(`sweepOutbox: ${name} must be a number of milliseconds, not ${typeof value}`);
  if (!(value >= 0)) throw new RangeError(`sweepOutbox: ${name} must be 0 or more, not ${value}`);
}

/** The names in one of the outbox's own folders: none when it is not there; when it cannot be read, why, in `failed`. */
async function listing(dir: string, swept: SweepResult): Promise<string[]> {
  try {
    return await readdir(dir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') swept.failed.push({ path: dir, error: error as Error });
    return [];
  }
}

/** Whether the queue entry a claim folder names (its claim.N's queueEntryId) is still in the outbox. */
async function entryKept(outbox: string, dir: string, held: string[]): Promise<boolean> {
  const first = held.find((n) => /^claim\.\d+$/.test(n));
  const id = first !== undefined ? (await readJson<{ queueEntryId?: unknown }>(path.join(dir, first)))?.queueEntryId : undefined;
  return typeof id === 'string' && safeId(id) && (await names(path.join(outbox, id))).length > 0;
}

/** Whether the entry in `dir` is finished and untouched (its folder and every file in it) for longer than keepMs. */
async function entryExpired(dir: string, now: number, o: { keepMs: number; inProgressMs: number }): Promise<boolean> {
  const age = now - (await newest(dir));
  if (!(age > o.keepMs)) return false;
  const record = await readJson<EntryRecord>(path.join(dir, 'status.json'));
  // No status yet: a submission being checked, or one whose instance died before its status was written.
  if (record === undefined) return age > o.inProgressMs && !(await names(dir)).includes('status.json');
  return FINISHED.has(record.status);
}

/** The latest modification time of a folder and of what it holds (a resubmission or a claim's next
 * generation touches one of them); +Infinity when it cannot be read, so that it counts as new. */
async function newest(dir: string): Promise<number> {
  try {
    const self = await stat(dir);
    if (!self.isDirectory()) return self.mtimeMs;
    const times = [self.mtimeMs];
    for (const name of await readdir(dir)) times.push(await mtime(path.join(dir, name)));
    return Math.max(...times);
  } catch {
    return Infinity;
  }
}

async function mtime(file: string): Promise<number> {
  try {
    return (await stat(file)).mtimeMs;
  } catch (error) {
    // Renamed into place or removed as we looked: new, or gone (either way not this sweep's to remove).
    return (error as NodeJS.ErrnoException).code === 'ENOENT' ? Infinity : Promise.reject(error);
  }
}

/** Renames `from` into the trash under a name of its own and removes it there; false when another got it first. */
async function removeVia(trash: string, from: string, label: string): Promise<boolean> {
  const to = path.join(trash, `${label}.${randomUUID()}`);
  try {
    await rename(from, to);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw error;
  }
  await removeQuietly(to);
  return true;
}

/** What a sweep cut short left in the trash: each item put there (a rename sets its ctime) before `before`,
 * taken by a rename of its own first, as above. */
async function removeLeftovers(trash: string, before: number, take: (from: string, label: string) => Promise<boolean>): Promise<number> {
  let removed = 0;
  for (const name of await names(trash)) {
    const from = path.join(trash, name);
    const put = await stat(from).then((s) => s.ctimeMs, () => Infinity);
    if (put < before && (await take(from, `leftover-${name.replace(/^(leftover-)+/, '').replace(/\.[0-9a-f-]{36}$/, '')}`))) removed += 1;
  }
  return removed;
}

/** rm -rf; what it cannot remove now (another instance removing the same leftover) a later sweep finds again. */
async function removeQuietly(target: string): Promise<void> {
  try {
    await rm(target, { recursive: true, force: true });
  } catch {
    // left in the trash for the next sweep
  }
}

async function names(dir: string): Promise<string[]> {
  try {
    return await readdir(dir);
  } catch {
    return [];
  }
}

async function readJson<T>(file: string): Promise<T | undefined> {
  try {
    return JSON.parse(await readFile(file, 'utf8')) as T;
  } catch {
    return undefined;
  }
}
