// One worker of validateBatch: one that claims chunks of the sources beside the main thread (batch-shared.ts), or
// one that checks a big ticket alone (batch-threads.ts) and sends its report back in pieces.
import { parentPort, workerData } from 'node:worker_threads';
import { detectPackage } from '../package/detect.js';
import { validateSources } from './batch.js';
import { claimChunks, type ClaimMessage } from './batch-claims.js';
import { formatted } from './batch-shared.js';
import { readTicket } from './files.js';
import { sendResults, streamResult } from './report-pieces.js';

const { source, sources, options, maxBytes, local, debug, answers, claiming, claims, format, blockingReads } = workerData;

/**
 * The big ticket's report sent as it is checked, when nothing needs the report whole (the file checks of
 * --check-exists, --root and views do); true when it was.
 */
async function streamed(): Promise<boolean> {
  if (local && (local.checkExists || local.root !== undefined || local.views !== undefined)) return false;
  const read = await readTicket(source, maxBytes);
  // Not read, over the limit or a package: as validateSources says it.
  if (!('bytes' in read) || detectPackage(read.bytes) !== null) return false;
  const documentUri: string | undefined = source.documentUri;
  streamResult(parentPort!, { path: source.path, ...(documentUri ? { documentUri } : {}) }, read.bytes, { ...options, maxBytes, ...(documentUri ? { documentUri } : {}) }, answers, debug);
  parentPort!.postMessage({ done: true });
  return true;
}

/** A worker that claims chunks of the sources (batch-shared.ts) sends each chunk's results (formatted, given the run's format) as it ends them. */
async function claimed(): Promise<void> {
  const check = async (chunk: typeof sources, tick: () => void) => formatted(await validateSources(chunk, options, { maxBytes, local, onTicket: tick, debug, blockingReads }), format);
  await claimChunks(sources, claims, check, (from, results) => parentPort!.postMessage({ from, results } satisfies ClaimMessage));
  parentPort!.postMessage({ done: true } satisfies ClaimMessage);
}

// A big ticket whose report cannot be sent as it is checked (the file checks need it whole, or it is a package)
// is checked with validateSources (here, not in a worker again) and its report sent in pieces.
if (claiming === true) await claimed();
else if (!(await streamed())) await sendResults(parentPort!, await validateSources([source], options, { maxBytes, local, debug, isolate: false, blockingReads: true }));
