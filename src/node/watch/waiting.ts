// Waiting for files: with --check-exists and --wait-for-files, a claimed ticket whose referenced files are
// missing, or there but still changing, waits in its claim and is looked at again (backing off) until they are
// there and settled or the time is up. Each file settles on its own clock; one still changing when the time is
// up is not ready (file-still-changing), as a missing one is not.
import path from 'node:path';
import type { FileReport } from '../../report/report.js';
import { stillChanging } from '../../rules/files.js';
import { createFinding } from '../../rules/finding.js';
import type { LocalFileOptions } from '../local-files.js';
import type { Claim } from './claim.js';
import type { WatchEvent } from './events.js';
import type { Job } from './job.js';
import type { Timings } from './options.js';
import { incurable, missingOf, presentFiles } from './referenced.js';
import { sameSnapshot, snapshot, type Snapshot } from './settle.js';
import { readOwnFile, UntrustedError } from './trust.js';
import { writeTextWhole } from './whole.js';

/** A referenced file's way to stillness: its last snapshot, since when it has not changed, and whether it was seen changing. */
export interface RefLook {
  snap: Snapshot | null;
  since: number;
  changed: boolean;
}

/**
 * True while the ticket waits for its files (missing, or not settled); its stage and due time are set. A ticket
 * with an error no arriving file can change (incurable) does not wait: it goes to ERROR as it is.
 */
export async function waitForFiles(job: Job, reports: FileReport[], local: LocalFileOptions | undefined, t: Timings, emit: (event: WatchEvent) => void): Promise<boolean> {
  if (!local?.checkExists || t.waitForFilesMs <= 0) return false;
  if (incurable(reports) !== undefined) {
    job.missing = [];
    job.unsettled = [];
    return false;
  }
  const now = Date.now();
  job.waitSince ??= (await firstWait(job)) ?? now;
  const timeLeft = job.waitSince + t.waitForFilesMs - now;
  const missing = reports.flatMap(missingOf);
  job.unsettled = [];
  if (missing.length > 0) {
    const first = job.missing.length === 0;
    job.missing = missing;
    if (timeLeft <= 0) return false;
    if (first) emit({ event: 'waiting', ticket: job.name, missing });
    job.refs = undefined;
    return waitAgain(job, now + Math.min(timeLeft, backoff(job, t.recheckMs)));
  }
  job.missing = [];
  const refs = new Map<string, RefLook>();
  for (const { path: p } of reports.flatMap((r) => presentFiles(r, local))) {
    if (refs.has(p)) continue;
    const snap = await snapshot(p);
    const before = job.refs?.get(p);
    const same = before !== undefined && (before.snap === null ? snap === null : sameSnapshot(before.snap, snap));
    refs.set(p, same ? before : { snap, since: now, changed: before !== undefined });
  }
  job.refs = refs;
  const unsettled = [...refs].filter(([, r]) => r.snap === null || now - r.since < t.settleMs);
  if (unsettled.length === 0) return false;
  job.unsettled = unsettled.map(([p]) => p);
  if (timeLeft <= 0) return false;
  const changing = unsettled.filter(([, r]) => r.changed).map(([p]) => p);
  if (changing.length > 0 && !job.saidUnsettled) {
    job.saidUnsettled = true;
    emit({ event: 'waiting', ticket: job.name, missing: [], unsettled: changing });
  }
  return waitAgain(job, Math.min(job.waitSince + t.waitForFilesMs, ...unsettled.map(([, r]) => r.since + t.settleMs)));
}

/** At the end of the wait: each reference to a file still changing gets its file-still-changing finding. */
export function markUnsettled(job: Job, reports: FileReport[], local: LocalFileOptions, t: Timings): void {
  const unsettled = new Set(job.unsettled);
  for (const r of reports) {
    for (const { ref, path: p } of presentFiles(r, local)) {
      if (!unsettled.has(p)) continue;
      const changing = stillChanging(p, t.settleMs, t.waitForFilesMs);
      ref.findings.push(createFinding(changing.code, changing.args, { profile: local.profile ?? 'jdf', at: ref }));
    }
  }
}

function backoff(job: Job, recheckMs: number): number {
  return Math.min(recheckMs * 5, recheckMs * 1.5 ** job.rounds++);
}

async function waitAgain(job: Job, due: number): Promise<true> {
  job.stage = 'waiting';
  job.due = due;
  if (!job.waitRecorded && job.claim) await recordWait(job);
  return true;
}

/**
 * When the ticket first began to wait, kept in its claim folder (waiting.json): a claim taken up again after a
 * crash or a restart goes on with its first clock, so a crash loop cannot keep a ticket waiting forever.
 */
const WAITING = 'waiting.json';

async function firstWait(job: Job): Promise<number | undefined> {
  if (!job.claim) return undefined;
  const since = await readWaiting(job.claim);
  if (since !== undefined) job.waitRecorded = true;
  return since;
}

/** When the claim's ticket first began to wait; undefined when it has not. Throws UntrustedError for a record we did not write. */
export async function readWaiting(claim: Claim): Promise<number | undefined> {
  const file = path.join(claim.dir, WAITING);
  const text = await readOwnFile(file);
  if (text === null) return undefined;
  let since: unknown;
  try {
    since = (JSON.parse(text) as { since?: unknown } | null)?.since;
  } catch {
    throw new UntrustedError(file, 'it is not JSON');
  }
  if (typeof since !== 'number' || !Number.isFinite(since)) throw new UntrustedError(file, 'it does not hold the time the ticket began to wait');
  return since > Date.now() ? undefined : since; // a clock set back (or another machine's): the wait starts again
}

async function recordWait(job: Job): Promise<void> {
  await writeTextWhole(path.join(job.claim!.dir, WAITING), JSON.stringify({ since: job.waitSince }), 0o600);
  job.waitRecorded = true;
}
