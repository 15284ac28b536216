// validateBatch's worker for one big ticket alone, with a memory limit (the workers that share many tickets with
// the main thread are batch-shared.ts's). Loaded only then (node:worker_threads and node:v8 cost a cold start more
// than a small ticket's check).
import { getHeapStatistics } from 'node:v8';
import { Worker } from 'node:worker_threads';
import type { FileReport } from '../report/report.js';
import { createFinding, revivedFinding } from '../rules/finding.js';
import { reportCut } from '../rules/report-limit.js';
import type { LocatedFinding, TicketSummary, ValidateOptions } from '../ticket/validate.js';
import type { TicketSource, UnreadablePath } from './files.js';
import type { SourcesRun } from './batch-options.js';
import { ANSWERED, answersBuffer, MORE, type PieceReply, type ReportSink, type WorkerMessage } from './report-pieces.js';

/**
 * The memory a big ticket's worker may use: JDF_FILESPEC_TICKET_HEAP_MIB when set to a whole number, else nine
 * tenths of what this process's own heap may grow to (NODE_OPTIONS=--max-old-space-size raises both).
 */
export function isolatedHeapMiB(): number {
  const set = process.env.JDF_FILESPEC_TICKET_HEAP_MIB;
  if (set !== undefined && /^[1-9][0-9]*$/.test(set)) return Number(set);
  return Math.floor((getHeapStatistics().heap_size_limit / 2 ** 20) * 0.9);
}

/** A worker's findings, each with its sentence again (structured cloning keeps own properties only). */
function revived<F extends LocatedFinding>(findings: F[]): F[] {
  for (const f of findings) revivedFinding(f);
  return findings;
}

/** Tickets larger than this are checked in a worker of their own (a few ms to start one, nothing next to their check). */
const BIG_TICKET_BYTES = 16 * 1024 * 1024;

/**
 * From what size a ticket file is checked in a worker of its own: BIG_TICKET_BYTES, or less when this thread's
 * heap is small. Checking a ticket whose every reference is broken takes about 40 times its size at its peak, and
 * its report about 24 times; under a 256th of the heap, both fit here beside what the run holds.
 */
export function bigTicketBytes(): number {
  return Math.min(BIG_TICKET_BYTES, Math.floor(getHeapStatistics().heap_size_limit / 256));
}

/**
 * Validates one big ticket in a worker thread of its own (batch-worker.js) whose heap is limited to `heapMiB`; its
 * report goes to `run.sink` as it comes when there is one (and is then not among the results).
 */
export function runWorker(source: TicketSource, options: ValidateOptions, run: Pick<SourcesRun, 'maxBytes' | 'local' | 'debug' | 'sink'>, heapMiB: number): Promise<Array<FileReport | UnreadablePath>> {
  const { maxBytes, local, debug, sink } = run;
  return new Promise((resolve, reject) => {
    const resourceLimits = { maxOldGenerationSizeMb: heapMiB };
    // The report is sent as it is checked; the worker waits on this thread's answers in shared memory.
    const answers = answersBuffer();
    const workerData = { source, options, maxBytes, local, debug, answers };
    const worker = new Worker(new URL('./batch-worker.js', import.meta.url), { workerData, resourceLimits });
    const results = new Reports(options, answers, sink);
    let finished = false;
    // Taken in order: a sink's writing may wait.
    let taken: Promise<unknown> = Promise.resolve();
    worker.on('message', (message: WorkerMessage) => {
      if ('done' in message) {
        finished = true;
        taken.then(() => resolve(results.all), reject);
      } else {
        taken = taken.then(async () => {
          const reply = await results.take(message);
          if (reply) worker.postMessage(reply);
        });
      }
    });
    // After what was taken is done with: a sink's writing ends before the report's end is written.
    const fail = (error: unknown) => taken.then(() => reject(error), reject);
    worker.once('error', fail);
    worker.once('exit', (code) => {
      if (code !== 0) fail(new Error(`a validation worker stopped with exit code ${code}`));
      else if (!finished) fail(new Error('a validation worker stopped before it sent its reports'));
    });
  });
}

