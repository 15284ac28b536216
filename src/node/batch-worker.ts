// One worker of validateBatch: validates its slice of the sources and sends the reports back, in order and in pieces.
import { parentPort, workerData } from 'node:worker_threads';
import { validateSources } from './batch.js';
import { sendResults } from './report-pieces.js';

const { sources, options, maxBytes, local, progress, debug, isolated } = workerData;
const tick = progress ? () => parentPort!.postMessage({ tick: true }) : undefined;
// A worker of its own for one big ticket (isolated) checks it here; a pool worker sends its big tickets on.
await sendResults(parentPort!, await validateSources(sources, options, maxBytes, local, tick, debug, !isolated));
