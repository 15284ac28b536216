import type { LocatedFinding, TicketReference } from '../ticket/validate.js';
import type { MappedBy } from '../views/types.js';
import { plural, SEVERITY_LABEL } from './check-text.js';
import { errorsOnly, type FileReport, type ValidationReport } from './report.js';
import { forTerminal } from './terminal.js';

export interface TextOptions {
  quiet?: boolean;
  /** List every reference with its base and target, not only the findings. */
  references?: boolean;
  /** Severities in colour (ANSI SGR: error red, warning yellow, info cyan). */
  color?: boolean;
}

const COLOR: Record<LocatedFinding['severity'], string> = { error: '\x1b[31m', warning: '\x1b[33m', info: '\x1b[36m' };
const severityLabel = (severity: LocatedFinding['severity'], color: boolean | undefined) =>
  color ? `${COLOR[severity]}${SEVERITY_LABEL[severity]}\x1b[39m` : SEVERITY_LABEL[severity];

/** `validate` as text: grouped by file, `line:column  severity  message  code`, then the summary line. */
export function formatText(report: ValidationReport, options: TextOptions = {}): string {
  return [...textLines(report, options)].join('');
}

/**
 * formatText in pieces of up to 1,024 lines: a big report is written as it is formatted, never as one string.
 * What comes from a ticket or a file name is written for a terminal (forTerminal); only our colours are raw.
 */
export function* textLines(given: ValidationReport, options: TextOptions = {}): Generator<string> {
  const report = options.quiet ? errorsOnly(given) : given;
  const lines: string[] = [];
  for (const file of report.files) yield* fileTextLines(file, options, lines);
  lines.push(textSummaryLine(report.summary));
  yield lines.join('');
}

/**
 * One file's lines in `validate`'s text (its findings, --quiet's already dropped), each ending in "\n", added to
 * `lines`, and the lines so far yielded as one piece whenever there are 1,024: none for a file without findings
 * unless every reference is listed.
 */
export function* fileTextLines(file: FileReport, options: TextOptions, lines: string[]): Generator<string> {
  const line = (text: string) => lines.push(forTerminal(text) + '\n');
  const full = () => lines.length >= 1024;
  const items: Array<{ f: LocatedFinding; ref?: TicketReference }> = [];
  for (const f of file.findings) items.push({ f });
  for (const ref of file.references) for (const f of ref.findings) items.push({ f, ref });
  items.sort((a, b) => a.f.line - b.f.line || a.f.column - b.f.column);
  if (items.length === 0 && !options.references) return;
  line(file.part !== undefined ? `${file.path} [part ${file.part}]` : file.path);
  if (options.references) {
    for (const ref of file.references) {
      line(`  ${`${ref.line}:${ref.column}`.padEnd(9)} ${ref.element}/@${ref.attribute} ${JSON.stringify(ref.value)}`);
      line(`  ${''.padEnd(9)} -> ${ref.resolved ?? '(unresolved)'}  [base ${ref.baseSource}${ref.base !== null ? ` ${ref.base}` : ''}${ref.via ? `, via ${ref.via}` : ''}]`);
      if (ref.mappedBy) line(`  ${''.padEnd(9)} ${mappedByText(ref.mappedBy)}`);
      if (ref.packagePart) line(`  ${''.padEnd(9)} part ${ref.packagePart.name}${ref.packagePart.contentId !== undefined && `<${ref.packagePart.contentId}>` !== ref.packagePart.name ? ` (Content-ID <${ref.packagePart.contentId}>)` : ''}`);
      if (full()) yield lines.splice(0).join('');
    }
  }
  for (const { f, ref } of items) {
    lines.push(`  ${`${f.line}:${f.column}`.padEnd(9)} ${severityLabel(f.severity, options.color)}  ${forTerminal(f.message)}  ${f.code}\n`);
    if (ref) line(`  ${''.padEnd(9)} ${ref.element}/@${ref.attribute} = ${JSON.stringify(ref.value)}`);
    if (f.fix !== undefined) line(`  ${''.padEnd(9)} fix: ${f.fix}`);
    for (const s of f.suggestions ?? []) line(`  ${''.padEnd(9)} suggestion (${s.desc}): ${s.fix}`);
    if (full()) yield lines.splice(0).join('');
  }
  line('');
}

/** The text's last line: the counts (those shown, under --quiet). */
export function textSummaryLine(s: ValidationReport['summary']): string {
  // Findings the tickets' directives silence are counted, never shown (said only when there are some).
  const silenced = s.suppressed > 0 ? `; ${s.suppressed} suppressed by directives` : '';
  return forTerminal(`${plural(s.files, 'file')}, ${plural(s.references, 'reference')}: ${plural(s.error, 'error')}, ${plural(s.warning, 'warning')}, ${s.info} info${silenced}`) + '\n';
}

/** "mapped by view mis, storage jobs, entry file://fileserver/Jobs/ -> /mnt/jobs/4711/a.pdf (rip /mnt/jobs/)" */
export function mappedByText(m: MappedBy): string {
  const here = m.path !== undefined ? ` -> ${m.path}${m.machineEntry !== undefined ? ` (${m.machineEntry})` : ''}` : '';
  return `mapped by view ${m.view}, storage ${m.storage}, entry ${m.entry}${here}`;
}
