// How a worker of validateBatch sends its reports to the thread that started it: a piece at a time, each piece
// answered before the next is sent. A big ticket's report as one message had to be held whole twice in the
// receiver (serialized, then deserialized), and a 20 MB ticket of bad references ended the process there, past
// the worker's memory limit (issue 26). In pieces, the receiver holds one piece more than what it keeps, and can
// stop taking a report before it runs out of memory (too-many-findings). The streaming API of issue 33 will hand
// the same pieces to a visitor instead of keeping them.
import type { MessagePort } from 'node:worker_threads';
import type { FileReport } from '../report/report.js';
import type { LocatedFinding, TicketReference } from '../ticket/validate.js';
import type { UnreadablePath } from './files.js';

/** References (or findings) in one message: a few MB of a report at most, whatever the ticket. */
export const PIECE = 1000;

/**
 * What a worker posts. `tick` is progress; a report is `start` (the report, its findings and references empty, and
 * how many there are), its pieces, `end`; `done` ends the results.
 */
export type WorkerMessage =
  | { tick: true }
  | { unreadable: UnreadablePath }
  | { start: FileReport; findings: number; references: number }
  | { findings: LocatedFinding[] }
  | { references: TicketReference[] }
  | { end: true }
  | { done: true };

/** The receiver's answer to each piece: whether it takes more of this report. */
export interface PieceReply {
  more: boolean;
}

/** Sends the results over `port` in order, each report in pieces, waiting for the answer to each piece. */
export async function sendResults(port: MessagePort, results: ReadonlyArray<FileReport | UnreadablePath>): Promise<void> {
  const reply = () => new Promise<PieceReply>((resolve) => port.once('message', resolve));
  for (const result of results) {
    if ('reason' in result) {
      port.postMessage({ unreadable: result } satisfies WorkerMessage);
      continue;
    }
    const { findings, references } = result;
    // The report with its arrays empty, its keys in their order (the JSON report is the same bytes either way).
    port.postMessage({ start: { ...result, findings: [], references: [] }, findings: findings.length, references: references.length } satisfies WorkerMessage);
    let more = true;
    for (let i = 0; more && i < findings.length; i += PIECE) {
      port.postMessage({ findings: findings.slice(i, i + PIECE) } satisfies WorkerMessage);
      more = (await reply()).more;
    }
    for (let i = 0; more && i < references.length; i += PIECE) {
      port.postMessage({ references: references.slice(i, i + PIECE) } satisfies WorkerMessage);
      more = (await reply()).more;
    }
    port.postMessage({ end: true } satisfies WorkerMessage);
  }
  port.postMessage({ done: true } satisfies WorkerMessage);
}
