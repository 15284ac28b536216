// How a worker of validateBatch sends its reports to the thread that started it: a piece at a time, each piece
// answered before the next is sent. A big ticket's report as one message had to be held whole twice in the
// receiver (serialized, then deserialized), and a 20 MB ticket of bad references ended the process there, past
// the worker's memory limit (issue 26). In pieces, the receiver holds one piece more than what it keeps, and can
// stop taking a report before it runs out of memory (too-many-findings). A big ticket is sent as it is checked
// (streamResult, validateTicketStream): the worker never holds its report, and waits on the receiver's answer
// through shared memory, the walk being synchronous.
import type { MessagePort } from 'node:worker_threads';
import type { FileFormat, FormattedFile } from '../report/file-pieces.js';
import type { FileReport } from '../report/report.js';
import { validateTicketStream, type LocatedFinding, type TicketReference, type TicketSummary, type ValidateOptions } from '../ticket/validate.js';
import { internalErrorReport } from './batch.js';
import type { UnreadablePath } from './files.js';

/** References (or findings) in one message: a few MB of a report at most, whatever the ticket. */
export const PIECE = 1000;

/**
 * What a worker posts. A report is `start` (the report, its findings and references empty, and
 * how many there are; a streamed one, `streamed`, says so at its `end` with the rest of its report), its
 * pieces, `end`; `done` ends the results.
 */
export type WorkerMessage =
  | { unreadable: UnreadablePath }
  | { start: FileReport; findings: number; references: number }
  | { start: FileReport; streamed: true }
  | { findings: LocatedFinding[] }
  | { references: TicketReference[] }
  | { end: true; summary?: TicketSummary; failed?: LocatedFinding }
  | { done: true };

/**
 * The receiver's answers to a streamed report, in memory both threads share: ANSWERED, how many pieces it has
 * taken; MORE, 1 while it takes more of this report.
 */
export const ANSWERED = 0;
export const MORE = 1;
export const answersBuffer = (): Int32Array => new Int32Array(new SharedArrayBuffer(8));

/**
 * Where validateBatch hands each report as it comes, in the order of the sources, instead of keeping it (the
 * CLI's JSON writer): whole, or a big ticket's in pieces (begin, its references a piece at a time, finish with
 * the rest of it, its references empty). Each call's promise settles when the sink is ready for the next.
 */
export interface ReportSink {
  /** The format of its files' text, for a thread that formats the files it checks (batch-shared.ts). */
  readonly format: FileFormat;
  file(report: FileReport): Promise<void>;
  /** A file formatted where it was checked (formatFile with `format`): the same text `file` writes. */
  formatted(file: FormattedFile): Promise<void>;
  begin(head: FileReport): Promise<void>;
  references(references: readonly TicketReference[]): Promise<void>;
  finish(rest: FileReport): Promise<void>;
  unreadable(unreadable: UnreadablePath): void;
}

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

/**
 * Validates one ticket's bytes as a stream (validateTicketStream) and posts its report as it goes: `head` (the
 * path and document URI) with the encoding, a piece of references at a time, the findings, then the end with the
 * summary. After each piece the walk waits until the receiver has taken the piece before it (`answers`), so no
 * more than two pieces are ever on their way; once the receiver takes no more, the rest is counted, not sent.
 * An exception is the ticket's internal-error finding (as validateSources makes it), after what was sent.
 */
export function streamResult(port: MessagePort, head: Pick<FileReport, 'path' | 'documentUri'>, bytes: Uint8Array, options: ValidateOptions, answers: Int32Array, debug: boolean): void {
  Atomics.store(answers, ANSWERED, 0);
  Atomics.store(answers, MORE, 1);
  let sent = 0;
  const more = () => Atomics.load(answers, MORE) === 1;
  const waitFor = (pieces: number) => {
    for (let taken = Atomics.load(answers, ANSWERED); taken < pieces; taken = Atomics.load(answers, ANSWERED)) Atomics.wait(answers, ANSWERED, taken);
  };
  const send = (message: WorkerMessage) => {
    port.postMessage(message);
    waitFor(++sent - 1);
  };
  let started = false;
  const start = (encoding: string) => {
    started = true;
    port.postMessage({ start: { ...head, encoding, references: [], findings: [] }, streamed: true } satisfies WorkerMessage);
  };
  let piece: TicketReference[] = [];
  const findings: LocatedFinding[] = [];
  try {
    validateTicketStream(bytes, options, {
      start: ({ encoding }) => start(encoding),
      reference(ref) {
        if (!more()) return;
        piece.push(ref);
        if (piece.length < PIECE) return;
        send({ references: piece });
        piece = [];
      },
      finding: (f) => findings.push(f),
      end(summary) {
        if (piece.length > 0 && more()) send({ references: piece });
        for (let i = 0; i < findings.length && more(); i += PIECE) send({ findings: findings.slice(i, i + PIECE) });
        // Every piece answered: the receiver has all of them before the end.
        waitFor(sent);
        port.postMessage({ end: true, summary } satisfies WorkerMessage);
      },
    });
  } catch (error) {
    if (!started) start('unknown');
    waitFor(sent);
    const failed = internalErrorReport(error, options.profile, debug).findings[0]!;
    port.postMessage({ end: true, failed } satisfies WorkerMessage);
  }
}
