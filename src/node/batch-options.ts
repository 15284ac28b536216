// How validateBatch and validateSources are told how to run: one object of named fields after the ticket's own
// options (ValidateOptions). A field may be given as undefined, which is its default.
import { DEFAULT_MAX_BYTES } from './limits.js';
import type { ValidateOptions } from '../ticket/validate.js';
import type { LocalFileOptions } from './local-files.js';
import type { ReportSink } from './report-pieces.js';

/** What validateBatch and validateSources both take: how big a ticket may be, the file checks, where the reports go. */
export interface RunOptions {
  /** The largest ticket read, in bytes; a larger one is its too-large finding. Default: `options.maxBytes`, else DEFAULT_MAX_BYTES. */
  maxBytes?: number | undefined;
  /** The file checks (--check-exists, --root, --map, views). */
  local?: LocalFileOptions | undefined;
  /** Put the stack trace in internal-error findings. */
  debug?: boolean | undefined;
  /** Where the reports go as they come, in order; then none are returned. */
  sink?: ReportSink | undefined;
  /** Small tickets read synchronously (read-small.ts): for a run with nothing else on this thread's event loop. */
  blockingReads?: boolean | undefined;
}

/** validateBatch's third argument. */
export interface BatchOptions extends RunOptions {
  /** Threads that check the tickets: this one and jobs - 1 workers, each claiming a few at a time. Default: defaultJobs(sources.length). */
  jobs?: number | undefined;
  /** Called as each ticket is taken up, with the number done so far and the number of sources. */
  onProgress?: ((done: number, total: number) => void) | undefined;
}

/** validateSources's third argument. */
export interface SourcesOptions extends RunOptions {
  /** Called as each source is taken up. */
  onTicket?: (() => void) | undefined;
  /** A ticket file too big for this thread's heap is checked in a worker of its own (default true). */
  isolate?: boolean | undefined;
}

/** A run's options with their defaults in place (but jobs, which needs the sources). */
export interface SourcesRun {
  maxBytes: number;
  local?: LocalFileOptions;
  onTicket?: () => void;
  debug: boolean;
  isolate: boolean;
  sink?: ReportSink;
  blockingReads: boolean;
}

/**
 * The run's options (only RunOptions' fields of `run`) with their defaults: maxBytes the ticket options' or
 * DEFAULT_MAX_BYTES, no stack traces, asynchronous reads; `onTicket` and `isolate` (default true) are validateSources's.
 */
export function sourcesRun(options: ValidateOptions, run: RunOptions, onTicket?: () => void, isolate?: boolean): SourcesRun {
  const { local, sink } = run;
  return {
    maxBytes: run.maxBytes ?? options.maxBytes ?? DEFAULT_MAX_BYTES, debug: run.debug ?? false, isolate: isolate ?? true, blockingReads: run.blockingReads ?? false,
    ...(local ? { local } : {}), ...(sink ? { sink } : {}), ...(onTicket ? { onTicket } : {}),
  };
}
