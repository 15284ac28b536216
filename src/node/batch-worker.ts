// One worker of validateBatch: validates its slice of the sources and posts the reports back, in order.
import { parentPort, workerData } from 'node:worker_threads';
import { validateSources } from './batch.js';

const { sources, options, maxBytes, local, progress, debug, isolated } = workerData;
const tick = progress ? () => parentPort!.postMessage({ tick: true }) : undefined;
// A worker of its own for one big ticket (isolated) checks it here; a pool worker sends its big tickets on.
parentPort!.postMessage({ results: await validateSources(sources, options, maxBytes, local, tick, debug, !isolated) });
