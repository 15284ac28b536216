// Placing a file under a name nobody else has, all at once. On one file system: a hard link (link(2) fails
// rather than replace an existing name, so it is also the lock on the name). Across file systems: copy to a
// hidden temporary beside the destination, flush it, link it to the name, and delete the temporary once
// everything is placed; the source is deleted by the caller after that.
import { constants } from 'node:fs';
import { copyFile, link, lstat, open, rename, rm } from 'node:fs/promises';

const NO_LINKS = new Set(['EPERM', 'ENOTSUP', 'EOPNOTSUPP', 'ENOSYS', 'EMLINK']);

const code = (error: unknown) => (error as NodeJS.ErrnoException).code;

/**
 * Places `src` at `dest`; false when `dest` already exists (nothing is changed then). Across file systems the
 * copy goes through `temp` (a hidden name beside `dest`), which is kept, linked to `dest`, until the caller
 * removes it: that shared inode is how a restart knows the placed copy as its own.
 */
export async function placeExclusive(src: string, dest: string, temp: string): Promise<boolean> {
  try {
    await link(src, dest);
    return true;
  } catch (error) {
    if (code(error) === 'EEXIST') return false;
    if (code(error) !== 'EXDEV' && !NO_LINKS.has(code(error) ?? '')) throw error;
  }
  await rm(temp, { force: true });
  await copyFile(src, temp, constants.COPYFILE_EXCL);
  await flush(temp);
  return linkOrRename(temp, dest);
}

async function linkOrRename(temp: string, dest: string): Promise<boolean> {
  try {
    await link(temp, dest);
    return true;
  } catch (error) {
    if (code(error) === 'EEXIST') return false;
    if (!NO_LINKS.has(code(error) ?? '')) throw error;
  }
  // A file system without hard links (some SMB mounts): look, then rename. The window between is small, and
  // only another writer choosing the same name at the same moment could fall into it.
  if (await exists(dest)) return false;
  await rename(temp, dest);
  return true;
}

export async function exists(p: string): Promise<boolean> {
  try {
    await lstat(p);
    return true;
  } catch (error) {
    if (code(error) === 'ENOENT') return false;
    throw error;
  }
}

/** fsync a file (its data and size). */
export async function flush(file: string): Promise<void> {
  const handle = await open(file, 'r+');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** fsync a folder, so that names made in it survive a power cut; where folders cannot be synced, nothing. */
export async function flushFolder(dir: string): Promise<void> {
  let handle;
  try {
    handle = await open(dir, 'r');
    await handle.sync();
  } catch {
    // EISDIR, EINVAL, EPERM: not supported here.
  } finally {
    await handle?.close();
  }
}

/**
 * Whether `dest` is the file we placed: the same inode as the source (a link) or as our temporary (a copy).
 * Never by content: two tickets, and two reports, can be byte for byte the same. `dest` itself is looked at,
 * not followed: a symbolic link someone put there pointing at our file is not our file.
 */
export async function placedByUs(dest: string, src: string, temp: string): Promise<boolean> {
  const d = await lstat(dest).catch(() => null);
  if (!d?.isFile()) return false;
  for (const p of [src, temp]) {
    const s = await lstat(p).catch(() => null);
    if (s && s.dev === d.dev && s.ino === d.ino) return true;
  }
  return false;
}
