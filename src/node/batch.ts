// Validating many tickets: in this thread for a few, in worker threads for many. The report order is always
// the order of the sources, whatever finishes first.
import os from 'node:os';
import { Worker } from 'node:worker_threads';
import type { FileReport } from '../report/report.js';
import { oversizeReport, validateTicket, type ValidateOptions } from '../ticket/validate.js';
import { readTicket, type TicketSource, type UnreadablePath } from './files.js';
import { checkLocalFiles, type LocalFileOptions } from './local-files.js';
import { detectPackage, validatePackage } from '../package/validate.js';
import { checkContainerMembers, packageKindOf, validatePackageFile } from './package-read.js';

export interface BatchResult {
  files: FileReport[];
  unreadable: UnreadablePath[];
}

/** Below this many tickets, starting workers costs more than it saves. */
const WORKER_THRESHOLD = 200;

export function defaultJobs(count: number): number {
  if (count < WORKER_THRESHOLD) return 1;
  return Math.max(1, Math.min(os.availableParallelism(), Math.ceil(count / WORKER_THRESHOLD)));
}

/** Reads and validates the sources in order (this thread). */
export async function validateSources(sources: readonly TicketSource[], options: ValidateOptions, maxBytes: number, local?: LocalFileOptions, onTicket?: () => void): Promise<Array<FileReport | UnreadablePath>> {
  const out: Array<FileReport | UnreadablePath> = [];
  for (const source of sources) {
    onTicket?.();
    // A package (MIME or zip, told by its bytes) is read as a stream or with random access, never whole.
    if (source.path !== '-' && (await packageKindOf(source.path)) !== null) {
      out.push(...(await validatePackageFile(source, { ...options, maxBytes }, local)));
      continue;
    }
    const read = await readTicket(source, maxBytes);
    if ('error' in read) {
      out.push({ path: source.path, reason: read.error });
      continue;
    }
    if (!('tooLarge' in read) && detectPackage(read.bytes) !== null) {
      const report = await validatePackage(read.bytes, { ...options, maxBytes });
      out.push(...report.files.map((f) => ({ path: source.path, ...f })));
      continue;
    }
    const ticket = 'tooLarge' in read
      ? oversizeReport(read.tooLarge, maxBytes, options.profile)
      : validateTicket(read.bytes, { ...options, maxBytes, ...(source.documentUri ? { documentUri: source.documentUri } : {}) });
    if (local && (local.checkExists || local.root !== undefined || local.views !== undefined)) await checkLocalFiles(ticket, source.documentUri ? { ...local, documentUri: source.documentUri } : local);
    if (local) await checkContainerMembers(ticket, local);
    out.push({ path: source.path, ...(source.documentUri ? { documentUri: source.documentUri } : {}), ...ticket });
  }
  return out;
}

export async function validateBatch(
  sources: readonly TicketSource[],
  options: ValidateOptions,
  maxBytes: number,
  jobs = defaultJobs(sources.length),
  local?: LocalFileOptions,
  /** Called as each ticket is taken up, with the number done so far. */
  onProgress?: (done: number, total: number) => void,
): Promise<BatchResult> {
  let done = 0;
  const tick = onProgress ? () => onProgress(done++, sources.length) : undefined;
  let results: Array<FileReport | UnreadablePath>;
  const workers = Math.min(jobs, sources.filter((s) => s.path !== '-').length);
  if (workers <= 1 || sources.some((s) => s.path === '-')) {
    results = await validateSources(sources, options, maxBytes, local, tick);
  } else {
    // Contiguous slices keep each worker's reads near each other on disk; the slices are joined back in order.
    const size = Math.ceil(sources.length / workers);
    const slices = Array.from({ length: workers }, (_, k) => sources.slice(k * size, (k + 1) * size)).filter((s) => s.length > 0);
    const parts = await Promise.all(slices.map((slice) => runWorker(slice, options, maxBytes, local, tick)));
    results = parts.flat();
  }
  const files: FileReport[] = [];
  const unreadable: UnreadablePath[] = [];
  for (const r of results) {
    if ('reason' in r) unreadable.push(r);
    else files.push(r);
  }
  return { files, unreadable };
}

function runWorker(sources: readonly TicketSource[], options: ValidateOptions, maxBytes: number, local?: LocalFileOptions, tick?: () => void): Promise<Array<FileReport | UnreadablePath>> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL('./batch-worker.js', import.meta.url), { workerData: { sources, options, maxBytes, local, progress: tick !== undefined } });
    worker.on('message', (message: { tick: true } | { results: Array<FileReport | UnreadablePath> }) => {
      if ('tick' in message) tick?.();
      else resolve(message.results);
    });
    worker.once('error', reject);
    worker.once('exit', (code) => {
      if (code !== 0) reject(new Error(`a validation worker stopped with exit code ${code}`));
    });
  });
}
