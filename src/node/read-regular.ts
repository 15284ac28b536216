// Reading a ticket from the file system: only a regular file, never more than a limit, never blocking.
import { constants } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import type { Stats } from 'node:fs';
import { ReadBuffer } from './read-buffer.js';

export type RegularRead =
  | { bytes: Uint8Array; info: Stats }
  | { tooLarge: number }
  | { notRegular: string };

/** What a non-regular file is, in words. */
export function kindOf(info: Stats): string {
  if (info.isDirectory()) return 'a folder';
  if (info.isFIFO()) return 'a FIFO';
  if (info.isCharacterDevice()) return 'a character device';
  if (info.isBlockDevice()) return 'a block device';
  if (info.isSocket()) return 'a socket';
  if (info.isSymbolicLink()) return 'a symbolic link';
  return 'not a regular file';
}

/**
 * Opens `file` without blocking (O_NONBLOCK: a FIFO opens at once), looks at what was opened (fstat, so the
 * answer is about this file and not one swapped in after a stat by name), and reads it only if it is a regular
 * file, at most maxBytes + 1 bytes: a file that grows while it is read is still cut off at the limit.
 * `noFollow`: a symbolic link in the last component is refused (ELOOP) instead of followed.
 */
export async function readRegularFile(file: string, maxBytes: number, noFollow = false): Promise<RegularRead> {
  const flags = constants.O_RDONLY | constants.O_NONBLOCK | (noFollow ? constants.O_NOFOLLOW : 0);
  const handle = await open(file, flags);
  try {
    const info = await handle.stat();
    if (!info.isFile()) return { notRegular: kindOf(info) };
    if (info.size > maxBytes) return { tooLarge: info.size };
    const bytes = await readAtMost(handle, maxBytes + 1, info.size);
    if (bytes.length > maxBytes) return { tooLarge: Math.max(bytes.length, info.size) };
    return { bytes, info };
  } finally {
    await handle.close();
  }
}

/** Reads until the end of the file or `limit` bytes, whichever comes first. */
async function readAtMost(handle: FileHandle, limit: number, sizeHint: number): Promise<Uint8Array> {
  const into = new ReadBuffer(limit, sizeHint);
  for (let room = into.room(); room !== null; room = into.room()) {
    const { bytesRead } = await handle.read(room.buffer, room.offset, room.length, null);
    if (!into.took(bytesRead)) break;
  }
  return into.bytes();
}
