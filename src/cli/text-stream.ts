// validate's text written from files formatted where they were checked (formatFile): each file's lines, then the
// summary line; the same text as textLines(buildReport(files)), --quiet's counts those of what is shown.
import { BlockWriter } from '../node/output.js';
import type { FileFormat, FormattedFile } from '../report/file-pieces.js';
import type { ValidationReport } from '../report/report.js';
import { textSummaryLine } from '../report/text.js';
import { ReportCount } from './report-count.js';

export class TextReportStream {
  private readonly counted = new ReportCount();
  /** Whether the reader is still there (`validate ... | head`): then nothing more is written. */
  private open = true;
  private readonly blocks: BlockWriter;
  readonly format: FileFormat;

  constructor(
    out: NodeJS.WritableStream,
    private readonly quiet: boolean,
    options: { references: boolean; color: boolean },
  ) {
    this.format = { format: 'text', quiet, references: options.references, color: options.color };
    this.blocks = new BlockWriter(out);
  }

  async start(): Promise<void> {}

  async formatted(file: FormattedFile): Promise<void> {
    this.counted.file();
    this.counted.add(file.counts);
    if (this.open) this.open = await this.blocks.add(file.text);
  }

  /** The summary line; the summary as the report's (buildReport's counts). */
  async end(): Promise<ValidationReport['summary']> {
    const s = this.counted.summary;
    if (this.open) this.open = await this.blocks.add([textSummaryLine(this.quiet ? { ...s, warning: 0, info: 0 } : s)]);
    if (this.open) this.open = await this.blocks.flush();
    return s;
  }

  dispose(): void {}
}
