// Validating many tickets: in this thread for a few, in worker threads for many. The report order is always
// the order of the sources, whatever finishes first.
import { stat } from 'node:fs/promises';
import os from 'node:os';
import type { FileReport } from '../report/report.js';
import { settleFindings, silenceFindings } from '../ticket/silence.js';
import { oversizeReport, validateTicket, type ValidateOptions } from '../ticket/validate.js';
import { createFinding } from '../rules/finding.js';
import { internalError, workerFailure } from '../rules/internal.js';
import { notRegularReason, readTicket, type TicketSource, type UnreadablePath } from './files.js';
import { readSmallFileSync } from './read-small.js';
import type { LocalFileOptions } from './local-files.js';
import type { ReportSink } from './report-pieces.js';
import { buffered, peek } from '../package/input.js';
import { detectPackage } from '../package/detect.js';
import { packageKindOf } from './package-kind.js';
import { CHUNK, type Claimed, type ClaimingWork } from './batch-claims.js';
import { sourcesRun, type BatchOptions, type SourcesOptions, type SourcesRun } from './batch-options.js';
import type { FormattedFile } from '../report/file-pieces.js';

// Tickets are met far more often than packages, and most runs ask nothing of the file system: the package
// readers (and the zip library) and the file checks load when first needed.
const packages = () => import('./package-read.js');
const fileChecks = () => import('./local-files.js');
// Worker threads (and node:worker_threads, node:v8) for many tickets or a big one only.
const threads = () => import('./batch-threads.js');
// This thread and workers claiming chunks of the sources (batch-shared.ts), for many tickets.
const shared = () => import('./batch-shared.js');

export interface BatchResult {
  files: FileReport[];
  unreadable: UnreadablePath[];
}

/** Below this many tickets, starting workers costs more than it saves. */
const WORKER_THRESHOLD = 200;

/**
 * Threads that check `count` tickets (this one and the rest workers, batch-shared.ts): this one alone for a few,
 * and on one or two cores; else one per core that is free, by the last minute's load average (os.loadavg; none
 * is counted on Windows, where it is 0). Two cores keep one thread: one already keeps about 1.5 of them busy, V8
 * compiling its hot functions on helper threads (over the corpus's 1266 tickets, of 1.37-1.61 s of CPU, 0.84-0.94 s
 * was the thread's and 0.46-0.64 s the helpers'), and a second isolate loads, warms up and compiles the same code
 * again (--jobs 2: 1.79-2.12 s, the threads 1.04-1.22 s, the helpers 0.74-0.92 s), which fills both cores: the
 * same wall time as --jobs 1 (0.91-1.01 s against 0.89-0.96 s on idle cores) for about 35% more CPU (issue 33).
 */
export function defaultJobs(count: number): number {
  const cores = os.availableParallelism();
  if (count < WORKER_THRESHOLD || cores < 3) return 1;
  const free = cores - Math.floor(os.loadavg()[0] ?? 0);
  return Math.max(1, Math.min(free, Math.ceil(count / WORKER_THRESHOLD)));
}

/**
 * Sources taken up ahead of the one whose report comes next: their stat, open and read wait on the file system
 * while this thread checks another (a run over many small tickets was idle more than half its time, one file
 * at a time). The reports still come in the order of the sources.
 */
const READ_AHEAD = 8;

/**
 * Reads and validates the sources in order (this thread). An exception on one source is its internal-error finding.
 * A ticket file over bigTicketBytes() (batch-threads.ts) is checked in a worker of its own with a memory limit (`isolate`), so that
 * running out of memory is its out-of-memory finding, not the end of the run; one such worker at a time.
 */
export function validateSources(sources: readonly TicketSource[], options: ValidateOptions, o: SourcesOptions = {}): Promise<Array<FileReport | UnreadablePath>> {
  return checkSources(sources, options, sourcesRun(options, o, o.onTicket, o.isolate));
}

