// Routing: the claim's reports and ticket are placed in OK or ERROR under one free name. The decision (which
// folder, which name) is written in the claim folder first (route.json), so a crash at any point is finished at
// the next start without a second copy: what is already placed is recognized as ours and kept.
import { readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Counts } from '../../report/check-text.js';
import type { Claim } from './claim.js';
import { flushFolder, placeExclusive, placedByUs } from './move.js';
import type { Names } from './names.js';
import type { ReportFormat } from './options.js';
import { formatsInOrder, REPORT_FILES } from './reports.js';

export type Verdict = 'ok' | 'error';

export interface RouteRecord {
  to: Verdict;
  name: string;
  counts: Counts;
  formats: ReportFormat[];
  /** Why the ticket went where it went, in a few words. */
  reason: string;
  /** The hidden name (plus the file's suffix) a copy across file systems goes through; kept here so that a
   *  restart knows its own copies (they share the placed file's inode) and clears them. */
  temp: string;
}

const RECORD = 'route.json';

/** Where a checked ticket goes, and why in a few words. */
export function verdictOf(counts: Counts, missing: number, waitForFilesMs: number, maxWarnings: number | undefined, unsettled = 0): { to: Verdict; reason: string } {
  if (missing > 0) return { to: 'error', reason: `${missing} referenced file(s) still missing after ${waitForFilesMs} ms` };
  if (unsettled > 0) return { to: 'error', reason: `${unsettled} referenced file(s) still being written after ${waitForFilesMs} ms` };
  if (counts.error > 0) return { to: 'error', reason: `${counts.error} error finding(s)` };
  if (maxWarnings !== undefined && counts.warning > maxWarnings) return { to: 'error', reason: `${counts.warning} warnings, more than --max-warnings ${maxWarnings}` };
  return { to: 'ok', reason: counts.warning > 0 ? `${counts.warning} warning(s), no error` : 'no error finding' };
}

export async function readRecord(claim: Claim): Promise<RouteRecord | null> {
  try {
    return JSON.parse(await readFile(path.join(claim.dir, RECORD), 'utf8')) as RouteRecord;
  } catch {
    return null; // none, or cut short before it was complete: nothing was placed yet
  }
}

async function writeRecord(claim: Claim, record: RouteRecord): Promise<void> {
  const temp = path.join(claim.dir, RECORD + '.tmp');
  await writeFile(temp, JSON.stringify(record));
  await rename(temp, path.join(claim.dir, RECORD));
}

export interface Routed {
  ticket: string;
  report: string;
  reports: string[];
}

/** Places the claim's reports, then its ticket, in the record's folder; a taken name moves on to the next. */
export async function place(claim: Claim, record: RouteRecord, folders: Record<Verdict, string>, names: Names, fresh: boolean): Promise<Routed> {
  const dir = folders[record.to];
  if (fresh) await writeRecord(claim, record);
  const sources: Array<{ src: string; suffix: string }> = [
    ...formatsInOrder(record.formats).map((f) => ({ src: path.join(claim.dir, REPORT_FILES[f].file), suffix: REPORT_FILES[f].suffix })),
    { src: claim.file, suffix: '' },
  ];
  const temps = sources.map((s) => path.join(dir, `${record.temp}${s.suffix || '.ticket'}`));
  for (;;) {
    const ours: string[] = [];
    let taken = false;
    for (const [k, { src, suffix }] of sources.entries()) {
      const dest = path.join(dir, record.name + suffix);
      if ((await placeExclusive(src, dest, temps[k]!)) || (await placedByUs(dest, src, temps[k]!))) {
        ours.push(dest);
        continue;
      }
      taken = true;
      break;
    }
    if (!taken) {
      await flushFolder(dir);
      for (const t of temps) await rm(t, { force: true });
      return { ticket: ours[ours.length - 1]!, report: ours[ours.length - 2]!, reports: ours.slice(0, -1) };
    }
    for (const p of [...ours, ...temps]) await rm(p, { force: true });
    record.name = await names.propose(dir, claim.name, sources.map((s) => s.suffix));
    await writeRecord(claim, record);
  }
}

/**
 * Takes back what a route begun before placed (only what is ours: the same inode as the claim's file or its
 * temporary) and forgets the route, so that the claim can be routed again elsewhere.
 */
export async function unplace(claim: Claim, folders: Record<Verdict, string>): Promise<void> {
  const record = await readRecord(claim);
  if (!record) return;
  const dir = folders[record.to];
  const sources = [...formatsInOrder(record.formats).map((f) => ({ src: path.join(claim.dir, REPORT_FILES[f].file), suffix: REPORT_FILES[f].suffix })), { src: claim.file, suffix: '' }];
  for (const { src, suffix } of sources) {
    const dest = path.join(dir, record.name + suffix);
    const temp = path.join(dir, `${record.temp}${suffix || '.ticket'}`);
    // Where the folder cannot be reached (the reason the route failed, often), there is nothing of ours to take back.
    if (await placedByUs(dest, src, temp)) await rm(dest, { force: true }).catch(() => {});
    await rm(temp, { force: true }).catch(() => {});
  }
  await rm(path.join(claim.dir, RECORD), { force: true });
}

/** The suffixes a route places after the ticket's name: each report's, then '' for the ticket itself. */
export function routeSuffixes(formats: readonly ReportFormat[]): string[] {
  return [...formatsInOrder(formats).map((f) => REPORT_FILES[f].suffix), ''];
}
