// One worker of validateBatch: one that claims chunks of the sources beside the main thread (batch-shared.ts), or
// one that checks a big ticket alone (batch-threads.ts) and sends its report back in pieces.
import { parentPort, workerData } from 'node:worker_threads';
import { detectPackage } from '../package/detect.js';
import { validateSources } from './batch.js';
import { claimChunks, type ClaimMessage } from './batch-claims.js';
import { formatted } from './batch-shared.js';
import { readTicket } from './files.js';
import { sendResults, streamResult } from './report-pieces.js';

const { sources, options, maxBytes, local, progress, debug, isolated, answers, claiming, claims, format, blockingReads } = workerData;
const tick = progress ? () => parentPort!.postMessage({ tick: true }) : undefined;

/**
 * A worker of its own for one big ticket (isolated) sends its report as it checks it, when nothing needs the
 * report whole (the file checks of --check-exists, --root and views do); true when it did.
 */
async function streamed(): Promise<boolean> {
  if (!isolated || answers === undefined || sources.length !== 1) return false;
  if (local && (local.checkExists || local.root !== undefined || local.views !== undefined)) return false;
  const source = sources[0];
  const read = await readTicket(source, maxBytes);
  // Not read, over the limit or a package: as validateSources says it.
  if (!('bytes' in read) || detectPackage(read.bytes) !== null) return false;
  const documentUri: string | undefined = source.documentUri;
  streamResult(parentPort!, { path: source.path, ...(documentUri ? { documentUri } : {}) }, read.bytes, { ...options, maxBytes, ...(documentUri ? { documentUri } : {}) }, answers, debug);
  parentPort!.postMessage({ done: true });
  return true;
}

/** A worker that claims chunks of the sources (batch-shared.ts) sends each chunk's results (formatted, given the run's format) as it ends them. */
async function claimed(): Promise<boolean> {
  if (claiming !== true) return false;
  const check = async (chunk: typeof sources, tick: () => void) => formatted(await validateSources(chunk, options, maxBytes, local, tick, debug, true, undefined, blockingReads), format);
  await claimChunks(sources, claims, check, (from, results) => parentPort!.postMessage({ from, results } satisfies ClaimMessage));
  parentPort!.postMessage({ done: true } satisfies ClaimMessage);
  return true;
}

// A big ticket's worker whose report cannot be sent as it is checked (the file checks need it whole, or it is a
// package) checks it with validateSources and sends the report in pieces.
if (!(await claimed()) && !(await streamed())) await sendResults(parentPort!, await validateSources(sources, options, maxBytes, local, tick, debug, !isolated, undefined, true));
