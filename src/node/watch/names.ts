// Names that never collide in OK and ERROR: job.jdf, then job-2.jdf, job-3.jdf, ... A name is only proposed
// here; it is taken by the exclusive link in move.ts, so two watchers proposing the same name cannot both win.
// Every name made here fits the file system: a ticket may carry the longest legal name, and NAME.report.sarif is
// 13 bytes longer, so a name that would not fit has its stem cut and a short hash of the whole name added.
import { createHash } from 'node:crypto';
import path from 'node:path';
import { exists } from './move.js';

/** NAME_MAX: 255 bytes on ext4, XFS, Btrfs, tmpfs and NFS (APFS and NTFS take 255 characters, never fewer bytes). */
export const NAME_MAX = 255;

const bytes = (text: string) => Buffer.byteLength(text);

/** Eight hex digits of SHA-256: the same name always gets the same tag. */
export const shortHash = (text: string) => createHash('sha256').update(text).digest('hex').slice(0, 8);

/**
 * `name` as it is if it fits in `room` bytes; else its stem cut (at a whole character) and `~HASH` of the whole
 * name added before the extension: a-very-long-name...~1a2b3c4d.jdf stays recognizable and unique.
 */
export function fitName(name: string, room: number): string {
  if (bytes(name) <= room) return name;
  let ext = path.extname(name);
  const tag = `~${shortHash(name)}`;
  if (bytes(tag + ext) >= room) ext = '';
  let stem = '';
  const budget = room - bytes(tag + ext);
  for (const ch of name.slice(0, name.length - path.extname(name).length)) {
    if (bytes(stem + ch) > budget) break;
    stem += ch;
  }
  return stem + tag + ext;
}

/** The k-th name for `name` (k = 1 is the name itself), fitted into `room` bytes. */
export function candidate(name: string, k: number, room = NAME_MAX): string {
  const counter = k <= 1 ? '' : `-${k}`;
  const fitted = fitName(name, room - bytes(counter));
  const ext = path.extname(fitted);
  return `${fitted.slice(0, fitted.length - ext.length)}${counter}${ext}`;
}

export class Names {
  /** Where to start looking next, per folder and name: a thousand job.jdf cost a thousand looks, not a million. */
  private next = new Map<string, number>();

  /** A name under which neither the ticket nor any of its reports (`suffixes`, '' for the ticket) exists yet, each fitting NAME_MAX. */
  async propose(dir: string, name: string, suffixes: readonly string[]): Promise<string> {
    const key = `${dir}\u0000${name}`;
    const room = NAME_MAX - Math.max(0, ...suffixes.map(bytes));
    for (let k = this.next.get(key) ?? 1; ; k++) {
      const c = candidate(name, k, room);
      if (!(await anyExists(dir, c, suffixes))) {
        this.next.set(key, k);
        return c;
      }
    }
  }
}

async function anyExists(dir: string, name: string, suffixes: readonly string[]): Promise<boolean> {
  for (const s of suffixes) if (await exists(path.join(dir, name + s))) return true;
  return false;
}
