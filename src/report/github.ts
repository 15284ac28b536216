// GitHub Actions workflow commands: `::error file=F,line=L,col=C,endLine=..,endColumn=..,title=CODE::MESSAGE`,
// which the runner turns into annotations on the pull request (docs.github.com, "Workflow commands for GitHub
// Actions": setting an error, warning or notice message).
import type { Severity } from '../rules/types.js';
import type { LocatedFinding, TicketReference } from '../ticket/validate.js';
import type { FileReport, ValidationReport } from './report.js';
import { forTerminal } from './terminal.js';
import { locationName, sortedFindings } from './unix.js';

const COMMAND: Record<Severity, 'error' | 'warning' | 'notice'> = { error: 'error', warning: 'warning', info: 'notice' };

// The runner's escaping (actions/toolkit, command.ts): data escapes %, CR and LF; property values also : and ,.
// Then the other controls, which a log viewer would take as a terminal does (forTerminal).
const escapeData = (s: string) => forTerminal(s.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A'));
const escapeProperty = (s: string) => escapeData(s).replace(/:/g, '%3A').replace(/,/g, '%2C');

/** A finding's workflow command. */
export function githubLine(file: FileReport, f: LocatedFinding, ref?: TicketReference): string {
  // Inside a package part, line and column are the part's: the annotation names the package file alone.
  const at = file.part !== undefined || file.path === '-'
    ? []
    : [`line=${f.line}`, `col=${f.column}`, ...(ref && f.line === ref.line ? [`endLine=${ref.endLine}`, `endColumn=${ref.endColumn}`] : [])];
  const props = [`file=${escapeProperty(file.path === '-' ? 'stdin' : file.path)}`, ...at, `title=${escapeProperty(`jdf-filespec ${f.code}`)}`];
  const where = file.part !== undefined ? `In ${locationName(file)} at ${f.line}:${f.column}: ` : '';
  return `::${COMMAND[f.severity]} ${props.join(',')}::${escapeData(where + f.message)}\n`;
}

/** `validate --format github`: one workflow command per finding. */
export function* githubLines(report: ValidationReport, options: { quiet?: boolean } = {}): Generator<string> {
  for (const file of report.files) {
    const lines: string[] = [];
    for (const { f, ref } of sortedFindings(file, options.quiet)) lines.push(githubLine(file, f, ref));
    if (lines.length > 0) yield lines.join('');
  }
}
