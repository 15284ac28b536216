// Placing a file under a name nobody else has, all at once. On one file system: a hard link (link(2) fails
// rather than replace an existing name, so it is also the lock on the name). Across file systems: copy to a
// hidden temporary beside the destination, flush it, link it to the name, and only then delete the temporary;
// the source is deleted by the caller once everything is placed.
import { constants } from 'node:fs';
import { copyFile, link, lstat, open, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';

const NO_LINKS = new Set(['EPERM', 'ENOTSUP', 'EOPNOTSUPP', 'ENOSYS', 'EMLINK']);

const code = (error: unknown) => (error as NodeJS.ErrnoException).code;

/** Places `src` at `dest`; false when `dest` already exists (nothing is changed then). */
export async function placeExclusive(src: string, dest: string, tempName: string): Promise<boolean> {
  try {
    await link(src, dest);
    return true;
  } catch (error) {
    if (code(error) === 'EEXIST') return false;
    if (code(error) !== 'EXDEV' && !NO_LINKS.has(code(error) ?? '')) throw error;
  }
  const temp = path.join(path.dirname(dest), tempName);
  await rm(temp, { force: true });
  await copyFile(src, temp, constants.COPYFILE_EXCL);
  await flush(temp);
  try {
    return await linkOrRename(temp, dest);
  } finally {
    await rm(temp, { force: true });
  }
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

/** Whether `b` is the file `a` was placed as: the same inode, or (after a copy) the same bytes. */
export async function sameFile(a: string, b: string): Promise<boolean> {
  let sa, sb;
  try {
    [sa, sb] = await Promise.all([stat(a), stat(b)]);
  } catch {
    return false;
  }
  if (sa.dev === sb.dev && sa.ino === sb.ino) return true;
  if (sa.size !== sb.size) return false;
  return sameBytes(a, b);
}

async function sameBytes(a: string, b: string): Promise<boolean> {
  const [ha, hb] = await Promise.all([open(a, 'r'), open(b, 'r')]);
  try {
    const ba = Buffer.alloc(1 << 16);
    const bb = Buffer.alloc(1 << 16);
    for (;;) {
      const [ra, rb] = await Promise.all([ha.read(ba, 0, ba.length, null), hb.read(bb, 0, bb.length, null)]);
      if (ra.bytesRead !== rb.bytesRead) return false;
      if (ra.bytesRead === 0) return true;
      if (!ba.subarray(0, ra.bytesRead).equals(bb.subarray(0, rb.bytesRead))) return false;
    }
  } finally {
    await Promise.all([ha.close(), hb.close()]);
  }
}
