// Claiming: a ticket is taken by one atomic rename from IN into its own claim folder under the owner's folder in
// the work folder (WORK/<owner>/<seq>~<name>/<name>). A rename of one source succeeds once, so two watchers
// (two processes or two machines on one share) never take the same ticket; a crash leaves the ticket either in
// IN or in a claim folder, which the next start takes up again. The claim folder's name is cut to fit (see
// names.ts) when the ticket's is long; the ticket inside keeps its name, and is found by listing the folder.
import { link, mkdir, readdir, rename, rm, rmdir } from 'node:fs/promises';
import path from 'node:path';
import { fitName, NAME_MAX } from './names.js';
import { ownerGone, STATUS_NAME, type Owner } from './owner.js';
import { REPORT_FILES } from './reports.js';

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

  async open(): Promise<void> {
    await mkdir(this.folder, { recursive: true });
  }

  private nextDir(name: string): string {
    const seq = `${(this.seq++).toString(36).padStart(4, '0')}~`;
    return path.join(this.folder, seq + fitName(name, NAME_MAX - seq.length));
  }

  /** Takes IN/name; null when someone else took it first (or it went away). */
  async claim(source: string): Promise<Claim | null> {
    const name = path.basename(source);
    const dir = this.nextDir(name);
    await mkdir(dir);
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

  /** Takes over a claim folder of a gone owner (or of an earlier life of this one); null when another was faster. */
  private async adopt(dir: string): Promise<Claim | null> {
    const cut = claimName(dir);
    if (cut === null) return null;
    const name = (await ticketIn(dir)) ?? cut;
    const mine = this.nextDir(name);
    try {
      await rename(dir, mine);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw error;
    }
    return { dir: mine, name, file: path.join(mine, name) };
  }

  /** Every claim left by gone owners (and this owner's own folder at start); empty owner folders are removed. */
  async orphans(staleMs: number): Promise<Claim[]> {
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
        entries = await readdir(folder);
      } catch {
        continue;
      }
      for (const e of entries) {
        if (e === STATUS_NAME || claimName(e) === null) continue;
        const claim = await this.adopt(path.join(folder, e));
        if (claim) found.push(claim);
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

/** The files a claim folder holds besides its ticket. */
const CLAIM_FILES = new Set([...Object.values(REPORT_FILES).map((r) => r.file), 'route.json', 'route.json.tmp', 'waiting.json', 'waiting.json.tmp']);

/** The ticket's own name in a claim folder: the one file that is not ours; null when there is none. */
async function ticketIn(dir: string): Promise<string | null> {
  try {
    const names = (await readdir(dir)).filter((n) => !CLAIM_FILES.has(n));
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
  if (entries.some((e) => e !== STATUS_NAME)) return;
  await rm(path.join(folder, STATUS_NAME), { force: true });
  await rmdir(folder).catch(() => {});
}
