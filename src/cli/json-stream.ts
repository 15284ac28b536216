// validate -f json written as the reports come (a ReportSink for validateBatch): each file's report when it is
// done, and a big ticket's references a piece at a time as its worker checks them, so that no one holds a whole
// big ticket's report. The document is the same bytes as jsonDocument(buildReport(files)) (json-pieces.ts:
// JSON.stringify(value, null, 2) in pieces), with --quiet's errorsOnly; the summary is counted on the way.
import { jsonPieces } from '../report/json-pieces.js';
import type { FileReport, ValidationReport } from '../report/report.js';
import { errorFindings } from '../report/quiet.js';
import { errorsOnlyReference, formatFile, JSON_FILE_INDENT as FILE, type FileFormat, type FormattedFile } from '../report/file-pieces.js';
import type { UnreadablePath } from '../node/files.js';
import type { ReportSink } from '../node/report-pieces.js';
import { BlockWriter } from '../node/output.js';
import type { TicketReference } from '../ticket/validate.js';
import { ReportCount } from './report-count.js';

const KEY = '      ';
const REFERENCE = '        ';

export class JsonReportStream implements ReportSink {
  readonly unreadables: UnreadablePath[] = [];
  private readonly counted = new ReportCount();
  private readonly summary = this.counted.summary;
  /** The report begun in pieces, and how many of its references are written. */
  private begun: FileReport | undefined;
  private written = 0;
  /** Whether the reader is still there (`validate ... | head`): then nothing more is formatted. */
  private open = true;
  private readonly blocks: BlockWriter;
  readonly format: FileFormat;

  constructor(
    out: NodeJS.WritableStream,
    private readonly version: string,
    private readonly quiet: boolean,
    /** A report's path as shown (standard input under --stdin-filename). */
    private readonly named: (report: FileReport) => FileReport,
  ) {
    this.format = { format: 'json', quiet };
    this.blocks = new BlockWriter(out);
  }

  async start(): Promise<void> {
    await this.write(['{\n  "tool": ', ...jsonPieces({ name: 'jdf-filespec', version: this.version }, '  '), ',\n  "files": ']);
  }

  async file(report: FileReport): Promise<void> {
    await this.formatted(formatFile(this.named(report), this.format));
  }

  async formatted(file: FormattedFile): Promise<void> {
    this.counted.add(file.counts);
    await this.write([this.separator(), ...file.text]);
  }

  async begin(head: FileReport): Promise<void> {
    this.begun = this.named(head);
    this.written = 0;
    const pieces = [this.separator(), '{\n'];
    for (const key of Object.keys(this.begun)) {
      if (key === 'references') break;
      const value = (this.begun as unknown as Record<string, unknown>)[key];
      if (value !== undefined) pieces.push(`${KEY}${JSON.stringify(key)}: `, ...jsonPieces(value, KEY), ',\n');
    }
    pieces.push(`${KEY}"references": `);
    await this.write(pieces);
  }

  async references(references: readonly TicketReference[]): Promise<void> {
    const pieces: string[] = [];
    for (const ref of references) {
      this.counted.reference(ref);
      pieces.push(this.written++ === 0 ? `[\n${REFERENCE}` : `,\n${REFERENCE}`, ...jsonPieces(this.quiet ? errorsOnlyReference(ref) : ref, REFERENCE));
    }
    await this.write(pieces);
  }

  async finish(rest: FileReport): Promise<void> {
    if (this.begun === undefined) return this.file(rest);
    this.begun = undefined;
    this.counted.findings(rest.findings, rest.suppressed);
    const pieces = [this.written === 0 ? '[]' : `\n${KEY}]`];
    const shown = this.quiet ? { ...rest, findings: errorFindings(rest.findings) } : rest;
    const keys = Object.keys(shown);
    for (const key of keys.slice(keys.indexOf('references') + 1)) {
      const value = (shown as unknown as Record<string, unknown>)[key];
      if (value !== undefined) pieces.push(`,\n${KEY}${JSON.stringify(key)}: `, ...jsonPieces(value, KEY));
    }
    pieces.push(`\n${FILE}}`);
    await this.write(pieces);
  }

  unreadable(unreadable: UnreadablePath): void {
    this.unreadables.push(unreadable);
  }

  /** Closes the document; the summary as the report's (buildReport's counts, --quiet's errorsOnly). The unreadable paths are not in it. */
  async end(_unreadable?: readonly UnreadablePath[]): Promise<ValidationReport['summary']> {
    const summary = this.quiet ? { ...this.summary, warning: 0, info: 0 } : this.summary;
    await this.write([this.summary.files === 0 ? '[]' : '\n  ]', ',\n  "summary": ', ...jsonPieces(summary, '  '), '\n}\n']);
    if (this.open) this.open = await this.blocks.flush();
    return this.summary;
  }

  /** Nothing to remove: JSON keeps nothing on disk. */
  dispose(): void {}

  /** Before each file: the array's opening, or the comma after the one before. */
  private separator(): string {
    return this.counted.file() ? `[\n${FILE}` : `,\n${FILE}`;
  }

  private async write(pieces: string[]): Promise<void> {
    if (this.open) this.open = await this.blocks.add(pieces);
  }
}
