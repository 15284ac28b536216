// The folders a hot folder works with: IN must exist, OK, ERROR and the work folder are made, each is a folder
// of its own. The work folder is where claimed tickets and the decisions about them are kept, so it must be one
// producers cannot write (see trust.ts): by default it sits beside IN, not in it (IN is where producers write),
// and whichever it is, it is refused unless only the watcher's user can change it. It must be on IN's file
// system, since a ticket is claimed by one rename from IN into it.
import { lstat, mkdir, realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import type { WatchOptions } from './options.js';
import { aboveDistrust, folderDistrust } from './trust.js';

/** A folder set-up the watcher cannot work with: the CLI's usage error. */
export class WatchSetupError extends Error {}

export interface Folders {
  in: string;
  ok: string;
  error: string;
  /** The work folder's real path, and the folder it was at start (a folder swapped in later is another inode). */
  work: string;
  workId: { dev: number; ino: number };
}

/** The work folder when --work is not given: hidden beside IN, `PARENT/.IN-NAME.jdf-filespec`. */
function defaultWorkFolder(realIn: string): string {
  return path.join(path.dirname(realIn), `.${path.basename(realIn)}.jdf-filespec`);
}

/** Where the work folder was by default before it moved out of IN: what is left there is never taken up. */
export const OLD_DEFAULT_WORK = '.jdf-filespec';

const FIX = 'give --work a folder on the hot folder\'s file system that only this watcher\'s user can write (and no one else can rename)';

export async function prepareFolders(o: WatchOptions): Promise<Folders> {
  const f = { in: path.resolve(o.in), ok: path.resolve(o.ok), error: path.resolve(o.error) };
  let inInfo;
  try {
    inInfo = await stat(f.in);
  } catch {
    throw new WatchSetupError(`the hot folder ${f.in} does not exist`);
  }
  if (!inInfo.isDirectory()) throw new WatchSetupError(`the hot folder ${f.in} is not a folder`);
  if (f.ok === f.in || f.error === f.in) throw new WatchSetupError('--ok and --error must be other folders than the hot folder');
  const realIn = await realpath(f.in);
  if (o.work === undefined && path.dirname(realIn) === realIn) throw new WatchSetupError(`the hot folder ${realIn} has no folder above it for the work folder: ${FIX}`);
  const work = o.work !== undefined ? path.resolve(o.work) : defaultWorkFolder(realIn);
  if (work === f.ok || work === f.error || work === f.in || work === realIn) throw new WatchSetupError('--work must be a folder of its own');
  for (const dir of [f.ok, f.error]) await mkdir(dir, { recursive: true });
  const sameFs = `must be on the same file system as the hot folder, so that a ticket is claimed by one rename`;
  // Checked before making it: a default beside a hot folder that is a mount point must not be left behind.
  if ((await stat(await nearestExisting(work))).dev !== inInfo.dev) throw new WatchSetupError(`the work folder ${work} ${sameFs}: ${FIX}`);
  await mkdir(work, { recursive: true, mode: 0o700 });
  const real = await realpath(work);
  const info = await lstat(real);
  if (info.dev !== inInfo.dev) throw new WatchSetupError(`the work folder ${real} ${sameFs}: ${FIX}`);
  const why = folderDistrust(info) ?? (await aboveDistrust(real));
  if (why !== null) throw new WatchSetupError(`the work folder ${real} is not safe: ${why}; ${FIX}`);
  return { ...f, work: real, workId: { dev: info.dev, ino: info.ino } };
}

/**
 * Why the work folder is no longer the safe folder it was at start (another folder in its place, its owner or
 * mode changed, a folder above it opened to others); null while it is.
 */
export async function workChanged(f: Folders): Promise<string | null> {
  let info;
  try {
    info = await lstat(f.work);
  } catch (error) {
    return `it is gone (${(error as NodeJS.ErrnoException).code})`;
  }
  if (info.dev !== f.workId.dev || info.ino !== f.workId.ino) return 'another folder (or file) is in its place';
  return folderDistrust(info) ?? (await aboveDistrust(f.work).catch((error: Error) => error.message));
}

async function nearestExisting(p: string): Promise<string> {
  for (;;) {
    try {
      await lstat(p);
      return p;
    } catch {
      const up = path.dirname(p);
      if (up === p) return p;
      p = up;
    }
  }
}
