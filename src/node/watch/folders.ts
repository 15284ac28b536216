// The folders a hot folder works with: IN must exist, OK, ERROR and the work folder are made, each is a folder
// of its own, and the work folder is on IN's file system (a claim is one rename).
import { mkdir, stat } from 'node:fs/promises';
import path from 'node:path';
import type { WatchOptions } from './options.js';

/** A folder set-up the watcher cannot work with: the CLI's usage error. */
export class WatchSetupError extends Error {}

export interface Folders {
  in: string;
  ok: string;
  error: string;
  work: string;
}

export async function prepareFolders(o: WatchOptions): Promise<Folders> {
  const f: Folders = { in: path.resolve(o.in), ok: path.resolve(o.ok), error: path.resolve(o.error), work: path.resolve(o.work ?? path.join(o.in, '.jdf-filespec')) };
  let inInfo;
  try {
    inInfo = await stat(f.in);
  } catch {
    throw new WatchSetupError(`the hot folder ${f.in} does not exist`);
  }
  if (!inInfo.isDirectory()) throw new WatchSetupError(`the hot folder ${f.in} is not a folder`);
  if (f.ok === f.in || f.error === f.in) throw new WatchSetupError('--ok and --error must be other folders than the hot folder');
  if (f.work === f.ok || f.work === f.error || f.work === f.in) throw new WatchSetupError('--work must be a folder of its own');
  for (const dir of [f.ok, f.error, f.work]) await mkdir(dir, { recursive: true });
  if ((await stat(f.work)).dev !== inInfo.dev) throw new WatchSetupError(`--work ${f.work} must be on the same file system as the hot folder, so that a ticket is claimed by one rename`);
  return f;
}
