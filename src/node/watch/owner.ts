// Who holds a claim: each watcher is an owner with its own folder in the work folder, named host.pid.start.
// A claim whose owner is gone (its process ended on this host, or its status file has stopped being renewed) is
// an orphan, and any watcher may take it over with one atomic rename.
import { randomBytes } from 'node:crypto';
import os from 'node:os';
import { lstat } from 'node:fs/promises';
import path from 'node:path';

export interface Owner {
  id: string;
  host: string;
  pid: number;
}

/** Owners alive in this process (tests run several watchers in one process). */
const LIVE = new Set<string>();

const safeHost = () => os.hostname().replace(/[^A-Za-z0-9-]/g, '_') || 'host';

export function newOwner(): Owner {
  const host = safeHost();
  const id = `${host}.${process.pid}.${Date.now().toString(36)}${randomBytes(3).toString('hex')}`;
  LIVE.add(id);
  return { id, host, pid: process.pid };
}

export function retireOwner(owner: Owner): void {
  LIVE.delete(owner.id);
}

export function parseOwner(id: string): Owner | null {
  const m = /^(.+)\.(\d+)\.[0-9a-z]+$/.exec(id);
  return m ? { id, host: m[1]!, pid: Number(m[2]) } : null;
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export const STATUS_NAME = 'status.json';

/** Whether the owner of `folder` (a child of the work folder) is gone, so its claims may be taken over. */
export async function ownerGone(folder: string, staleMs: number, now = Date.now()): Promise<boolean> {
  const owner = parseOwner(path.basename(folder));
  if (!owner) return false; // not ours to judge
  if (LIVE.has(owner.id)) return false;
  if (owner.host === safeHost()) {
    if (owner.pid === process.pid) return true; // an earlier life of this process id
    if (!processAlive(owner.pid)) return true;
  }
  try {
    return now - (await lstat(path.join(folder, STATUS_NAME))).mtimeMs > staleMs;
  } catch {
    // No status file: gone if the folder itself has not been touched for a while.
    try {
      return now - (await lstat(folder)).mtimeMs > staleMs;
    } catch {
      return false;
    }
  }
}
