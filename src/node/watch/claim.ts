// Claiming: a ticket is taken by one atomic rename from IN into its own claim folder under the owner's folder in
// the work folder (WORK/<owner>/<seq>~<name>/<name>). A rename of one source succeeds once, so two watchers
// (two processes or two machines on one share) never take the same ticket; a crash leaves the ticket either in
// IN or in a claim folder, which the next start takes up again. The claim folder's name is cut to fit (see
// names.ts) when the ticket's is long; the ticket inside keeps its name, and is found by listing the folder.
// Only claims this watcher's user made are taken over: the owner folder and the claim folder owned by it and
// writable by no one else, and what the claim recorded (route.json, waiting.json) sound (trust.ts). Anything
// else is reported and left where it is, never followed.
import { link, mkdir, readdir, rename, rm, rmdir } from 'node:fs/promises';
import path from 'node:path';
import { fitName, NAME_MAX } from './names.js';
import { ownerGone, STATUS_NAME, type Owner } from './owner.js';
import { REPORT_FILES } from './reports.js';
import { readRecord } from './route.js';
import { ownFolder, UntrustedError } from './trust.js';
import { readWaiting } from './waiting.js';
import { isOurTemp } from './whole.js';

/** Tells the watcher (once per path) of something in the work area it will not touch. */
export type Distrust = (error: UntrustedError) => void;

export interface Claim {
  /** The claim folder. */
  dir: string;
  /** The ticket's name as it arrived in IN. */
  name: string;
  /** The ticket inside the claim folder. */
  file: string;
}

export class Claims {
  private seq = 0;
  readonly folder: string;

  constructor(readonly work: string, readonly owner: Owner) {
    this.folder = path.join(work, owner.id);
  }

  /** Makes this owner's folder (0700: nobody but us has anything to do in it); it must not exist yet. */
  async open(): Promise<void> {
    await mkdir(this.folder, { mode: 0o700 });
    const info = await ownFolder(this.folder);
    this.folderId = { dev: info.dev, ino: info.ino };
  }

  private folderId: { dev: number; ino: number } | undefined;

  /** Why this owner's folder is not the one made at start any more; null while it is. */
  async changed(): Promise<string | null> {
    try {
      const info = await ownFolder(this.folder);
      return info.dev === this.folderId?.dev && info.ino === this.folderId.ino ? null : `${this.folder}: another folder is in its place`;
    } catch (error) {
      return (error as Error).message;
    }
  }

  private nextDir(name: string): string {
    const seq = `${(this.seq++).toString(36).padStart(4, '0')}~`;
    return path.join(this.folder, seq + fitName(name, NAME_MAX - seq.length));
  }

  /** Takes IN/name; null when someone else took it first (or it went away). */
  async claim(source: string): Promise<Claim | null> {
    const name = path.basename(source);
    const dir = this.nextDir(name);
    await mkdir(dir, { mode: 0o700 }); // as the owner folder: a umask of 002 must not make it one others could have written
    const file = path.join(dir, name);
    try {
      await rename(source, file);
    } catch (error) {
      await rmdir(dir).catch(() => {});
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw error;
    }
    return { dir, name, file };
  }

  /**
   * Takes over a claim folder of a gone owner (or of an earlier life of this one); null when another was faster.
   * Throws UntrustedError, and leaves it, when it is not a claim we made.
   */
  private async adopt(dir: string): Promise<Claim | null> {
    const cut = claimName(dir);
    if (cut === null) return null;
    try {
      await ownFolder(dir);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw error;
    }
    const name = (await ticketIn(dir)) ?? cut;
    const found = { dir, name, file: path.join(dir, name) };
    await readRecord(found);
    await readWaiting(found);
    const mine = this.nextDir(name);
    try {
      await rename(dir, mine);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw error;
    }
    return { dir: mine, name, file: path.join(mine, name) };
  }

  /**
   * Every claim left by gone owners (and this owner's own folder at start); empty owner folders are removed.
   * An owner folder, claim folder or record that is not ours is told to `distrust` and left.
   */
  async orphans(staleMs: number, distrust: Distrust): Promise<Claim[]> {
    const found: Claim[] = [];
    let owners: string[];
    try {
      owners = await readdir(this.work);
    } catch {
      return found;
    }
    for (const o of owners) {
      const folder = path.join(this.work, o);
      if (folder === this.folder || !(await ownerGone(folder, staleMs))) continue;
      let entries: string[];
      try {
        await ownFolder(folder);
        entries = await readdir(folder);
      } catch (error) {
        if (error instanceof UntrustedError) distrust(error);
        continue;
      }
      for (const e of entries) {
        if (e === STATUS_NAME || claimName(e) === null) continue;
        try {
          const claim = await this.adopt(path.join(folder, e));
          if (claim) found.push(claim);
        } catch (error) {
          if (!(error instanceof UntrustedError)) throw error;
          distrust(error);
        }
      }
      await removeOwnerFolder(folder);
    }
    return found;
  }

  /**
   * Removes a finished claim folder. The ticket goes first: a claim folder that still holds its ticket is work
   * to do, so the route record (which says the ticket was placed) must outlive it.
   */
  async release(claim: Claim): Promise<void> {
    await rm(claim.file, { force: true });
    await rm(claim.dir, { recursive: true, force: true });
  }

  /**
   * Puts what a claim took back at `source` untouched (link(2) does not follow a symbolic link, and fails rather
   * than replace a name); false when it cannot, and then it stays in the claim.
   */
  async giveBack(claim: Claim, source: string): Promise<boolean> {
    try {
      await link(claim.file, source);
    } catch {
      return false;
    }
    await this.release(claim);
    return true;
  }

  /** At a clean stop: the owner folder goes unless claims are left in it (waiting for files), which the next start adopts. */
  async close(): Promise<void> {
    await removeOwnerFolder(this.folder);
  }
}

/** The ticket name of a claim folder "<seq>~<name>", or null for anything else. */
export function claimName(dir: string): string | null {
  const base = path.basename(dir);
  const at = base.indexOf('~');
  return at > 0 && at < base.length - 1 ? base.slice(at + 1) : null;
}

/** The files a claim folder holds besides its ticket (and our temporaries, hidden: a ticket's name never starts with a dot). */
const CLAIM_FILES = new Set([...Object.values(REPORT_FILES).map((r) => r.file), 'route.json', 'waiting.json']);

/** Whether a name is one of a claim folder's own files: a job folder of that name could not sit beside them, so it is not taken. */
export const isClaimFileName = (name: string) => CLAIM_FILES.has(name);

/** The ticket's own name in a claim folder: the one file that is not ours; null when there is none. */
async function ticketIn(dir: string): Promise<string | null> {
  try {
    const names = (await readdir(dir)).filter((n) => !CLAIM_FILES.has(n) && !n.startsWith('.'));
    return names.length === 1 ? names[0]! : null;
  } catch {
    return null;
  }
}

async function removeOwnerFolder(folder: string): Promise<void> {
  let entries: string[];
  try {
    entries = await readdir(folder);
  } catch {
    return;
  }
  const ours = (e: string) => e === STATUS_NAME || (e.startsWith(`.${STATUS_NAME}.`) && isOurTemp(e));
  if (entries.some((e) => !ours(e))) return;
  for (const e of entries) await rm(path.join(folder, e), { force: true });
  await rmdir(folder).catch(() => {});
}
