// Readiness, part one: a file is complete when its size and modification time have stood still for the settle time.
import { lstat, stat } from 'node:fs/promises';
import { kindOf } from '../read-regular.js';

export interface Snapshot {
  size: number;
  mtimeMs: number;
  ino: number;
  dev: number;
  /** A job folder's whole tree, as one hash (job-folder.ts). */
  tree?: string;
}

export async function snapshot(path: string): Promise<Snapshot | null> {
  try {
    const s = await stat(path);
    if (!s.isFile()) return null;
    return { size: s.size, mtimeMs: s.mtimeMs, ino: s.ino, dev: s.dev };
  } catch {
    return null;
  }
}

/** What stands under a ticket's name when it is not a regular file: what it is in words, and its inode. */
export interface NotRegular {
  notRegular: string;
  ino: number;
}

/**
 * A ticket's own entry (in IN or in its claim), never followed: a symbolic link, a FIFO, a device or a folder
 * is not a ticket, and what it points to is not looked at. Null when the name is gone.
 */
export async function entrySnapshot(path: string): Promise<Snapshot | NotRegular | null> {
  try {
    const s = await lstat(path);
    if (!s.isFile()) return { notRegular: kindOf(s), ino: s.ino };
    return { size: s.size, mtimeMs: s.mtimeMs, ino: s.ino, dev: s.dev };
  } catch {
    return null;
  }
}

export const sameSnapshot = (a: Snapshot | null | undefined, b: Snapshot | null | undefined): boolean =>
  !!a && !!b && a.size === b.size && a.mtimeMs === b.mtimeMs && a.ino === b.ino && a.dev === b.dev && a.tree === b.tree;

/** One file's way to stillness: each look either restarts the clock (something changed) or lets it run. */
export class Settling {
  last: Snapshot | null = null;
  since = 0;

  /** Records a look at `now`; returns how long the file has been still (0 when it just changed or is gone). */
  look(current: Snapshot | null, now: number): number {
    if (!sameSnapshot(current, this.last)) {
      this.last = current;
      this.since = now;
      return 0;
    }
    return current ? now - this.since : 0;
  }

  /** When to look next: when the settle time would be up if nothing changes. */
  nextLook(settleMs: number): number {
    return this.since + settleMs;
  }
}
