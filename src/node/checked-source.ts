// relocate and pack: a source file used as it was checked, never looked up by name again. The confined walk
// (confine.ts) finds it and records its device and inode; its bytes are then read through one descriptor
// (checked-file.ts: O_NOFOLLOW, the same device and inode, inside the root per /proc/self/fd), and what was read
// is stamped (size, mtime, ctime, and for small files a SHA-256 of the bytes). Before relocate --move deletes a
// source it checks, through a new descriptor, that the file is still the one it copied and unchanged; right
// before the unlink, by name, that the name still holds it. The unlink itself is by name (POSIX has no unlink
// of a descriptor): a rename in the source folder in the microseconds between the last look and the unlink is
// not caught.
import { createHash } from 'node:crypto';
import { constants, readlinkSync, realpathSync, type BigIntStats, type Stats } from 'node:fs';
import { lstat, open, realpath, unlink, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { openCheckedFile, type CheckedFile } from './checked-file.js';
import { resolveInside, stillInside, type Root } from './confine.js';

export type FoundSource = { file: CheckedFile; info: Stats } | { outside: string } | { problem: 'missing' | 'not a regular file' };

/** The regular file `candidate` names, walked inside the root when there is one; recorded with its device and inode. */
export async function findSourceFile(candidate: string, root: Root | undefined): Promise<FoundSource> {
  const target = path.resolve(candidate);
  let real: string;
  if (root !== undefined) {
    const confined = await resolveInside(root, target);
    if ('outside' in confined) return { outside: confined.outside };
    real = confined.path;
  } else {
    try {
      real = await realpath(target);
    } catch {
      return { problem: 'missing' };
    }
  }
  let info;
  try {
    info = await lstat(real);
  } catch {
    return { problem: 'missing' };
  }
  // The walk followed every link already: a link here, or a real path that moved, is a swap during the look.
  if (info.isSymbolicLink() || (root !== undefined && !(await stillInside(root, real)))) return { outside: ' through a symbolic link that changed during the check' };
  if (!info.isFile()) return { problem: 'not a regular file' };
  return { file: { path: real, dev: info.dev, ino: info.ino, ...(root !== undefined ? { root } : {}) }, info };
}

/** What a source was when its bytes were read: enough to tell later that it has not changed since. */
export interface Stamp {
  size: bigint;
  mtimeNs: bigint;
  ctimeNs: bigint;
  mode: number;
  /** SHA-256 of the bytes, for files up to HASHED_BYTES. */
  digest?: string;
}

/** Files up to this size are hashed as they are copied and hashed again before they are deleted. */
export const HASHED_BYTES = 16 * 1024 * 1024;

const CHUNK = 1 << 20;

/** The source is not the file that was checked, or it changed while or since it was read. */
export class SourceChanged extends Error {}

/**
 * The bytes of the checked file, read through one descriptor, in chunks (each a buffer of its own). Throws
 * SourceChanged when what opens is not the file the walk found, or when it changed while it was read (its size
 * or times at the end are not those at the start, or the bytes read are not its size). `stamped` receives the
 * stamp of what was read.
 */
export async function* readCheckedSource(file: CheckedFile, stamped?: (stamp: Stamp) => void): AsyncGenerator<Buffer> {
  const opened = await openCheckedFile(file);
  if ('changed' in opened) throw new SourceChanged(`${file.path} is not the file that was checked (a link or another file was put in its place)`);
  const { handle } = opened;
  try {
    const before = await handle.stat({ bigint: true });
    const hash = before.size <= HASHED_BYTES ? createHash('sha256') : undefined;
    let read = 0n;
    for (;;) {
      // One byte past the size at the start: a file that grows is seen growing.
      const chunk = Buffer.allocUnsafe(Math.max(1, Math.min(CHUNK, Number(before.size - read) + 1)));
      const { bytesRead } = await handle.read(chunk, 0, chunk.length, null);
      if (bytesRead === 0) break;
      const data = chunk.subarray(0, bytesRead);
      hash?.update(data);
      read += BigInt(bytesRead);
      yield data;
    }
    const after = await handle.stat({ bigint: true });
    const moved = read !== before.size ? `${read} bytes read of the ${before.size} it had when opened` : difference(stampOf(before), after, true);
    if (moved !== null) throw new SourceChanged(`${file.path} changed while it was read: ${moved}`);
    stamped?.({ ...stampOf(after), ...(hash !== undefined ? { digest: hash.digest('hex') } : {}) });
  } finally {
    await handle.close();
  }
}

function stampOf(info: BigIntStats): Stamp {
  return { size: info.size, mtimeNs: info.mtimeNs, ctimeNs: info.ctimeNs, mode: Number(info.mode) };
}

/** How `now` differs from `stamp` (size, mtime, and with `ctime` the change time), or null. */
function difference(stamp: Stamp, now: BigIntStats, ctime: boolean): string | null {
  if (now.size !== stamp.size) return `its size went from ${stamp.size} to ${now.size} bytes`;
  if (now.mtimeNs !== stamp.mtimeNs) return 'its modification time changed';
  if (ctime && now.ctimeNs !== stamp.ctimeNs) return 'its change time changed (written to, or its mode or owner changed)';
  return null;
}

async function digestOf(handle: FileHandle): Promise<string> {
  const hash = createHash('sha256');
  const chunk = Buffer.allocUnsafe(CHUNK);
  for (let at = 0; ; ) {
    const { bytesRead } = await handle.read(chunk, 0, CHUNK, at);
    if (bytesRead === 0) return hash.digest('hex');
    hash.update(chunk.subarray(0, bytesRead));
    at += bytesRead;
  }
}

/**
 * Why the checked file is no longer what was read (its stamp), or null when it is: opened again through a new
 * descriptor (the same device and inode, inside the root), the same size, mtime and ctime, and for a file up to
 * HASHED_BYTES the same SHA-256 of its bytes.
 */
export async function changedSince(file: CheckedFile, stamp: Stamp): Promise<string | null> {
  const opened = await openCheckedFile(file);
  if ('changed' in opened) return 'it is no longer the file that was copied (removed, or another file or a link put in its place)';
  try {
    const why = difference(stamp, await opened.handle.stat({ bigint: true }), true);
    if (why !== null) return why;
    if (stamp.digest !== undefined && (await digestOf(opened.handle)) !== stamp.digest) return 'its bytes changed (the same size and times)';
    return null;
  } finally {
    await opened.handle.close();
  }
}

/**
 * The last look before an unlink, by name as the unlink goes: the walk inside the root still reaches the same
 * real path, and the name holds the same device and inode with the same size and mtime. Why not, or null.
 * (Not the ctime: removing another hard link of the same file changes it.)
 */
export async function stillTheCopiedFile(file: CheckedFile, stamp: Stamp): Promise<string | null> {
  if (file.root !== undefined) {
    const again = await resolveInside(file.root, file.path);
    if (!('path' in again) || again.path !== file.path) return 'a folder on its path was replaced by a symbolic link';
  }
  let now: BigIntStats;
  try {
    now = await lstat(file.path, { bigint: true });
  } catch (error) {
    return `it is gone (${(error as NodeJS.ErrnoException).code ?? 'error'})`;
  }
  if (now.isSymbolicLink() || Number(now.dev) !== file.dev || Number(now.ino) !== file.ino) return 'another file or a link is at its name';
  return difference(stamp, now, false);
}

/** Where the open file `fd`, opened (or created) at `target`, really is: /proc/self/fd on Linux, else the real path of its folder. */
export function placedAt(fd: number, target: string): string {
  try {
    return readlinkSync(`/proc/self/fd/${fd}`);
  } catch {
    return path.join(realpathSync(path.dirname(target)), path.basename(target));
  }
}

/** Removes the empty file just created at `where`, if that name still holds it. */
async function removeIfMade(where: string, made: Stats): Promise<void> {
  try {
    const there = await lstat(where);
    if (there.dev === made.dev && there.ino === made.ino && there.size === 0) await unlink(where);
  } catch {
    // not reachable by that name: nothing of ours to remove
  }
}

/**
 * Copies the checked file into `into` (a new file: O_EXCL, never through a link, and where it was meant to be)
 * from one descriptor, with the source's permission bits; the stamp of what was copied. Throws SourceChanged as readCheckedSource does.
 */
export async function copyCheckedSource(file: CheckedFile, into: string): Promise<Stamp> {
  const out = await open(into, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, 0o600);
  let stamp: Stamp | undefined;
  try {
    // `into` has no link in it: a folder on its way swapped for one would have put the copy elsewhere.
    const landed = placedAt(out.fd, into);
    if (landed !== into) {
      await removeIfMade(landed, await out.stat());
      throw new SourceChanged(`the copy of ${file.path} would have been written to ${landed}, outside ${path.dirname(into)} (a folder on its way was replaced by a symbolic link); nothing was written there`);
    }
    for await (const chunk of readCheckedSource(file, (s) => (stamp = s))) await out.write(chunk);
    await out.chmod(stamp!.mode & 0o777);
  } finally {
    await out.close();
  }
  return stamp!;
}
