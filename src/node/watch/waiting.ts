// Waiting for files: with --check-exists and --wait-for-files, a claimed ticket whose referenced files are
// missing, or there but still changing, waits in its claim and is looked at again (backing off) until they are
// there and settled or the time is up.
import type { FileReport } from '../../report/report.js';
import type { LocalFileOptions } from '../local-files.js';
import type { WatchEvent } from './events.js';
import type { Job } from './job.js';
import type { Timings } from './options.js';
import { missingOf, presentFiles } from './referenced.js';
import { sameSnapshot, snapshot, type Snapshot } from './settle.js';

/** True while the ticket waits for its files (missing, or not settled); its stage and due time are set. */
export async function waitForFiles(job: Job, reports: FileReport[], local: LocalFileOptions | undefined, t: Timings, emit: (event: WatchEvent) => void): Promise<boolean> {
  if (!local?.checkExists || t.waitForFilesMs <= 0) return false;
  const now = Date.now();
  job.waitSince ??= now;
  const timeLeft = job.waitSince + t.waitForFilesMs - now;
  const missing = reports.flatMap(missingOf);
  if (timeLeft <= 0) {
    job.missing = missing;
    return false;
  }
  if (missing.length > 0) {
    if (job.missing.length === 0) emit({ event: 'waiting', ticket: job.name, missing });
    job.missing = missing;
    job.refs = undefined;
    return waitAgain(job, now + Math.min(timeLeft, backoff(job, t.recheckMs)));
  }
  job.missing = [];
  const refs = new Map<string, Snapshot | null>();
  for (const p of reports.flatMap((r) => presentFiles(r, local))) refs.set(p, await snapshot(p));
  if (!job.refs || !sameRefs(job.refs, refs)) {
    job.refs = refs;
    job.refsSince = now;
  }
  if (now - job.refsSince! >= t.settleMs) return false;
  return waitAgain(job, Math.min(job.waitSince + t.waitForFilesMs, job.refsSince! + t.settleMs));
}

function backoff(job: Job, recheckMs: number): number {
  return Math.min(recheckMs * 5, recheckMs * 1.5 ** job.rounds++);
}

function waitAgain(job: Job, due: number): true {
  job.stage = 'waiting';
  job.due = due;
  return true;
}

function sameRefs(a: Map<string, Snapshot | null>, b: Map<string, Snapshot | null>): boolean {
  if (a.size !== b.size) return false;
  for (const [k, v] of a) {
    const w = b.get(k);
    if (!b.has(k) || (v === null ? w !== null : !sameSnapshot(v, w))) return false;
  }
  return true;
}
