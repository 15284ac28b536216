// How the threads of validateBatch share its sources: each claims the next few (a chunk) from a counter in memory
// they all share, checks them, claims again, until none are left. No thread waits on another's event loop to be
// given work, a thread that meets slow tickets simply claims less, and the main thread, which would otherwise wait
// on its workers, checks its share too (on two cores, two workers and an idle main thread were slower than one).
import type { FileFormat, FormattedFile } from '../report/file-pieces.js';
import type { FileReport } from '../report/report.js';
import type { ValidateOptions } from '../ticket/validate.js';
import type { TicketSource, UnreadablePath } from './files.js';
import type { LocalFileOptions } from './local-files.js';

/** The shared counters: NEXT, the first source not yet claimed; DONE, how many sources are taken up (progress). */
export const NEXT = 0;
export const DONE = 1;
export const claimsBuffer = (): Int32Array => new Int32Array(new SharedArrayBuffer(8));

/**
 * Sources a thread claims at a time: few enough that the threads end close together (a chunk of the corpus's
 * slowest tickets takes tens of ms), enough that a thread's reads still run ahead of its checks (READ_AHEAD).
 */
export const CHUNK = 8;

/** A source's result: its reports, or each formatted (formatFile) when the run's format is given, or why it was not read. */
export type Claimed = FileReport | FormattedFile | UnreadablePath;

/** What a worker posts: a chunk's results (from its first source's index), or that it has claimed its last. */
export type ClaimMessage =
  | { from: number; results: Claimed[] }
  | { done: true };

/** How a thread checks a chunk: validateSources with this thread's reads and its own progress tick. */
export type CheckChunk = (chunk: readonly TicketSource[], tick: () => void) => Promise<Claimed[]>;

/** Claims chunks of `sources` until none are left, handing each chunk's results to `put` with its first index. */
export async function claimChunks(sources: readonly TicketSource[], claims: Int32Array, check: CheckChunk, put: (from: number, results: Claimed[]) => void, onTaken?: (done: number) => void): Promise<void> {
  const tick = () => {
    const done = Atomics.add(claims, DONE, 1);
    onTaken?.(done);
  };
  for (let from = Atomics.add(claims, NEXT, CHUNK); from < sources.length; from = Atomics.add(claims, NEXT, CHUNK)) {
    put(from, await check(sources.slice(from, from + CHUNK), tick));
  }
}

/** What a worker that claims chunks is given (batch-worker.ts). */
export interface ClaimingWork {
  sources: readonly TicketSource[];
  options: ValidateOptions;
  maxBytes: number;
  local?: LocalFileOptions;
  debug: boolean;
  /** Small tickets read synchronously (read-small.ts): the thread has nothing else on its event loop. */
  blockingReads: boolean;
  /** The run's format: each file's text is made in the thread that checked it (formatFile). */
  format?: FileFormat;
  claims: Int32Array;
}
