// validate -f sarif written from the reports as they come (a ReportSink for validateBatch, as json-stream.ts is
// for JSON), the same bytes as sarifPieces(buildReport(files)). Two things in a SARIF log come before what they
// depend on: the invocation's notifications (the unreadable paths, known at the run's end) before every result,
// and a file's own findings (a big ticket's come at its end) before its references' findings. So the results
// are made as the references arrive and kept in order on disk (spool.ts), never in the heap, and the log is
// written at the end: its head, the results read back, its tail. A file's own findings and its references'
// suppressed ones (a directive's, few) are held until the file ends, then made in sarifPieces' order.
import type { UnreadablePath } from '../node/files.js';
import { writePieces } from '../node/output.js';
import type { ReportSink } from '../node/report-pieces.js';
import { jsonPieces } from '../report/json-pieces.js';
import type { FileReport, ValidationReport } from '../report/report.js';
import { shownFindings } from '../report/quiet.js';
import { ruleIndexes, SarifFileResults, sarifLog, type SarifOptions } from '../report/sarif.js';
import { formatFile, SARIF_RESULT_INDENT as RESULT, type FileFormat, type FormattedFile } from '../report/file-pieces.js';
import type { RuleMeta } from '../rules/types.js';
import type { SuppressedFinding } from '../ticket/silence.js';
import type { TicketReference } from '../ticket/validate.js';
import { ReportCount } from './report-count.js';
import { Spools, type Spool } from './spool.js';

/** Where the run's results are in the log, and where each result is. */
const RESULTS = '      ';
/** What stands for the results while the log around them is made. */
const MARK = '\u0000jdf-filespec results\u0000';

export class SarifReportStream implements ReportSink {
  readonly unreadables: UnreadablePath[] = [];
  private readonly counted = new ReportCount();
  private readonly index: ReadonlyMap<string, number>;
  private readonly spools = new Spools();
  /** The results so far, in order: each a result's text after ",\n" and its indent. */
  private readonly parts: Spool[] = [this.spools.spool()];
  /** The file begun in pieces: its results, its references' results kept apart, their suppressed findings held. */
  private begun: { made: SarifFileResults; references: Spool; silenced: Array<[SuppressedFinding, TicketReference]> } | undefined;
  readonly format: FileFormat;

  constructor(
    private readonly out: NodeJS.WritableStream,
    private readonly version: string,
    private readonly quiet: boolean,
    /** A report's path as shown (standard input under --stdin-filename). */
    private readonly named: (report: FileReport) => FileReport,
    private readonly catalog: readonly RuleMeta[],
    private readonly options: SarifOptions,
  ) {
    this.index = ruleIndexes(catalog);
    this.format = { format: 'sarif', quiet, ...(options.srcRoot !== undefined ? { srcRoot: options.srcRoot } : {}) };
  }

  /** Nothing yet: the log's head names the paths that could not be read. */
  async start(): Promise<void> {}

  async file(report: FileReport): Promise<void> {
    await this.formatted(formatFile(this.named(report), this.format, this.index));
  }

  /** A file's results, each after ",\n" and its indent (formatFile), kept in order. */
  async formatted(file: FormattedFile): Promise<void> {
    this.counted.file();
    this.counted.add(file.counts);
    const into = this.last();
    for (const text of file.text) into.append(text);
  }

  async begin(head: FileReport): Promise<void> {
    const shown = this.named(head);
    this.counted.file();
    this.begun = { made: new SarifFileResults(shown, this.index, this.options.srcRoot), references: this.spools.spool(), silenced: [] };
  }

  async references(references: readonly TicketReference[]): Promise<void> {
    const begun = this.begun!;
    for (const ref of references) {
      this.counted.reference(ref);
      for (const f of shownFindings(ref.findings, this.quiet)) add(begun.references, begun.made.result(f, ref));
      for (const f of ref.suppressed ?? []) begun.silenced.push([f, ref]);
    }
  }

  /**
   * The file's own findings, then its references' results, then the suppressed ones. (A fingerprint counts the
   * findings with its key before it; a file's own finding, keyed by its message, and a reference's, keyed by
   * element, attribute and value, never share one, so its references' results could be made first.)
   */
  async finish(rest: FileReport): Promise<void> {
    const begun = this.begun;
    if (begun === undefined) return this.file(rest);
    this.begun = undefined;
    const shown = this.named(rest);
    this.counted.findings(shown.findings, shown.suppressed);
    for (const f of shownFindings(shown.findings, this.quiet)) add(this.last(), begun.made.result(f));
    const after = this.spools.spool();
    this.parts.push(begun.references, after);
    for (const f of shown.suppressed ?? []) add(after, begun.made.silenced(f));
    for (const [f, ref] of begun.silenced) add(after, begun.made.silenced(f, ref));
  }

  unreadable(unreadable: UnreadablePath): void {
    this.unreadables.push(unreadable);
  }

  /** Writes the log, `unreadable` in its invocation; the summary as the report's (buildReport's counts). */
  async end(unreadable: readonly UnreadablePath[]): Promise<ValidationReport['summary']> {
    const around = [...jsonPieces(sarifLog(this.version, this.catalog, { ...this.options, unreadable }, MARK))].join('');
    const at = around.indexOf(JSON.stringify(MARK));
    await writePieces(this.out, this.log(around.slice(0, at), around.slice(at + JSON.stringify(MARK).length)));
    return this.counted.summary;
  }

  /** Removes what the results were kept in. */
  dispose(): void {
    this.spools.dispose();
  }

  private* log(head: string, tail: string): Generator<string> {
    yield head;
    let first = true;
    for (const part of this.parts) {
      for (const piece of part.pieces()) {
        // Each result was kept after ",\n": the first one's is the array's opening.
        yield first ? `[${piece.slice(1)}` : piece;
        first = false;
      }
    }
    yield first ? '[]' : `\n${RESULTS}]`;
    yield tail;
    yield '\n';
  }

  private last(): Spool {
    return this.parts[this.parts.length - 1]!;
  }
}

function add(spool: Spool, result: unknown): void {
  spool.append(`,\n${RESULT}${[...jsonPieces(result, RESULT)].join('')}`);
}
