// What the watcher trusts in its work area: only what its own user made, in folders nobody else can change.
// The work folder must be owned by the watcher's user and not writable by group or others, and every folder
// above it owned by that user or root and not writable by others unless it has the sticky bit (as /tmp does):
// otherwise someone else could rename it away and put a folder of their own in its place. What is read back
// from it (claims, route.json, waiting.json) is still input: opened without following a link, owned by us, and
// checked before it is used. On a system without user ids (Windows) the owners and modes are not looked at.
import type { Stats } from 'node:fs';
import { lstat } from 'node:fs/promises';
import path from 'node:path';
import { kindOf, readRegularFile } from '../read-regular.js';

/** Something found in the work area that the watcher did not make, or that is not what it made: never followed. */
export class UntrustedError extends Error {
  constructor(readonly path: string, readonly reason: string) {
    super(`${path}: ${reason}`);
  }
}

const myUid = () => process.getuid?.();

const modeText = (info: Stats) => (info.mode & 0o7777).toString(8).padStart(4, '0');

/** Why `info` is not a folder only this watcher's user can change (owned by it, not writable by group or others); null when it is. */
export function folderDistrust(info: Stats): string | null {
  if (!info.isDirectory()) return `it is ${kindOf(info)}, not a folder`;
  const me = myUid();
  if (me === undefined) return null;
  if (info.uid !== me) return `it is owned by uid ${info.uid}, not by this watcher's uid ${me}`;
  if ((info.mode & 0o022) !== 0) return `group or others can write it (mode ${modeText(info)})`;
  return null;
}

/**
 * Why someone other than this watcher's user or root could rename `dir` (a real path) away, or one of the
 * folders above it: the first folder above that someone else owns, or that group or others can write without
 * the sticky bit. Null when there is none.
 */
export async function aboveDistrust(dir: string): Promise<string | null> {
  const me = myUid();
  if (me === undefined) return null;
  for (let p = path.dirname(dir); ; p = path.dirname(p)) {
    const info = await lstat(p);
    if (info.uid !== me && info.uid !== 0) return `${p} above it is owned by uid ${info.uid}, who could replace what is in it`;
    if ((info.mode & 0o022) !== 0 && (info.mode & 0o1000) === 0) return `group or others can write ${p} above it (mode ${modeText(info)}) and it has no sticky bit, so they could put a folder of their own in its place`;
    if (path.dirname(p) === p) return null;
  }
}

/** A folder of the work area, looked at without following a link; throws UntrustedError when it is not ours. */
export async function ownFolder(dir: string): Promise<Stats> {
  const info = await lstat(dir);
  const why = folderDistrust(info);
  if (why !== null) throw new UntrustedError(dir, why);
  return info;
}

/**
 * A small file of the work area (route.json, waiting.json): opened without following a link, read only when it
 * is a regular file owned by us and at most `maxBytes`. Null when there is none.
 */
export async function readOwnFile(file: string, maxBytes = 64 * 1024): Promise<string | null> {
  let read;
  try {
    read = await readRegularFile(file, maxBytes, true);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return null;
    if (code === 'ELOOP') throw new UntrustedError(file, 'it is a symbolic link');
    throw error;
  }
  if ('notRegular' in read) throw new UntrustedError(file, `it is ${read.notRegular}`);
  if ('tooLarge' in read) throw new UntrustedError(file, `it is ${read.tooLarge} bytes, more than the watcher ever writes`);
  const me = myUid();
  if (me !== undefined && read.info.uid !== me) throw new UntrustedError(file, `it is owned by uid ${read.info.uid}, not by this watcher's uid ${me}`);
  return Buffer.from(read.bytes).toString('utf8');
}

/** A file the watcher places from a claim (a report): a regular file owned by us, never a link. */
export async function ownRegularFile(file: string): Promise<void> {
  const info = await lstat(file);
  if (!info.isFile()) throw new UntrustedError(file, `it is ${kindOf(info)}`);
  const me = myUid();
  if (me !== undefined && info.uid !== me) throw new UntrustedError(file, `it is owned by uid ${info.uid}, not by this watcher's uid ${me}`);
}

/** A name that stays one entry of the folder it is joined to: no separator, no NUL, not `.` or `..`. */
export function isSingleSegment(name: unknown): name is string {
  if (typeof name !== 'string' || name === '' || name === '.' || name === '..') return false;
  if (name.includes('/') || name.includes('\0')) return false;
  return path.sep === '/' || !name.includes('\\');
}
