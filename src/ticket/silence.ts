// The shop's say over a ticket's findings, applied last: each rule at the severity the run sets (`rules`, off
// drops it), then the ticket's own directives (directives.ts), whose findings are kept aside as suppressed:
// counted, never shown. Run again (settleFindings) after findings are added (validate --check-exists).
import { rulesByCode } from '../rules/catalog.js';
import { copyFinding } from '../rules/finding.js';
import { unknownRuleInDirective, unusedDisableDirective } from '../rules/directives.js';
import type { RuleSettings } from '../rules/settings.js';
import type { Finding } from '../rules/types.js';
import { readDirectives, type Directives, type Silenced } from './directives.js';
import { makeFinding } from './finding.js';
import type { TicketDocument } from './read.js';
import type { LocatedFinding, TicketReference, TicketReport } from './validate.js';

/** Why a finding is not shown: the directive that silenced it (ESLint's suppressedMessages, SARIF's inSource). */
export interface Suppression {
  kind: 'directive';
  /** Where the directive's comment starts. */
  line: number;
  column: number;
  justification?: string;
}

export interface SuppressedFinding extends LocatedFinding {
  suppressions: Suppression[];
}

interface Position {
  line: number;
  column: number;
}

/** A directive's span in lines and columns, and whether it silenced anything. */
interface Span {
  silenced: Silenced;
  from: Position;
  to: Position;
  at: Position;
  used: boolean;
}

export interface Choices {
  rules: RuleSettings | undefined;
  spans: Span[];
  /** The disabling directives, with where each is. */
  disabling: Array<{ at: Position; kind: string; spans: Span[] }>;
  reportUnused: boolean;
  /** The unused-disable-directive findings of the last settling (replaced by the next). */
  unused: Set<LocatedFinding>;
}

const choicesOf = new WeakMap<TicketReport, Choices>();
const KNOWN: ReadonlySet<string> = new Set(rulesByCode.keys());
/** Findings about the directives themselves: a directive cannot silence them. */
const ABOUT_DIRECTIVES: ReadonlySet<string> = new Set([unknownRuleInDirective.meta.code, unusedDisableDirective.meta.code]);

const before = (a: Position, b: Position): boolean => a.line < b.line || (a.line === b.line && a.column < b.column);

/** Reads the directives, reports their unknown names, and settles the findings so far. */
export function silenceFindings(doc: TicketDocument | undefined, report: TicketReport, rules: RuleSettings | undefined, reportUnused: boolean): void {
  const reading = readChoices(doc, rules, reportUnused);
  if (reading !== undefined) settleFileFindings(doc, report, reading);
}

/** The run's settings and the ticket's directives, read before the walk so that each reference is settled as it is reported (settleReference). */
export interface ChoicesRead {
  choices: Choices;
  /** The directives' unknown rule names, reported with the file's findings (settleFileFindings). */
  problems: ReadonlyArray<{ offset: number; args: Record<string, string | number> }>;
}

/** Reads the directives and the run's settings; undefined when there are neither (nothing to settle). */
export function readChoices(doc: TicketDocument | undefined, rules: RuleSettings | undefined, reportUnused: boolean): ChoicesRead | undefined {
  const directives: Directives | undefined = doc !== undefined ? readDirectives(doc.text, doc.tree, KNOWN) : undefined;
  if (rules === undefined && directives === undefined) return undefined;
  const choices: Choices = { rules, spans: [], disabling: [], reportUnused, unused: new Set() };
  if (directives !== undefined && doc !== undefined) {
    const byDirective = new Map<object, Span[]>();
    for (const s of directives.silenced) {
      const span = { silenced: s, from: doc.lines.position(s.from), to: doc.lines.position(s.to), at: doc.lines.position(s.directive.offset), used: false };
      choices.spans.push(span);
      byDirective.set(s.directive, [...(byDirective.get(s.directive) ?? []), span]);
    }
    for (const d of directives.disabling) choices.disabling.push({ at: doc.lines.position(d.offset), kind: d.kind, spans: byDirective.get(d) ?? [] });
  }
  return { choices, problems: directives?.problems ?? [] };
}