async function checkSources(sources: readonly TicketSource[], options: ValidateOptions, run: SourcesRun): Promise<Array<FileReport | UnreadablePath>> {
  if (run.sink) return validateIntoSink(sources, options, run, run.sink);
  const { maxBytes, local, blockingReads, isolate } = run;
  let isolated: Promise<unknown> = Promise.resolve();
  const one = async (source: TicketSource): Promise<Array<FileReport | UnreadablePath>> => {
    try {
      const small = blockingReads ? await validateSmall(source, options, maxBytes, local) : undefined;
      if (small !== undefined) return small;
      const size = isolate ? await bigTicketSize(source, maxBytes) : undefined;
      if (size === undefined) return await validateSource(source, options, maxBytes, local);
      const next = isolated.then(() => validateIsolated(source, size, options, run));
      isolated = next.catch(() => undefined);
      return await next;
    } catch (error) {
      return [{ path: source.path, ...internalErrorReport(error, options.profile, run.debug) }];
    }
  };
  const out: Array<FileReport | UnreadablePath> = [];
  const pending: Array<Promise<Array<FileReport | UnreadablePath>> | undefined> = [];
  const takeUp = () => {
    run.onTicket?.();
    pending.push(one(sources[pending.length]!));
  };
  while (pending.length < Math.min(READ_AHEAD, sources.length)) takeUp();
  for (let i = 0; i < sources.length; i++) {
    out.push(...(await pending[i]!));
    pending[i] = undefined; // its report is in `out` now
    if (pending.length < sources.length) takeUp();
  }
  return out;
}

/**
 * validateSources writing each report to `sink` as it comes (a big ticket's in pieces, from its worker): one
 * source at a time, since a report being written must end before the next begins.
 */
async function validateIntoSink(sources: readonly TicketSource[], options: ValidateOptions, run: SourcesRun, sink: ReportSink): Promise<[]> {
  const { maxBytes, local, blockingReads, isolate } = run;
  for (const source of sources) {
    run.onTicket?.();
    let results: Array<FileReport | UnreadablePath> | undefined;
    try {
      results = blockingReads ? await validateSmall(source, options, maxBytes, local) : undefined;
      const size = results === undefined && isolate ? await bigTicketSize(source, maxBytes) : undefined;
      results ??= size === undefined ? await validateSource(source, options, maxBytes, local) : await validateIsolated(source, size, options, run);
    } catch (error) {
      // A report begun in pieces ends with the error (finish writes it whole when none was begun).
      await sink.finish({ path: source.path, ...internalErrorReport(error, options.profile, run.debug) });
      continue;
    }
    for (const r of results) await ('reason' in r ? sink.unreadable(r) : sink.file(r));
  }
  return [];
}

/** The report of a ticket that could not be checked: the error's message, and its stack with --debug. */
export function internalErrorReport(error: unknown, profile: ValidateOptions['profile'], debug: boolean): Omit<FileReport, 'path'> {
  const message = error instanceof Error ? error.message : String(error);
  const stack = debug && error instanceof Error && error.stack ? error.stack : '';
  const rule = internalError;
  const finding = { code: rule.meta.code, severity: rule.meta.severity[profile ?? 'jdf'] ?? 'error', message: rule.message({ error: message, stack }), spec: rule.meta.spec, line: 1, column: 1 };
  return { encoding: 'unknown', references: [], findings: [finding] };
}

/**
 * A ticket file of at most SMALL_TICKET_BYTES (and maxBytes) read with one synchronous open, fstat and read
 * (read-small.ts), then told from a package by its bytes as packageKindOf tells it; so is a larger one that this
 * thread checks (at most bigTicketBytes and maxBytes: over the corpus, 28 tickets of 0.2-3.7 MB, each a dozen
 * round trips through the thread pool before). Undefined for a file bigger still, standard input or a path that
 * is not there to read, which take validateSource's path.
 */
