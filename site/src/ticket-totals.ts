// Across every ticket on the page: the totals, the codes found, and which findings a filter by severity and rule
// keeps. Pure: the page draws what these return.
import type { PageFinding } from './protocol.js';

export interface Filter {
  severity: '' | PageFinding['severity'];
  code: string;
}

export interface Totals {
  checked: number;
  pending: number;
  clean: number;
  error: number;
  warning: number;
  info: number;
  /** Each code found, with how many findings have it, most first. */
  codes: Array<[string, number]>;
}

/** The findings a filter keeps ('' keeps every severity, every code). */
export function kept(findings: readonly PageFinding[], filter: Filter): PageFinding[] {
  if (filter.severity === '' && filter.code === '') return [...findings];
  return findings.filter((f) => (filter.severity === '' || f.severity === filter.severity) && (filter.code === '' || f.code === filter.code));
}

/** The totals over the tickets' results (undefined: still being checked). */
export function totals(results: ReadonlyArray<readonly PageFinding[] | undefined>): Totals {
  const t: Totals = { checked: 0, pending: 0, clean: 0, error: 0, warning: 0, info: 0, codes: [] };
  const codes = new Map<string, number>();
  for (const findings of results) {
    if (findings === undefined) {
      t.pending++;
      continue;
    }
    t.checked++;
    if (findings.length === 0) t.clean++;
    for (const f of findings) {
      t[f.severity]++;
      codes.set(f.code, (codes.get(f.code) ?? 0) + 1);
    }
  }
  t.codes = [...codes].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
  return t;
}
