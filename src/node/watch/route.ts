// Routing: the claim's reports and ticket are placed in OK or ERROR under one free name. The decision (which
// folder, which name) is written in the claim folder first (route.json), so a crash at any point is finished at
// the next start without a second copy: what is already placed is recognized as ours and kept. A record read
// back is input like any other: it is used only when it is one this watcher could have written for this claim
// (the routed name one it would have made from the ticket's own name), else it is refused (UntrustedError).
import { lstat, rm } from 'node:fs/promises';
import path from 'node:path';
import type { Counts } from '../../report/check-text.js';
import type { Claim } from './claim.js';
import type { FirstError } from './referenced.js';
import { placeFolder } from './job-folder.js';
import { flushFolder, placeExclusive, placedByUs } from './move.js';
import { candidate, NAME_MAX, type Names } from './names.js';
import type { ReportFormat } from './options.js';
import { formatsInOrder, REPORT_FILES } from './reports.js';
import { isSingleSegment, ownRegularFile, readOwnFile, UntrustedError } from './trust.js';
import { writeTextWhole } from './whole.js';

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

/** Where a checked ticket goes, and why in a few words, naming the first error (`first`) when there is one. */
export function verdictOf(counts: Counts, missing: number, waitForFilesMs: number, maxWarnings: number | undefined, unsettled = 0, first?: FirstError): { to: Verdict; reason: string } {
  const naming = first ? `; the first: ${first.code}: ${first.message}` : '';
  if (missing > 0) return { to: 'error', reason: `${missing} referenced file(s) still missing after ${waitForFilesMs} ms${naming}` };
  if (unsettled > 0) return { to: 'error', reason: `${unsettled} referenced file(s) still being written after ${waitForFilesMs} ms${naming}` };
  if (counts.error > 0) return { to: 'error', reason: `${counts.error} error finding(s)${naming}` };
  if (maxWarnings !== undefined && counts.warning > maxWarnings) return { to: 'error', reason: `${counts.warning} warnings, more than --max-warnings ${maxWarnings}` };
  return { to: 'ok', reason: counts.warning > 0 ? `${counts.warning} warning(s), no error` : 'no error finding' };
}

/** The claim's route record; null when there is none. Throws UntrustedError for one this watcher did not write. */
export async function readRecord(claim: Claim): Promise<RouteRecord | null> {
  const file = path.join(claim.dir, RECORD);
  const text = await readOwnFile(file);
  if (text === null) return null;
  let record: unknown;
  try {
    record = JSON.parse(text);
  } catch {
    throw new UntrustedError(file, 'it is not JSON'); // written whole (renamed into place), so never cut short
  }
  const why = recordDistrust(record, claim.name);
  if (why !== null) throw new UntrustedError(file, why);
  return record as RouteRecord;
}

const FORMATS: readonly string[] = Object.keys(REPORT_FILES);
const isCount = (n: unknown) => Number.isSafeInteger(n) && (n as number) >= 0;

/** What is wrong with a route record read back for the ticket `ticket`; null when it is one we could have written. */
function recordDistrust(r: unknown, ticket: string): string | null {
  if (typeof r !== 'object' || r === null) return 'it is not a route record';
  const x = r as Record<string, unknown>;
  if (x.to !== 'ok' && x.to !== 'error') return `"to" is not "ok" or "error"`;
  if (!Array.isArray(x.formats) || x.formats.length === 0 || !x.formats.every((f) => FORMATS.includes(f as string))) return 'its report formats are not ours';
  const c = x.counts as Record<string, unknown> | null;
  if (typeof c !== 'object' || c === null || !isCount(c.error) || !isCount(c.warning) || !isCount(c.info)) return 'its counts are not counts';
  if (typeof x.reason !== 'string') return 'its reason is not a text';
  if (typeof x.temp !== 'string' || !/^\.jdf-filespec-[0-9a-f]{8}\.part$/.test(x.temp)) return 'its temporary name is not one we make';
  if (!isSingleSegment(x.name) || !isRoutedName(x.name, ticket, routeSuffixes(x.formats as ReportFormat[]))) return `its routed name ${JSON.stringify(x.name)} is not one made from the ticket's name ${JSON.stringify(ticket)}`;
  return null;
}

/** Whether `name` is a name Names.propose makes for `ticket`: candidate(ticket, k) for some k (job.jdf, job-2.jdf, ...). */
function isRoutedName(name: string, ticket: string, suffixes: readonly string[]): boolean {
  const room = NAME_MAX - Math.max(0, ...suffixes.map((s) => Buffer.byteLength(s)));
  if (name === candidate(ticket, 1, room)) return true;
  const ext = path.extname(name);
  const k = /-([1-9]\d{0,8})$/.exec(name.slice(0, name.length - ext.length))?.[1];
  return k !== undefined && name === candidate(ticket, Number(k), room);
}

async function writeRecord(claim: Claim, record: RouteRecord): Promise<void> {
  await writeTextWhole(path.join(claim.dir, RECORD), JSON.stringify(record), 0o600);
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
  // A report linked into OK or ERROR is one we wrote: a regular file of our own, never a link planted in its place.
  for (const { src, suffix } of sources) if (suffix !== '') await ownRegularFile(src);
  const temps = sources.map((s) => path.join(dir, `${record.temp}${s.suffix || '.ticket'}`));
  // A job folder goes last, by one rename (job-folder.ts): while it is in the claim it is not placed.
  const folder = (await lstat(claim.file)).isDirectory();
  const placeOne = async (k: number, src: string, dest: string) =>
    folder && k === sources.length - 1 ? placeFolder(src, dest) : (await placeExclusive(src, dest, temps[k]!)) || (await placedByUs(dest, src, temps[k]!));
  for (;;) {
    const ours: string[] = [];
    let taken = false;
    for (const [k, { src, suffix }] of sources.entries()) {
      const dest = path.join(dir, record.name + suffix);
      if (await placeOne(k, src, dest)) {
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
