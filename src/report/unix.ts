// One line per finding, `file:line:column: severity message [code]`: the form compilers print, which editors
// (Vim's quickfix, Emacs' compilation mode) and CI problem matchers read without configuration.
import type { LocatedFinding, TicketReference } from '../ticket/validate.js';
import { plural } from './check-text.js';
import type { FileReport, ValidationReport } from './report.js';
import { forTerminal } from './terminal.js';

export interface LineFormatOptions {
  /** Errors only. */
  quiet?: boolean;
}

/** Every finding of a file with its reference, in line and column order. */
export function sortedFindings(file: FileReport, quiet = false): Array<{ f: LocatedFinding; ref?: TicketReference }> {
  const items: Array<{ f: LocatedFinding; ref?: TicketReference }> = [];
  const keep = (f: LocatedFinding) => !quiet || f.severity === 'error';
  for (const f of file.findings) if (keep(f)) items.push({ f });
  for (const ref of file.references) for (const f of ref.findings) if (keep(f)) items.push({ f, ref });
  return items.sort((a, b) => a.f.line - b.f.line || a.f.column - b.f.column);
}

/** The file a finding is in: inside a package, the part after the package's path. */
export function locationName(file: FileReport): string {
  return file.part !== undefined ? `${file.path} [part ${file.part}]` : file.path;
}

/**
 * The file a line of the unix format names: inside a package, `PACKAGE!/PART` (the jar: URL's separator), the
 * part's white space, ':' and '%' percent-encoded, so a `file:line:col:` problem matcher reads it as one name.
 */
export function unixName(file: FileReport): string {
  if (file.part === undefined) return file.path;
  return `${file.path}!/${file.part.replace(/[\s:%]/gu, (c) => [...new TextEncoder().encode(c)].map((b) => `%${b.toString(16).toUpperCase().padStart(2, '0')}`).join(''))}`;
}

/** A finding's line in the unix format. */
export function unixLine(file: FileReport, f: LocatedFinding): string {
  return `${forTerminal(unixName(file))}:${f.line}:${f.column}: ${f.severity} ${forTerminal(oneLine(f.message))} [${f.code}]\n`;
}

/** The unix format's last line, after the findings' lines (none on a clean run). */
export const problemsLine = (count: number): string => (count > 0 ? `\n${plural(count, 'problem')}\n` : '');

/** `validate --format unix`, a file at a time, then the count; a clean run prints nothing (as ESLint's unix format). */
export function* unixLines(report: ValidationReport, options: LineFormatOptions = {}): Generator<string> {
  let count = 0;
  for (const file of report.files) {
    const lines: string[] = [];
    for (const { f } of sortedFindings(file, options.quiet)) lines.push(unixLine(file, f));
    count += lines.length;
    if (lines.length > 0) yield lines.join('');
  }
  if (count > 0) yield problemsLine(count);
}

/** A message on one line (a line break would start what a reader takes for the next finding). */
export function oneLine(text: string): string {
  return text.replace(/\r\n|[\r\n\u2028\u2029]/g, ' ');
}
