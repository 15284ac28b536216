import type { CheckResult } from '../check.js';
import type { Finding, Severity } from '../rules/types.js';
import { forTerminal } from './terminal.js';
import { shownFindings } from './quiet.js';

export interface Counts {
  error: number;
  warning: number;
  info: number;
}

export function countFindings(findings: Iterable<Finding>): Counts {
  const counts: Counts = { error: 0, warning: 0, info: 0 };
  for (const f of findings) counts[f.severity]++;
  return counts;
}

export function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

export function summaryLine(counts: Counts, subject: string): string {
  return `${subject}: ${plural(counts.error, 'error')}, ${plural(counts.warning, 'warning')}, ${counts.info} info`;
}

/** Severity as a fixed-width column of the text formats. */
export const SEVERITY_LABEL: Record<Severity, string> = { error: 'error  ', warning: 'warning', info: 'info   ' };

/** `jdf-filespec check` as text: each URL, then each finding with its position in the string, rule and fix; every line for a terminal (forTerminal). */
export function formatCheckText(results: readonly CheckResult[], options: { quiet?: boolean } = {}): string {
  const lines: string[] = [];
  const all: Finding[] = [];
  for (const r of results) {
    const shown = shownFindings(r.findings, options.quiet === true);
    all.push(...shown);
    if (options.quiet && shown.length === 0) continue;
    lines.push(forTerminal(JSON.stringify(r.value)));
    const facts = [r.kind, r.scheme && `scheme ${r.scheme}`, r.host !== undefined && `host ${JSON.stringify(r.host)}`, `local ${r.local}`].filter(Boolean);
    lines.push(forTerminal(`  ${facts.join(', ')}`));
    if (r.resolved !== null) lines.push(`  resolved: ${forTerminal(r.resolved)}`);
    for (const f of shown) {
      const at = f.offset !== undefined ? `at ${f.offset}` : '';
      lines.push(`  ${at.padEnd(7)} ${SEVERITY_LABEL[f.severity]}  ${forTerminal(f.message)}  ${f.code}`);
      if (f.fix !== undefined) lines.push(`          fix: ${forTerminal(f.fix)}`);
      for (const s of f.suggestions ?? []) lines.push(`          suggestion (${forTerminal(s.desc)}): ${forTerminal(s.fix)}`);
    }
    if (r.fixed !== undefined && r.fixed !== shown.find((f) => f.fix !== undefined)?.fix) lines.push(`  all fixes: ${forTerminal(r.fixed)}`);
    lines.push('');
  }
  lines.push(summaryLine(countFindings(all), plural(results.length, 'URL') + ' checked'));
  return lines.join('\n') + '\n';
}
