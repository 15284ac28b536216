// validate -f unix and -f github written from the reports as they come (a ReportSink for validateBatch), the same
// lines as unixLines/githubLines(buildReport(files)): each file's findings in line and column order, its own
// findings before its references' where they are at the same place. A big ticket's references come in document
// order, mostly in order of place already (a reference's own findings sorted), and its own findings at its end: its references' lines are kept in order on
// disk (spool.ts) with their places, then merged with its own findings' lines; only when a reference comes before
// one already kept (an rRef's resource, a Part) are the kept lines read back and sorted in memory.
import type { UnreadablePath } from '../node/files.js';
import { BlockWriter } from '../node/output.js';
import type { ReportSink } from '../node/report-pieces.js';
import { githubLine } from '../report/github.js';
import type { FileReport, ValidationReport } from '../report/report.js';
import { shownFindings } from '../report/quiet.js';
import { problemsLine, sortedFindings, unixLine } from '../report/unix.js';
import { formatFile, type FileFormat, type FormattedFile } from '../report/file-pieces.js';
import type { LocatedFinding, TicketReference } from '../ticket/validate.js';
import { ReportCount } from './report-count.js';
import { Spools, type Spool } from './spool.js';

interface Placed {
  line: number;
  column: number;
  text: string;
}

export class LinesReportStream implements ReportSink {
  readonly unreadables: UnreadablePath[] = [];
  private readonly counted = new ReportCount();
  private readonly spools = new Spools();
  private problems = 0;
  /** Whether the reader is still there (`validate ... | head`): then nothing more is formatted. */
  private open = true;
  private readonly blocks: BlockWriter;
  private begun: { file: FileReport; lines: Spool; last: Placed | undefined; sorted: boolean } | undefined;
  readonly format: FileFormat;

  constructor(
    out: NodeJS.WritableStream,
    private readonly kind: 'unix' | 'github',
    private readonly quiet: boolean,
    /** A report's path as shown (standard input under --stdin-filename). */
    private readonly named: (report: FileReport) => FileReport,
  ) {
    this.format = { format: kind, quiet };
    this.blocks = new BlockWriter(out);
  }

  async start(): Promise<void> {}

  async file(report: FileReport): Promise<void> {
    await this.formatted(formatFile(this.named(report), this.format));
  }

  async formatted(file: FormattedFile): Promise<void> {
    this.counted.file();
    this.counted.add(file.counts);
    if (!this.open) return;
    this.problems += file.shown;
    this.open = await this.blocks.add(file.text);
  }

  async begin(head: FileReport): Promise<void> {
    this.counted.file();
    this.begun = { file: this.named(head), lines: this.spools.spool(), last: undefined, sorted: true };
  }

  async references(references: readonly TicketReference[]): Promise<void> {
    const begun = this.begun!;
    for (const ref of references) {
      this.counted.reference(ref);
      // A reference's findings in order of place (a stable sort): all of them in order so far, the kept lines
      // are in sortedFindings' order (equal places in the order they came).
      for (const f of [...shownFindings(ref.findings, this.quiet)].sort((a, b) => a.line - b.line || a.column - b.column)) {
        if (begun.last !== undefined && before(f, begun.last)) begun.sorted = false;
        begun.last = { line: f.line, column: f.column, text: '' };
        // One record a line: a finding's line has no line break but its last.
        begun.lines.append(`${f.line} ${f.column} ${this.line(begun.file, f, ref)}`);
      }
    }
  }

  async finish(rest: FileReport): Promise<void> {
    const begun = this.begun;
    if (begun === undefined) return this.file(rest);
    this.begun = undefined;
    const shown = this.named(rest);
    this.counted.findings(shown.findings, shown.suppressed);
    const own = sortedFindings({ ...shown, references: [] }, this.quiet).map(({ f }) => ({ line: f.line, column: f.column, text: this.line(begun.file, f) }));
    const kept = records(begun.lines.pieces());
    // The file's own findings first at the same place (sortedFindings' stable sort).
    const lines = begun.sorted ? merged(own, kept) : [...own, ...kept].sort((a, b) => a.line - b.line || a.column - b.column);
    await this.write((function* () {
      for (const p of lines) yield p.text;
    })());
    // Its lines written, its file is removed (a run of big tickets keeps one at a time).
    begun.lines.close();
  }

  unreadable(unreadable: UnreadablePath): void {
    this.unreadables.push(unreadable);
  }

  /** The unix format's count line; the summary as the report's (buildReport's counts). */
  async end(_unreadable?: readonly UnreadablePath[]): Promise<ValidationReport['summary']> {
    if (this.kind === 'unix' && this.open) this.open = await this.blocks.add([problemsLine(this.problems)]);
    if (this.open) this.open = await this.blocks.flush();
    return this.counted.summary;
  }

  /** Removes what the lines were kept in. */
  dispose(): void {
    this.spools.dispose();
  }

  private line(file: FileReport, f: LocatedFinding, ref?: TicketReference): string {
    return this.kind === 'unix' ? unixLine(file, f) : githubLine(file, f, ref);
  }

  private async write(lines: Iterable<string>): Promise<void> {
    if (!this.open) return;
    const counted = (function* (self: LinesReportStream) {
      for (const line of lines) {
        self.problems++;
        yield line;
      }
    })(this);
    this.open = await this.blocks.add(counted);
  }
}

const before = (a: { line: number; column: number }, b: { line: number; column: number }) => a.line < b.line || (a.line === b.line && a.column < b.column);

/** The kept records (`LINE COLUMN TEXT\n`), one at a time. */
function* records(pieces: Iterable<string>): Generator<Placed> {
  let rest = '';
  for (const piece of pieces) {
    const text = rest + piece;
    let start = 0;
    for (let end = text.indexOf('\n'); end !== -1; start = end + 1, end = text.indexOf('\n', start)) yield record(text.slice(start, end + 1));
    rest = text.slice(start);
  }
}

function record(text: string): Placed {
  const first = text.indexOf(' ');
  const second = text.indexOf(' ', first + 1);
  return { line: Number(text.slice(0, first)), column: Number(text.slice(first + 1, second)), text: text.slice(second + 1) };
}

/** Two runs in order merged, `a`'s first at the same place. */
function* merged(a: readonly Placed[], b: Iterable<Placed>): Generator<Placed> {
  let i = 0;
  for (const p of b) {
    while (i < a.length && !before(p, a[i]!)) yield a[i++]!;
    yield p;
  }
  while (i < a.length) yield a[i++]!;
}
