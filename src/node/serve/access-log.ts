// The access log of `serve`: one JSON object a line per answered request, to a stream (standard error or a file
// opened for appending). The request's query is left out (it may carry what a sender did not mean to log).
import type { Writable } from 'node:stream';

export interface AccessEntry {
  time: string;
  method: string;
  path: string;
  status: number;
  /** Bytes of the answer's body. */
  bytes: number;
  ms: number;
  user?: string;
  job?: { accepted: boolean; returnCode: number };
  /** Why the server answered the request itself (a limit, authentication, shutdown), when it did. */
  refused?: string;
  /** The client went away before the answer was sent. */
  aborted?: boolean;
}

/** The request target's path, without its query. */
export function pathOf(target: string): string {
  const q = target.search(/[?#]/);
  return q < 0 ? target : target.slice(0, q);
}

/** Writes each entry as one line to stream. */
export function accessLogTo(stream: Writable): (entry: AccessEntry) => void {
  return (entry) => {
    stream.write(JSON.stringify(entry) + '\n');
  };
}
