// Whether a file is a package, told from its first bytes, and the random access a package is read with: light
// enough for every run of validate (no package reader, no zip library), which meets tickets far more than packages.
import { constants } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import { detectPackage, type PackageKind } from '../package/detect.js';
import type { RandomAccess } from '../package/zip.js';

/** A file opened for reads at any offset; close it when done. */
export async function fileAccess(file: string, noFollow = false): Promise<RandomAccess & { close(): Promise<void> }> {
  // O_NONBLOCK: a FIFO must not block the run; only a regular file is read (issue 20). O_NOFOLLOW: see TicketSource.
  const handle: FileHandle = await open(file, constants.O_RDONLY | constants.O_NONBLOCK | (noFollow ? constants.O_NOFOLLOW : 0));
  const info = await handle.stat();
  if (!info.isFile()) {
    await handle.close();
    throw new Error('not a regular file');
  }
  const { size } = info;
  return {
    size,
    async read(offset, length) {
      const want = Math.max(0, Math.min(length, size - offset));
      const buffer = Buffer.allocUnsafe(want);
      let got = 0;
      while (got < want) {
        const { bytesRead } = await handle.read(buffer, got, want - got, offset + got);
        if (bytesRead === 0) break;
        got += bytesRead;
      }
      return buffer.subarray(0, got);
    },
    close: () => handle.close(),
    handle,
  } as RandomAccess & { close(): Promise<void>; handle: FileHandle };
}

/** `use` on the file opened for reads at any offset, closed after; null when the file does not open. */
export async function withAccess<T>(file: string, use: (access: RandomAccess) => Promise<T | null>, noFollow = false): Promise<T | null> {
  let access;
  try {
    access = await fileAccess(file, noFollow);
  } catch {
    return null;
  }
  try {
    return await use(access);
  } finally {
    await access.close();
  }
}

export const kindOfAccess = async (access: RandomAccess) => detectPackage(await access.read(0, 16 * 1024));

/** Whether a file is a package, from its first bytes (not its name). */
export async function packageKindOf(file: string, noFollow = false): Promise<PackageKind | null> {
  return withAccess(file, kindOfAccess, noFollow);
}