/**
 * The last step of the settling: the directives' unknown names reported, the file's findings settled and the
 * unused directives reported, once every reference has been settled; `report` is settled again by settleFindings.
 */
export function settleFileFindings(doc: TicketDocument | undefined, report: TicketReport, { choices, problems }: ChoicesRead): void {
  if (doc !== undefined) for (const p of problems) doc.findings.add(unknownRuleInDirective.meta.code, p.offset, p.args);
  choicesOf.set(report, choices);
  settleFindings(report);
}

/**
 * Applies the run's rule settings and the ticket's directives to every finding of the report, the ones added
 * since validateTicket too (validate --check-exists adds its own); a report validated without either is left as
 * it is. Safe to call again.
 */
export function settleFindings(report: TicketReport): void {
  const choices = choicesOf.get(report);
  if (choices === undefined) return;
  if (choices.unused.size > 0) report.findings = report.findings.filter((f) => !choices.unused.has(f));
  report.findings = settle(report.findings, choices, (s) => (report.suppressed ??= []).push(s));
  for (const ref of report.references) settleReference(ref, choices);
  if (choices.reportUnused) reportUnused(report, choices);
}

/** Settles one reference's findings (silenceFindings does every reference of a report; validateTicketStream each as it goes). */
export function settleReference(ref: TicketReference, choices: Choices): void {
  let dropped: Finding[] | undefined;
  const kept = settle(ref.findings, choices, (s) => (ref.suppressed ??= []).push(s), (f) => (dropped ??= []).push(f));
  ref.findings = kept;
  // What is not reported is not fixed: `fixed` then is the first fix left, alone (each is safe alone), if any.
  if (dropped?.some((f) => f.fix !== undefined)) {
    const first = kept.find((f) => f.fix !== undefined && f.severity !== 'info')?.fix;
    if (first !== undefined) ref.fixed = first;
    else delete ref.fixed;
  }
}

/** The findings left to show: each at its set severity, those set off dropped, those a directive covers passed to `suppress`. */
function settle(findings: LocatedFinding[], choices: Choices, suppress: (s: SuppressedFinding) => void, drop?: (f: Finding) => void): LocatedFinding[] {
  if (findings.length === 0) return findings;
  const out: LocatedFinding[] = [];
  for (const f of findings) {
    const setting = choices.rules?.[f.code];
    if (setting === 'off') {
      drop?.(f);
      continue;
    }
    if (setting !== undefined) f.severity = setting;
    const span = ABOUT_DIRECTIVES.has(f.code) ? undefined : covering(choices.spans, f);
    if (span === undefined) {
      out.push(f);
      continue;
    }
    span.used = true;
    const { justification } = span.silenced.directive;
    const suppressions: Suppression[] = [{ kind: 'directive', line: span.at.line, column: span.at.column, ...(justification !== undefined ? { justification } : {}) }];
    suppress(copyFinding(f, { suppressions }));
    drop?.(f);
  }
  return out;
}

/** The first span that silences this finding's rule where it stands. */
function covering(spans: readonly Span[], f: LocatedFinding): Span | undefined {
  for (const s of spans) {
    if ((s.silenced.code === '*' || s.silenced.code === f.code) && !before(f, s.from) && before(f, s.to)) return s;
  }
  return undefined;
}

/** One unused-disable-directive finding for each disabling directive that silenced nothing (of one of its rules). */
function reportUnused(report: TicketReport, choices: Choices): void {
  choices.unused.clear();
  for (const d of choices.disabling) {
    const idle = d.spans.filter((s) => !s.used);
    if (idle.length === 0) continue;
    const codes = idle.map((s) => s.silenced.code).filter((c) => c !== '*').join(', ');
    const f = makeFinding(unusedDisableDirective.meta.code, 'jdf', { directive: `jdf-filespec-${d.kind}`, codes }, d.at);
    const setting = choices.rules?.[f.code];
    if (setting === 'off') continue;
    if (setting !== undefined) f.severity = setting;
    choices.unused.add(f);
    report.findings.push(f);
  }
}
