// The summary of a report written as it comes (json-stream.ts, sarif-stream.ts): buildReport's counts, made on the way.
import type { ValidationReport } from '../report/report.js';
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

  findings(findings: Iterable<LocatedFinding>, suppressed: readonly unknown[] | undefined): void {
    for (const f of findings) this.summary[f.severity]++;
    this.summary.suppressed += suppressed?.length ?? 0;
  }
}
