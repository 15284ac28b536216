// What is in IN but is not taken: a file that is neither a ticket nor a job package (a PDF dropped alone,
// good.jdf.tmp), a symbolic link not named like a ticket (a folder is a job folder: job-folder.ts). Nothing
// there is silently ignored: each is reported once while its name is there, once it has stood still for the
// settle time (a sender's temporary renamed to its ticket's name at once is never reported), listed in the
// status file, and left where it is. Hidden names (a sender's temporaries, ".x.jdf") are not reported.
import { lstat } from 'node:fs/promises';
import path from 'node:path';
import { PACKAGE_EXTENSIONS } from '../discover.js';
import { TICKET_EXTENSIONS } from '../files.js';
import { kindOf } from '../read-regular.js';

const TAKEN = [...new Set([...TICKET_EXTENSIONS, ...PACKAGE_EXTENSIONS, '.zip'])].join(', ');

/** Why a name in IN is not taken, in words. */
function whyNot(name: string, kind: string | null): string {
  if (kind === 'a folder') return `a folder named as a file the watcher keeps beside a claimed job (${name}): not taken as a job folder; rename it`;
  const ext = path.extname(name);
  const what = kind ?? 'a file';
  return `${what}, not a ticket or job package (${ext === '' ? 'no extension' : ext}; taken: ${TAKEN})`;
}

interface Seen {
  ino: number;
  size: number;
  mtimeMs: number;
  since: number;
  said: boolean;
  reason: string;
}

export interface IgnoredEntry {
  name: string;
  reason: string;
}

export class Ignored {
  private seen = new Map<string, Seen>();

  constructor(private readonly settleMs: number) {}

  /**
   * Looks at the names in IN that are not taken (from a sweep); returns the ones to report now. Names gone since
   * are forgotten.
   */
  async look(files: readonly string[], now = Date.now()): Promise<Array<IgnoredEntry & { left: string }>> {
    const present = new Set(files);
    for (const f of this.seen.keys()) if (!present.has(f)) this.seen.delete(f);
    const out: Array<IgnoredEntry & { left: string }> = [];
    for (const file of files) {
      // Reported already: not looked at again while its name is there (a folder of PDFs costs no stats per sweep).
      if (this.seen.get(file)?.said) continue;
      const info = await lstat(file).catch(() => null);
      if (info === null) {
        this.seen.delete(file);
        continue;
      }
      const before = this.seen.get(file);
      const same = before !== undefined && before.ino === info.ino && before.size === info.size && before.mtimeMs === info.mtimeMs;
      if (!same) {
        this.seen.set(file, { ino: info.ino, size: info.size, mtimeMs: info.mtimeMs, since: now, said: false, reason: whyNot(path.basename(file), info.isFile() ? null : kindOf(info)) });
        continue;
      }
      if (now - before.since < this.settleMs) continue;
      before.said = true;
      out.push({ name: path.basename(file), reason: before.reason, left: file });
    }
    return out;
  }

  /** What was reported and is still there, for the status file. */
  list(limit: number): IgnoredEntry[] {
    return [...this.seen].filter(([, s]) => s.said).slice(0, limit).map(([f, s]) => ({ name: path.basename(f), reason: s.reason }));
  }
}
