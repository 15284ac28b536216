// The summary of a report written as it comes (json-stream.ts, sarif-stream.ts, lines-stream.ts): buildReport's counts, made on the way.
import type { ValidationReport } from '../report/report.js';
import type { FileCounts } from '../report/file-pieces.js';
import type { LocatedFinding, TicketReference } from '../ticket/validate.js';

export class ReportCount {
  readonly summary: ValidationReport['summary'] = { files: 0, references: 0, error: 0, warning: 0, info: 0, suppressed: 0 };

  /** Counts a file; true when it is the first. */
  file(): boolean {
    return this.summary.files++ === 0;
  }

  reference(ref: TicketReference): void {
    this.summary.references++;
    this.findings(ref.findings, ref.suppressed);
  }

  /** A file's counts, made where it was formatted (formatFile). */
  add(counts: FileCounts): void {
    const s = this.summary;
    s.references += counts.references;
    s.error += counts.error;
    s.warning += counts.warning;
    s.info += counts.info;
    s.suppressed += counts.suppressed;
  }

  findings(findings: Iterable<LocatedFinding>, suppressed: readonly unknown[] | undefined): void {
    for (const f of findings) this.summary[f.severity]++;
    this.summary.suppressed += suppressed?.length ?? 0;
  }
}
