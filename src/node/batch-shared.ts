// validateBatch over several threads: this one and `jobs - 1` workers claim chunks of the sources from a shared
// counter (batch-claims.ts) until none are left; the reports are put back in the order of the sources. Loaded
// only then (node:worker_threads costs a cold start more than a few tickets' check).
import { Worker } from 'node:worker_threads';
import type { FileReport } from '../report/report.js';
import { revivedFinding } from '../rules/finding.js';
import { CHUNK, claimChunks, claimsBuffer, type CheckChunk, type ClaimingWork, type ClaimMessage } from './batch-claims.js';
import type { TicketSource, UnreadablePath } from './files.js';

type Result = FileReport | UnreadablePath;

/**
 * Validates `sources` in this thread and `jobs - 1` workers, each claiming chunks as it is free; `check` is how
 * this thread checks a chunk. A chunk a worker claimed but never sent (it stopped) is checked here at the end.
 */
export async function validateShared(sources: readonly TicketSource[], jobs: number, work: Omit<ClaimingWork, 'sources' | 'claims'>, check: CheckChunk, onTaken?: (done: number) => void): Promise<Result[]> {
  const claims = claimsBuffer();
  const chunks: Array<Result[] | undefined> = [];
  const put = (from: number, results: Result[]) => {
    chunks[from / CHUNK] = results;
  };
  const workers = Array.from({ length: jobs - 1 }, () => startWorker({ ...work, sources, claims }, put));
  await claimChunks(sources, claims, check, put, onTaken);
  await Promise.all(workers);
  const out: Result[] = [];
  for (let from = 0; from < sources.length; from += CHUNK) out.push(...(chunks[from / CHUNK] ?? (await check(sources.slice(from, from + CHUNK), () => undefined))));
  return out;
}

/** A worker that claims chunks (batch-worker.ts); settles when it has claimed its last, or stopped (failed). */
function startWorker(workerData: ClaimingWork, put: (from: number, results: Result[]) => void): Promise<void> {
  return new Promise((resolve) => {
    const worker = new Worker(new URL('./batch-worker.js', import.meta.url), { workerData: { ...workerData, claiming: true } });
    worker.on('message', (message: ClaimMessage) => {
      if ('from' in message) put(message.from, message.results.map(revivedReport));
      else resolve();
    });
    worker.once('error', () => undefined);
    worker.once('exit', () => resolve());
  });
}

/** A worker's report with its findings' sentences again (structured cloning keeps own properties only). */
function revivedReport(result: Result): Result {
  if ('reason' in result) return result;
  for (const f of result.findings) revivedFinding(f);
  for (const f of result.suppressed ?? []) revivedFinding(f);
  for (const r of result.references) {
    for (const f of r.findings) revivedFinding(f);
    for (const f of r.suppressed ?? []) revivedFinding(f);
  }
  return result;
}
