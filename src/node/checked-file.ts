// validate --check-exists: the file whose bytes are read (FileSize, MimeType, page count, --verify-checksums) is
// the file that was checked. The look (local-files.ts) records the device and inode it saw, at the real path the
// --root walk found; the integrity checks (integrity.ts) open that path once, without following a last symbolic
// link when there is a root (O_NOFOLLOW), and read through the descriptor only when fstat shows the same device
// and inode and, where /proc/self/fd tells (Linux), the descriptor's path is inside the root. A link or folder
// swapped in between the walk and the open is never followed to read a file outside.
import { constants } from 'node:fs';
import { open, readlink, type FileHandle } from 'node:fs/promises';
import type { TicketReference } from '../ticket/validate.js';
import { isInside, type Root } from './confine.js';

export interface CheckedFile {
  /** The path that was looked at: with a root, its real path (no symbolic link in it). */
  path: string;
  dev: number;
  ino: number;
  root?: Root;
}

const checked = new WeakMap<TicketReference, CheckedFile>();

/** Records the regular file `ref` was found to name. */
export function rememberCheckedFile(ref: TicketReference, file: CheckedFile): void {
  checked.set(ref, file);
}

/** The regular file `ref` was checked as, if the look found one. */
export function checkedFileOf(ref: TicketReference): CheckedFile | undefined {
  return checked.get(ref);
}

export type Opened = { handle: FileHandle; size: number } | { changed: true };

/**
 * Opens `file` for reading without blocking (O_NONBLOCK: were it now a FIFO, the open returns at once) and
 * without following a last symbolic link when it was confined to a root. `changed` when what was opened is not
 * the regular file that was checked. The caller closes the handle.
 */
export async function openCheckedFile(file: CheckedFile): Promise<Opened> {
  const flags = constants.O_RDONLY | constants.O_NONBLOCK | (file.root ? constants.O_NOFOLLOW : 0);
  let handle: FileHandle;
  try {
    handle = await open(file.path, flags);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ELOOP' || code === 'ENOENT' || code === 'ENOTDIR') return { changed: true };
    throw error;
  }
  try {
    const info = await handle.stat();
    const same = info.isFile() && info.dev === file.dev && info.ino === file.ino;
    if (same && (file.root === undefined || (await descriptorInside(handle, file.root)))) return { handle, size: info.size };
  } catch (error) {
    await handle.close();
    throw error;
  }
  await handle.close();
  return { changed: true };
}

/** Whether the kernel's path of an open file is inside the root; true where there is no /proc/self/fd to ask. */
async function descriptorInside(handle: FileHandle, root: Root): Promise<boolean> {
  let where: string;
  try {
    where = await readlink(`/proc/self/fd/${handle.fd}`);
  } catch {
    return true;
  }
  return isInside(root.real, where.replace(/ \(deleted\)$/, ''));
}
