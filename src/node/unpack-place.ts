// unpack: files and folders created only where they were meant to be, inside the output folder, and removed
// again only while their names still hold what unpack made. Folders are checked before they are used (lstat:
// no link), yet a folder someone else can write could be swapped for a link to elsewhere between that check
// and the create; so each file is created exclusively (O_CREAT | O_EXCL | O_NOFOLLOW) and then asked where it
// is (on Linux the descriptor's path in /proc/self/fd, elsewhere the real path of its folder): a file that
// landed elsewhere is removed at once, while still empty, and unpacking stops. Undo removes a file only when
// its folder's real path is still the one it was made in and its name holds the same device and inode.
import { constants, fstatSync, lstatSync, openSync, closeSync, unlinkSync } from 'node:fs';
import { lstat, mkdir, open, realpath, rmdir, unlink, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { placedAt } from './checked-source.js';

interface MadeFile {
  path: string;
  dev: number;
  ino: number;
}

/** What unpack made (files created exclusively, folders it created): removed again when it cannot finish. */
export class Made {
  private readonly files: MadeFile[] = [];
  private readonly folders: string[] = [];

  file(made: MadeFile): void {
    this.files.push(made);
  }

  folder(p: string): void {
    this.folders.push(p);
  }

  /** A file made at `from` renamed over one made at `to`. */
  moved(from: string, to: string): void {
    const k = this.files.findIndex((f) => f.path === to);
    if (k >= 0) this.files.splice(k, 1);
    const f = this.files.find((g) => g.path === from);
    if (f) f.path = to;
  }

  /** The file made at `p`, if unpack made one there. */
  find(p: string): MadeFile | undefined {
    return this.files.find((f) => f.path === p);
  }

  async undo(): Promise<void> {
    for (const f of this.files.reverse()) {
      try {
        const info = await lstat(f.path);
        if (info.isFile() && info.dev === f.dev && info.ino === f.ino && (await realpath(path.dirname(f.path))) === path.dirname(f.path)) await unlink(f.path);
      } catch {
        // gone already, or no longer ours to remove
      }
    }
    for (const d of this.folders.reverse()) if ((await realpath(d).catch(() => undefined)) === d) await rmdir(d).catch(() => undefined);
  }
}

export class PlacedElsewhere extends Error {}

const CREATE = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW;

/** After creating `target` as `fd`: nothing when it is there; else the file is removed (it is empty) and PlacedElsewhere thrown. */
function mustBeAt(fd: number, target: string, shown: string): void {
  const where = placedAt(fd, target);
  if (where === target) return;
  const made = fstatSync(fd);
  closeSync(fd);
  try {
    const there = lstatSync(where);
    if (there.dev === made.dev && there.ino === made.ino && there.size === 0) unlinkSync(where);
  } catch {
    // not reachable by that name any more: nothing of ours to remove
  }
  throw new PlacedElsewhere(`a folder on the way to ${shown} was replaced by a symbolic link while unpacking (the file would have been ${where}); nothing was written through it`);
}

/** Creates `target` (an absolute path with no link in it) exclusively; refuses when it landed elsewhere. */
export async function createInside(target: string, shown: string, made: Made): Promise<FileHandle> {
  const handle = await open(target, CREATE, 0o666);
  try {
    mustBeAt(handle.fd, target, shown);
  } catch (error) {
    await handle.close().catch(() => undefined);
    throw error;
  }
  const info = await handle.stat();
  made.file({ path: target, dev: info.dev, ino: info.ino });
  return handle;
}

/** createInside for the synchronous MIME writer: a descriptor. */
export function createInsideSync(target: string, shown: string, made: Made): number {
  const fd = openSync(target, CREATE, 0o666);
  mustBeAt(fd, target, shown);
  const info = fstatSync(fd);
  made.file({ path: target, dev: info.dev, ino: info.ino });
  return fd;
}

/**
 * Creates the folders of `relative` under `root` (its real path), refusing to pass through a symbolic link (it
 * could lead outside); a folder created through one swapped in meanwhile is removed again and refused.
 */
export async function folderFor(root: string, relative: string, made: Made): Promise<string> {
  const parts = relative.split('/');
  let at = root;
  for (const segment of parts.slice(0, -1)) {
    at = path.join(at, segment);
    try {
      const info = await lstat(at);
      if (!info.isDirectory()) throw new Error(`${at} is not a folder (a symbolic link or a file); nothing is written through it`);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      await mkdir(at);
      const real = await realpath(at);
      if (real !== at) {
        await rmdir(real).catch(() => undefined);
        throw new PlacedElsewhere(`a folder on the way to ${relative} was replaced by a symbolic link while unpacking; nothing was written through it`);
      }
      made.folder(at);
    }
  }
  const target = path.join(root, ...parts);
  if (path.relative(root, target).startsWith('..')) throw new Error(`${relative} would be outside the output folder`);
  return target;
}

/** The bytes of a file unpack made, read through a descriptor that must be that file (the same device and inode). */
export async function readMade(file: string, made: Made): Promise<Buffer> {
  const was = made.find(file);
  const handle = await open(file, constants.O_RDONLY | constants.O_NOFOLLOW);
  try {
    const info = await handle.stat();
    if (was === undefined || info.dev !== was.dev || info.ino !== was.ino || placedAt(handle.fd, file) !== file) {
      throw new PlacedElsewhere(`${file} is no longer the file unpack wrote (a folder on its way was replaced by a symbolic link); it is not read`);
    }
    return await handle.readFile();
  } finally {
    await handle.close();
  }
}
