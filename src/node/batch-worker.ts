// One worker of validateBatch: validates its slice of the sources and sends the reports back, in order and in pieces.
import { parentPort, workerData } from 'node:worker_threads';
import { detectPackage } from '../package/detect.js';
import { validateSources } from './batch.js';
import { readTicket } from './files.js';
import { sendResults, streamResult } from './report-pieces.js';

const { sources, options, maxBytes, local, progress, debug, isolated, answers } = workerData;
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

// A pool worker sends its big tickets on (validateSources checks them in workers of their own); it reads small
// tickets synchronously, its event loop having nothing else to do.
if (!(await streamed())) await sendResults(parentPort!, await validateSources(sources, options, maxBytes, local, tick, debug, !isolated, undefined, true));