/**
 * The reports a worker sends (report-pieces.ts), put back together. Once this thread's heap is a quarter full, a
 * report is taken no further: what it holds so far, and a too-many-findings finding with the counts. (A quarter of
 * heap_size_limit, which counts the young generation too: 28 MB of a 64 MB old space's 112 MB. What is left is
 * for the formats and the other reports.)
 */
class Reports {
  readonly all: Array<FileReport | UnreadablePath> = [];
  private current: FileReport | undefined;
  private totals = { findings: 0, references: 0 };
  private cut = false;
  /** The report comes as it is checked: answered through `answers`, its counts at its end. */
  private streamed = false;
  private readonly budget = getHeapStatistics().heap_size_limit / 4;

  /** A streamed report's references handed to the sink (not kept). */
  private passed = 0;

  constructor(
    private readonly options: ValidateOptions,
    private readonly answers: Int32Array,
    private readonly sink: ReportSink | undefined,
  ) {}

  /** Takes one message; the answer the worker waits for, after a piece (a streamed report's, in `answers`). */
  async take(message: Exclude<WorkerMessage, { done: true }>): Promise<PieceReply | undefined> {
    if ('unreadable' in message) this.all.push(message.unreadable);
    else if ('start' in message) {
      this.current = message.start;
      this.streamed = 'streamed' in message;
      if (message.start.suppressed) revived(message.start.suppressed);
      if (!('streamed' in message)) this.totals = { findings: message.findings, references: message.references };
      this.cut = false;
      this.passed = 0;
      if (this.streamed && this.sink) await this.sink.begin({ ...message.start });
    } else if ('end' in message) {
      const current = this.current!;
      if (message.summary !== undefined) this.finish(current, message.summary);
      if (message.failed !== undefined) current.findings.push(message.failed);
      if (this.cut) current.findings.push(this.cutFinding(current));
      this.current = undefined;
      if (this.streamed && this.sink) await this.sink.finish(current);
      else this.all.push(current);
    } else {
      if ('findings' in message) this.current!.findings.push(...revived(message.findings));
      else {
        for (const r of message.references) {
          revived(r.findings);
          if (r.suppressed) revived(r.suppressed);
        }
        if (this.streamed && this.sink) {
          await this.sink.references(message.references);
          this.passed += message.references.length;
        } else this.current!.references.push(...message.references);
      }
      // A report passed on to a sink is not held here: only one kept whole is cut.
      this.cut = !(this.streamed && this.sink !== undefined) && getHeapStatistics().used_heap_size > this.budget;
      if (!this.streamed) return { more: !this.cut };
      const answers = this.answers;
      Atomics.store(answers, MORE, this.cut ? 0 : 1);
      Atomics.add(answers, ANSWERED, 1);
      Atomics.notify(answers, ANSWERED);
    }
    return undefined;
  }

  /** A streamed report's end: what validateTicketStream says last, in TicketReport's order, and its counts. */
  private finish(report: FileReport, summary: TicketSummary): void {
    if (summary.root !== undefined) report.root = summary.root;
    if (summary.jdfVersion !== undefined) report.jdfVersion = summary.jdfVersion;
    if (summary.suppressed !== undefined) report.suppressed = summary.suppressed;
    this.totals = { findings: summary.findings, references: summary.references };
  }

  private cutFinding(report: FileReport): LocatedFinding {
    const cut = reportCut({
      listedReferences: report.references.length + this.passed, references: this.totals.references,
      listedFindings: report.findings.length, findings: this.totals.findings,
      limit: Math.floor(getHeapStatistics().heap_size_limit / 2 ** 20),
    });
    return createFinding(cut.code, cut.args, { profile: this.options.profile ?? 'jdf', at: { line: 1, column: 1 } });
  }
}