async function validateSmall(source: TicketSource, options: ValidateOptions, maxBytes: number, local?: LocalFileOptions): Promise<Array<FileReport | UnreadablePath> | undefined> {
  if (source.path === '-') return undefined;
  let read;
  try {
    read = readSmallFileSync(source.path, Math.min(maxBytes, SMALL_TICKET_BYTES), source.noFollow);
    if ('notSmall' in read) {
      const limit = Math.min(maxBytes, (await threads()).bigTicketBytes());
      if (read.size > limit) return undefined;
      read = readSmallFileSync(source.path, limit, source.noFollow);
    }
  } catch {
    return undefined;
  }
  if ('notSmall' in read) return undefined;
  if ('notRegular' in read) return [{ path: source.path, reason: notRegularReason(read.notRegular) }];
  // A package among them is read from these bytes (validateTicketBytes tells it), not from its file again.
  return validateTicketBytes(source, { bytes: read.bytes }, options, maxBytes, local);
}

async function validateSource(source: TicketSource, options: ValidateOptions, maxBytes: number, local?: LocalFileOptions): Promise<Array<FileReport | UnreadablePath>> {
  // A package (MIME or zip, told by its bytes) is read as a stream or with random access, never whole.
  if (source.path === '-') return validateStdin(source, options, maxBytes, local);
  if ((await packageKindOf(source.path, source.noFollow)) !== null) return (await packages()).validatePackageFile(source, { ...options, maxBytes }, local);
  const read = await readTicket(source, maxBytes);
  if ('error' in read) return [{ path: source.path, reason: read.error }];
  return validateTicketBytes(source, 'tooLarge' in read ? { tooLarge: read.tooLarge } : { bytes: read.bytes }, options, maxBytes, local);
}

/**
 * Standard input as the file --stdin-filename names: a package on it streams (a zip is buffered up to
 * --max-bytes, its directory being at its end), a ticket is read up to --max-bytes; either way its folder is the
 * base and --check-exists and --root apply.
 */
async function validateStdin(source: TicketSource, options: ValidateOptions, maxBytes: number, local?: LocalFileOptions): Promise<Array<FileReport | UnreadablePath>> {
  let head: Uint8Array;
  let all: AsyncIterable<Uint8Array>;
  try {
    ({ head, all } = await peek(process.stdin as AsyncIterable<Uint8Array>, 16 * 1024));
  } catch (error) {
    return [{ path: source.path, reason: (error as Error).message }];
  }
  if (detectPackage(head) !== null) return (await packages()).validatePackageSource(all, source, { ...options, maxBytes }, local);
  const whole = await buffered(all, maxBytes);
  return validateTicketBytes(source, 'over' in whole ? { tooLarge: whole.over } : whole, options, maxBytes, local);
}

async function validateTicketBytes(source: TicketSource, read: { bytes: Uint8Array } | { tooLarge: number }, options: ValidateOptions, maxBytes: number, local?: LocalFileOptions): Promise<Array<FileReport | UnreadablePath>> {
  if ('bytes' in read && detectPackage(read.bytes) !== null) return (await packages()).validatePackageSource(read.bytes, source, { ...options, maxBytes }, local);
  const documentUri = source.documentUri;
  const ticket = 'tooLarge' in read
    ? oversizeReport(read.tooLarge, maxBytes, options.profile)
    : validateTicket(read.bytes, { ...options, maxBytes, ...(documentUri ? { documentUri } : {}) });
  if (local && (local.checkExists || local.root !== undefined || local.views !== undefined)) await (await fileChecks()).checkLocalFiles(ticket, documentUri ? { ...local, documentUri } : local);
  // Members of a Container zip (JDF appendix 4.6) are looked up in its directory.
  if (local?.checkExists && ticket.references.some((r) => r.baseSource === 'container')) await (await packages()).checkContainerMembers(ticket, local);
  // What the file checks found, at the run's severities and under the ticket's directives too (a ticket not read: its finding at the run's severity).
  if ('tooLarge' in read) silenceFindings(undefined, ticket, options.rules, false);
  else settleFindings(ticket);
  return [{ path: source.path, ...(documentUri ? { documentUri } : {}), ...ticket }];
}

