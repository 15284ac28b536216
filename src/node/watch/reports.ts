// The reports written beside a routed ticket: NAME.report.json always, NAME.report.sarif and NAME.report.txt on
// request. They are written into the claim folder first (whole, through a temporary created exclusively: see
// whole.ts) and placed with the ticket.
import { finished } from 'node:stream/promises';
import path from 'node:path';
import { buildReport, type FileReport } from '../../report/report.js';
import { jsonDocument } from '../../report/json-pieces.js';
import { sarifPieces } from '../../report/sarif.js';
import { textLines } from '../../report/text.js';
import { ruleCatalog } from '../../rules/catalog.js';
import { writePieces } from '../output.js';
import type { ReportFormat } from './options.js';
import { writeWhole } from './whole.js';

/** The report's file in the claim folder, and the suffix it takes after the ticket's name when placed. */
export const REPORT_FILES: Record<ReportFormat, { file: string; suffix: string }> = {
  json: { file: 'report.json', suffix: '.report.json' },
  sarif: { file: 'report.sarif', suffix: '.report.sarif' },
  txt: { file: 'report.txt', suffix: '.report.txt' },
};

/** The order reports are placed in: the JSON report last, just before the ticket, since its presence marks a route as begun. */
export function formatsInOrder(formats: readonly ReportFormat[]): ReportFormat[] {
  return [...new Set<ReportFormat>([...formats.filter((f) => f !== 'json'), 'json'])];
}

/** One report for the ticket: one file in it, or one per part of a package. */
export async function writeReports(dir: string, files: FileReport[], formats: readonly ReportFormat[], version: string): Promise<void> {
  const report = buildReport(files, version);
  for (const format of formatsInOrder(formats)) {
    const pieces = format === 'json' ? jsonDocument(report) : format === 'sarif' ? sarifPieces(report, ruleCatalog) : textLines(report, { references: false });
    await writeWhole(path.join(dir, REPORT_FILES[format].file), async (handle) => {
      const stream = handle.createWriteStream(); // closes the descriptor when it ends (writeWhole's close is then a no-op)
      await writePieces(stream, pieces);
      stream.end();
      await finished(stream);
    }, 0o666);
  }
}
