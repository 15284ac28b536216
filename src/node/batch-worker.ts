// One worker of validateBatch: validates its slice of the sources and posts the reports back, in order.
import { parentPort, workerData } from 'node:worker_threads';
import { validateSources } from './batch.js';

const { sources, options, maxBytes, local, progress, debug } = workerData;
const tick = progress ? () => parentPort!.postMessage({ tick: true }) : undefined;
parentPort!.postMessage({ results: await validateSources(sources, options, maxBytes, local, tick, debug) });