/**
 * Validates the tickets `sources` names, in this thread for a few and with worker threads for many (`jobs`); the
 * reports in the order of the sources, whatever finishes first.
 */
export async function validateBatch(sources: readonly TicketSource[], options: ValidateOptions, o: BatchOptions = {}): Promise<BatchResult> {
  const { jobs = defaultJobs(sources.length), onProgress } = o;
  let done = 0;
  const tick = onProgress ? () => onProgress(done++, sources.length) : undefined;
  const run = sourcesRun(options, o, tick);
  const { sink } = run;
  const lanes = sharedLanes(sources, jobs);
  const results = lanes > 1
    ? await validateFormatted(sources, lanes, { options, maxBytes: run.maxBytes, ...(run.local ? { local: run.local } : {}), debug: run.debug, blockingReads: run.blockingReads, ...(sink ? { format: sink.format } : {}) }, onProgress)
    : await checkSources(sources, options, run);
  const files: FileReport[] = [];
  const unreadable: UnreadablePath[] = [];
  // The threads' results, formatted for the sink, to the sink in order.
  if (sink) for (const r of results) await ('reason' in r ? sink.unreadable(r) : sink.formatted(r as FormattedFile));
  else for (const r of results) {
    if ('reason' in r) unreadable.push(r);
    else files.push(r as FileReport);
  }
  return { files, unreadable };
}

/** How many threads check `sources` given `jobs`: 1 (this one) for standard input or a chunk's worth. */
export function sharedLanes(sources: readonly TicketSource[], jobs: number): number {
  return sources.some((s) => s.path === '-') ? 1 : Math.max(1, Math.min(jobs, Math.ceil(sources.length / CHUNK)));
}

/**
 * The sources checked by this thread and lanes - 1 workers, each claiming a few at a time (batch-shared.ts); the
 * results in the order of the sources, each report formatted in the thread that checked it when `work.format` is given.
 */
export async function validateFormatted(sources: readonly TicketSource[], lanes: number, work: Omit<ClaimingWork, 'sources' | 'claims'>, onProgress?: (done: number, total: number) => void): Promise<Claimed[]> {
  const { validateShared } = await shared();
  return validateShared(sources, lanes, work, onProgress ? (n) => onProgress(n, sources.length) : undefined);
}

/** Tickets up to this size are checked in this thread whatever the heap (Node's heap is never under 256 times it). */
const SMALL_TICKET_BYTES = 128 * 1024;

/** The size of a ticket file (not standard input, not a package) that is big for this heap and within maxBytes. */
async function bigTicketSize(source: TicketSource, maxBytes: number): Promise<number | undefined> {
  if (source.path === '-') return undefined;
  const size = await stat(source.path).then((s) => (s.isFile() ? s.size : 0), () => 0);
  if (size <= SMALL_TICKET_BYTES || size > maxBytes) return undefined;
  if (size <= (await threads()).bigTicketBytes() || (await packageKindOf(source.path)) !== null) return undefined;
  return size;
}

/**
 * One big ticket in a worker of its own whose heap is limited: past the limit, its out-of-memory finding. With a
 * sink, its report goes there as it is checked (and a report begun there ends with that finding).
 */
async function validateIsolated(source: TicketSource, size: number, options: ValidateOptions, run: SourcesRun): Promise<Array<FileReport | UnreadablePath>> {
  const { isolatedHeapMiB, runWorker } = await threads();
  const limit = isolatedHeapMiB();
  const { sink } = run;
  try {
    return await runWorker(source, options, run, limit);
  } catch (error) {
    const outOfMemory = workerFailure((error as NodeJS.ErrnoException).code, size, limit);
    if (!outOfMemory) throw error;
    const finding = createFinding(outOfMemory.code, outOfMemory.args, { profile: options.profile ?? 'jdf', at: { line: 1, column: 1 } });
    const report: FileReport = { path: source.path, ...(source.documentUri ? { documentUri: source.documentUri } : {}), encoding: 'unknown', references: [], findings: [finding] };
    if (!sink) return [report];
    await sink.finish(report);
    return [];
  }
}
