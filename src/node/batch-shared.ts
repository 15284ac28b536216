// validateBatch over several threads: this one and `jobs - 1` workers claim chunks of the sources from a shared
// counter (batch-claims.ts) until none are left; the results are put back in the order of the sources. Loaded
// only then (node:worker_threads costs a cold start more than a few tickets' check).
import { Worker } from 'node:worker_threads';
import { revivedFinding } from '../rules/finding.js';
import { validateSources } from './batch.js';
import { CHUNK, claimChunks, claimsBuffer, type CheckChunk, type Claimed, type ClaimingWork, type ClaimMessage } from './batch-claims.js';
import { formatFile, type FileFormat } from '../report/file-pieces.js';
import type { FileReport } from '../report/report.js';
import type { TicketSource, UnreadablePath } from './files.js';

/**
 * Validates `sources` in this thread and `jobs - 1` workers, each claiming chunks as it is free, each report
 * formatted where it was checked when `work.format` is given. A chunk a worker claimed but never sent (it
 * stopped) is checked here at the end.
 */
export async function validateShared(sources: readonly TicketSource[], jobs: number, work: Omit<ClaimingWork, 'sources' | 'claims'>, onTaken?: (done: number) => void): Promise<Claimed[]> {
  const claims = claimsBuffer();
  const chunks: Array<Claimed[] | undefined> = [];
  const put = (from: number, results: Claimed[]) => {
    chunks[from / CHUNK] = results;
  };
  const check: CheckChunk = async (chunk, tick) => formatted(await validateSources(chunk, work.options, { maxBytes: work.maxBytes, local: work.local, onTicket: tick, debug: work.debug, blockingReads: work.blockingReads }), work.format);
  const workers = Array.from({ length: jobs - 1 }, () => startWorker({ ...work, sources, claims }, put));
  await claimChunks(sources, claims, check, put, onTaken);
  await Promise.all(workers);
  const out: Claimed[] = [];
  for (let from = 0; from < sources.length; from += CHUNK) out.push(...(chunks[from / CHUNK] ?? (await check(sources.slice(from, from + CHUNK), () => undefined))));
  return out;
}

/** A worker that claims chunks (batch-worker.ts); settles when it has claimed its last, or stopped (failed). */
function startWorker(workerData: ClaimingWork, put: (from: number, results: Claimed[]) => void): Promise<void> {
  return new Promise((resolve) => {
    const worker = new Worker(new URL('./batch-worker.js', import.meta.url), { workerData: { ...workerData, claiming: true } });
    worker.on('message', (message: ClaimMessage) => {
      if ('from' in message) put(message.from, message.results.map(revived));
      else resolve();
    });
    worker.once('error', () => undefined);
    worker.once('exit', () => resolve());
  });
}

/** A worker's report with its findings' sentences again (structured cloning keeps own properties only). */
function revived(result: Claimed): Claimed {
  if (!('findings' in result)) return result;
  for (const f of result.findings) revivedFinding(f);
  for (const f of result.suppressed ?? []) revivedFinding(f);
  for (const r of result.references) {
    for (const f of r.findings) revivedFinding(f);
    for (const f of r.suppressed ?? []) revivedFinding(f);
  }
  return result;
}

/** Results as a thread hands them on: each report formatted when the run's format is given. */
export async function formatted(results: ReadonlyArray<FileReport | UnreadablePath>, format: FileFormat | undefined): Promise<Claimed[]> {
  if (format === undefined) return [...results];
  const indexes = format.format === 'sarif' ? await (sarifIndexes ??= catalogIndexes()) : NO_RULES;
  return results.map((r) => ('reason' in r ? r : formatFile(r, format, indexes)));
}

const NO_RULES: ReadonlyMap<string, number> = new Map();
// SARIF's results name their rule by its index in the catalog: worked out once a thread, not for every chunk.
let sarifIndexes: Promise<ReadonlyMap<string, number>> | undefined;
const catalogIndexes = async () => (await import('../report/sarif.js')).ruleIndexes((await import('../rules/catalog.js')).ruleCatalog);
