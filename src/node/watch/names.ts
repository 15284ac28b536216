// Names that never collide in OK and ERROR: job.jdf, then job-2.jdf, job-3.jdf, ... A name is only proposed
// here; it is taken by the exclusive link in move.ts, so two watchers proposing the same name cannot both win.
import path from 'node:path';
import { exists } from './move.js';

export function candidate(name: string, k: number): string {
  if (k <= 1) return name;
  const ext = path.extname(name);
  return `${name.slice(0, name.length - ext.length)}-${k}${ext}`;
}

export class Names {
  /** Where to start looking next, per folder and name: a thousand job.jdf cost a thousand looks, not a million. */
  private next = new Map<string, number>();

  /** A name under which neither the ticket nor any of its reports (`suffixes`, '' for the ticket) exists yet. */
  async propose(dir: string, name: string, suffixes: readonly string[]): Promise<string> {
    const key = `${dir}\u0000${name}`;
    for (let k = this.next.get(key) ?? 1; ; k++) {
      const c = candidate(name, k);
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
