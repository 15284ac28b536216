// validateBatch's worker threads: a slice of the sources each when there are many, or one big ticket alone with
// a memory limit. Loaded only then (node:worker_threads and node:v8 cost a cold start more than a small ticket's check).
import { getHeapStatistics } from 'node:v8';
import { Worker } from 'node:worker_threads';
import type { FileReport } from '../report/report.js';
import type { ValidateOptions } from '../ticket/validate.js';
import type { TicketSource, UnreadablePath } from './files.js';
import type { LocalFileOptions } from './local-files.js';

/**
 * The memory a big ticket's worker may use: JDF_FILESPEC_TICKET_HEAP_MIB when set to a whole number, else nine
 * tenths of what this process's own heap may grow to (NODE_OPTIONS=--max-old-space-size raises both).
 */
export function isolatedHeapMiB(): number {
  const set = process.env.JDF_FILESPEC_TICKET_HEAP_MIB;
  if (set !== undefined && /^[1-9][0-9]*$/.test(set)) return Number(set);
  return Math.floor((getHeapStatistics().heap_size_limit / 2 ** 20) * 0.9);
}

/** Validates `sources` in a worker thread (batch-worker.js); `alone`, one big ticket with its heap limited. */
export function runWorker(sources: readonly TicketSource[], options: ValidateOptions, maxBytes: number, local?: LocalFileOptions, tick?: () => void, debug = false, alone?: { isolated: true; heapMiB: number }): Promise<Array<FileReport | UnreadablePath>> {
  return new Promise((resolve, reject) => {
    const resourceLimits = alone ? { maxOldGenerationSizeMb: alone.heapMiB } : undefined;
    const workerData = { sources, options, maxBytes, local, progress: tick !== undefined, debug, isolated: alone !== undefined };
    const worker = new Worker(new URL('./batch-worker.js', import.meta.url), { workerData, ...(resourceLimits ? { resourceLimits } : {}) });
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
