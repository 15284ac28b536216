// Job folders: a folder in IN holding a ticket and its files (as MIS and prepress systems drop them) is one job.
//
// The design, stage by stage (a ticket's own stages are in watch.ts; only what differs is said here):
// - Seen: a folder directly in IN whose name is not hidden and not a ticket's (a folder named like a ticket,
//   job.jdf/, stays `skipped`), nor one of the files a claim folder keeps beside it (route.json, report.json,
//   ...: `ignored`). Seen by the sweep of IN, never through a symbolic link (the sweep's entry type).
// - Settled as a whole: a snapshot of the tree (every entry's relative path, type, size, time and inode, found
//   with lstat: a link is an entry, never followed, nor a folder behind it walked) must not change for --settle.
//   The folder's own time is left out (a rename into the work folder changes it). At most MAX_ENTRIES entries
//   and MAX_DEPTH levels are walked: a folder beyond that is taken as it is then.
// - Its ticket: exactly one file at the top level with a ticket's extension (JOB_TICKET_EXTENSIONS; `.xml` is not
//   one, since a job folder often holds other XML). None or several: the folder is claimed and routed to ERROR
//   with a `job-folder-ticket` finding that names what was found.
// - Checked where it arrived: the ticket's base is IN/FOLDER/TICKET (its relative references resolve inside the
//   folder); with --check-exists or --root the files are looked for inside the job folder only (it is the root,
//   in IN before the claim, in the claim after: a map takes IN/FOLDER/ to wherever the folder is now), so a link
//   inside it that leads out of it is `outside-root` and is never opened.
// - Waiting (--wait-for-files) happens in IN, before the claim, where the producer can still complete the folder;
//   then the folder settles again as a whole. (Its clock is not kept across a restart: nothing is claimed yet.)
// - Claimed as a whole: one rename(2) of IN/FOLDER into a claim folder of our own (WORK/OWNER/SEQ~FOLDER/FOLDER),
//   as a ticket is. A rename of one source succeeds once, so two watchers never both take it, and a crash leaves
//   it whole in IN or whole in the claim. The claim folder is ours (mkdir 0700, as for a ticket); the job folder
//   inside it is the producer's input and is never trusted: only read, never written, and checked like a ticket's
//   bytes. Adopted after a crash as a ticket's claim is (the claim and owner folders ours, the records sound).
//   What was claimed is snapshotted again: if the tree is not the settled one, it settles again in the claim.
// - Routed as a whole, crash-safe: hard links do not work for folders, so the folder is placed by rename, last:
//   route.json records the decision first; the reports are placed with hard links (the lock on NAME: a second
//   watcher's exclusive link of NAME.report.json fails, so it never places a folder under NAME); then the folder
//   is renamed from the claim to OK/NAME or ERROR/NAME, only when nothing is there (a rename replaces at most an
//   empty folder, and fails on anything else: then NAME is taken and the next name is tried, the reports moved
//   with it). The claim is released only after. Killed at any point: before the rename the folder is in the claim
//   (taken up again, the placement finished without a second copy: the reports are recognized as ours by inode);
//   after it the claim holds no folder, so it is known as placed and only tidied up. Never both, never neither.
//   A job folder is moved, never copied: OK and ERROR must be on IN's file system (else the route fails, EXDEV).
import { createHash } from 'node:crypto';
import type { Dirent } from 'node:fs';
import { lstat, readdir, rename } from 'node:fs/promises';
import path from 'node:path';
import { TICKET_EXTENSIONS } from '../files.js';
import { kindOf } from '../read-regular.js';
import type { NotRegular, Snapshot } from './settle.js';

/** The extensions of a job folder's ticket: a ticket's, less `.xml`. */
export const JOB_TICKET_EXTENSIONS = TICKET_EXTENSIONS.filter((e) => e !== '.xml');

const MAX_ENTRIES = 10_000;
const MAX_DEPTH = 32;

/**
 * The whole tree under `dir` as one snapshot, looked at without following any link: `tree` changes when any
 * entry is added, removed, renamed, or changes its type, size, time or inode. NotRegular when `dir` itself is
 * not a folder (a link to one included); null when it is gone.
 */
export async function folderSnapshot(dir: string): Promise<Snapshot | NotRegular | null> {
  let top;
  try {
    top = await lstat(dir);
  } catch {
    return null;
  }
  if (!top.isDirectory()) return { notRegular: kindOf(top), ino: top.ino };
  const hash = createHash('sha256');
  let entries = 0;
  const walk = async (rel: string, depth: number): Promise<void> => {
    let list: Dirent[];
    try {
      list = await readdir(path.join(dir, rel), { withFileTypes: true });
    } catch (error) {
      hash.update(`${rel}\0${(error as NodeJS.ErrnoException).code ?? 'error'}\n`);
      return;
    }
    for (const e of list.sort((a, b) => (a.name < b.name ? -1 : 1))) {
      if (++entries > MAX_ENTRIES) return;
      const child = rel === '' ? e.name : `${rel}/${e.name}`;
      const s = await lstat(path.join(dir, child)).catch(() => null);
      hash.update(s ? `${child}\0${s.mode}\0${s.size}\0${s.mtimeMs}\0${s.ino}\n` : `${child}\0gone\n`);
      if (s?.isDirectory() && depth < MAX_DEPTH) await walk(child, depth + 1);
    }
  };
  await walk('', 1);
  return { size: entries, mtimeMs: 0, ino: top.ino, dev: top.dev, tree: hash.digest('hex') };
}

/** The job folder's ticket (its name at the folder's top level), or the names found when there is not one. */
export async function ticketOf(dir: string): Promise<{ ticket: string } | { found: string[] }> {
  const names = (await readdir(dir)).filter((n) => !n.startsWith('.') && JOB_TICKET_EXTENSIONS.includes(path.extname(n).toLowerCase())).sort();
  return names.length === 1 ? { ticket: names[0]! } : { found: names };
}

/**
 * Puts the claimed folder `src` at `dest` by one rename; false when something is at `dest` already (nothing is
 * changed then). rename(2) replaces an empty folder at `dest` (nothing is lost) and fails on a file or a folder
 * with something in it.
 */
export async function placeFolder(src: string, dest: string): Promise<boolean> {
  if (await lstat(dest).then(() => true, () => false)) return false;
  try {
    await rename(src, dest);
    return true;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOTEMPTY' || code === 'EEXIST' || code === 'ENOTDIR' || code === 'EISDIR') return false;
    if (code === 'EXDEV') throw new Error(`a job folder is moved by one rename, and ${path.dirname(dest)} is on another file system than IN: put OK and ERROR on IN's file system`, { cause: error });
    throw error;
  }
}
