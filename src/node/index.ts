// jdf-filespec/node: what a Node program needs to produce the CLI's reports itself: find the tickets, validate
// them (in worker threads when there are many), write a report of any size; and answer JMF as serve does
// (handleJmf), its outbox kept in bounds by sweepOutbox.
//   const { sources } = await expandPaths(['tickets/']);
//   const { files } = await validateBatch(sources, { profile: 'jdf' }, { maxBytes: DEFAULT_MAX_BYTES, jobs: 2 });
//   await writePieces(process.stdout, reportPieces(buildReport(files, version), 'sarif', { catalog: ruleCatalog }));
export { expandPaths, FOLDER_EXTENSIONS, IGNORE_FILE, type DiscoverOptions, type Discovered } from './discover.js';
export { readTicket, TICKET_EXTENSIONS, type ReadResult, type TicketSource, type UnreadablePath } from './files.js';
export { defaultJobs, internalErrorReport, validateBatch, validateSources, type BatchResult } from './batch.js';
export type { BatchOptions, RunOptions, SourcesOptions } from './batch-options.js';
export { DEFAULT_MAX_BYTES, ENGINE_MAX_BYTES } from './limits.js';
export { writePieces } from './output.js';
export { checkLocalFiles, parseMap, type LocalFileOptions } from './local-files.js';
export { handleJmf, jmfRefusal, type JmfOptions } from './jmf/handle.js';
export { sweepOutbox, type SweepFailure, type SweepOptions, type SweepResult } from './jmf/retention.js';
export type { HttpHandler, HttpRefusal, HttpRequest, HttpResponse } from './serve/types.js';
