// Findings are data: a rule code, its arguments, a severity and a place. The words are made here, from the code
// and the arguments, by the rule's own `message`: the text, JSON, SARIF and GitHub formats and the docs all read
// what this module made, so they cannot drift apart.
import { redactPassword, stripPassword } from '../fileurl/redact.js';
import { redactSecrets } from '../fileurl/secrets.js';
import { rulesByCode } from './catalog.js';
import type { RuleCode } from './codes.js';
import type { CatalogRule, Finding, FindingArgs, Profile, RuleMeta, Severity } from './types.js';

/** A place in a ticket: 1-based line, and column in UTF-16 code units. */
export interface Position {
  line: number;
  column: number;
}

export interface FindingOptions {
  /** Whose severities apply; default `jdf`. */
  profile?: Profile;
  /** The rule's own verdict for this case (platform- or version-dependent rules), in place of the profile's. */
  severity?: Severity;
  /** Where in the value the problem starts (0-based UTF-16 index). */
  offset?: number;
  /** The whole value with this one problem corrected; a password in it is dropped. */
  fix?: string;
}

/**
 * The severity a finding of the rule has: the rule's override, else the profile's. `null` means one thing
 * everywhere: the profile does not report the rule. Only URL rules have a null (the catalog test holds every rule
 * of the other scopes reported under every profile); checkUrl asks before it builds the finding.
 */
export function severityUnder(meta: RuleMeta, profile: Profile, override?: Severity | null): Severity | null {
  return override === undefined ? meta.severity[profile] : override;
}

/** Whether the text has what either mask looks for first ('@' or '&'; 'Password' or 'NetworkHeader'): most have none. */
const mayHoldSecret = (text: string): boolean =>
  text.indexOf('@') !== -1 || text.indexOf('&') !== -1 || text.indexOf('Password') !== -1 || text.indexOf('NetworkHeader') !== -1;

/** Masks what must never be shown: a password in a URL, FileSpec/@Password and NetworkHeader values. */
const redact = (text: string): string => (mayHoldSecret(text) ? redactSecrets(redactPassword(text)) : text);

/** The arguments as they may be shown: every string masked. */
function shownArgs(args: FindingArgs): FindingArgs {
  const out: Record<string, string | number> = {};
  for (const key of Object.keys(args)) {
    const v = args[key]!;
    out[key] = typeof v === 'string' ? redact(v) : v;
  }
  return out;
}

/** Whether two findings' arguments say the same: the same names with the same values. */
function sameArgs(a: FindingArgs, b: FindingArgs): boolean {
  let count = 0;
  for (const key in a) {
    if (a[key] !== b[key]) return false;
    count++;
  }
  for (const _ in b) count--;
  return count === 0;
}

/** What a finding of a code said: the arguments given, and the masked ones its findings share. */
interface Said {
  args: FindingArgs;
  shown: FindingArgs;
}
/** The last two different things each code said (values of two forms often take turns). */
const lastSaid = new Map<RuleCode, [Said, Said | undefined]>();

/** The masked arguments for a code and its arguments, shared with a recent finding of the code when they are the same. */
function say(code: RuleCode, args: FindingArgs): Said {
  const recent = lastSaid.get(code);
  if (recent !== undefined) {
    if (sameArgs(recent[0].args, args)) return recent[0];
    if (recent[1] !== undefined && sameArgs(recent[1].args, args)) return recent[1];
  }
  const said = { args: { ...args }, shown: shownArgs(args) }; // a copy: the caller may reuse its object
  lastSaid.set(code, [said, recent?.[0]]);
  return said;
}

/** The sentence for a code and its (already masked) arguments: the one place findings get their words. */
function sentenceOf(code: RuleCode, args: FindingArgs): string {
  const rule = rulesByCode.get(code);
  if (rule === undefined) throw new RangeError(`no rule has the code '${code}'`);
  return redact(rule.message(args));
}

/**
 * What every finding createFinding makes inherits: its sentence, made from its code and arguments each time it is
 * read (a report of 100,000 findings holds no sentence until something reads one), and the JSON that writes it
 * in its place (after `severity`), so JSON.stringify, the formats and every reader see the same text. A spread
 * copy (`{ ...finding }`) has no `message`: `messageOf(finding)` gives it, or `copyFinding` keeps the prototype.
 */
class MadeFinding {
  declare code: RuleCode;
  declare severity: Severity;
  declare args: FindingArgs;
  declare spec: string;

  constructor(code: RuleCode, severity: Severity, args: FindingArgs, spec: string) {
    this.code = code;
    this.severity = severity;
    this.args = args;
    this.spec = spec;
  }

  get message(): string {
    return sentenceOf(this.code, this.args);
  }

  toJSON(): Record<string, unknown> {
    const out: Record<string, unknown> = { code: this.code, severity: this.severity, message: this.message };
    for (const key of Object.keys(this)) if (key !== 'code' && key !== 'severity') out[key] = (this as unknown as Record<string, unknown>)[key];
    return out;
  }
}

/**
 * A finding's sentence: its own `message` when it has one (a finding createFinding made, or a plain one), else made
 * from its code and arguments (a spread copy of a finding, which carries no `message`).
 */
export function messageOf(finding: Pick<Finding, 'code' | 'args'> & { message?: string }): string {
  const own = finding.message;
  if (typeof own === 'string') return own;
  return sentenceOf(finding.code, finding.args ?? {});
}

/** A copy of a finding with `changes`, its sentence still made when read (a spread copy loses it). */
export function copyFinding<F extends Finding, C extends object>(finding: F, changes: C): F & C {
  return Object.assign(Object.create(Object.getPrototypeOf(finding) as object) as F, finding, changes);
}

/**
 * A finding that came through structured cloning (a worker's report, postMessage), which keeps own properties
 * only: its prototype back, so that its sentence is made again. A finding with its own `message` stays as it is.
 */
export function revivedFinding<F extends Finding>(finding: F): F {
  if (!Object.hasOwn(finding, 'message') && finding.args !== undefined) Object.setPrototypeOf(finding, MadeFinding.prototype);
  return finding;
}

/**
 * Builds a finding: every finding of every scope is made here. With `at` it is a finding in a ticket (line and
 * column). Throws on a code the catalog does not know, or a rule its profile does not report (see severityUnder):
 * both are mistakes of ours, not of the input.
 */
export function createFinding(code: RuleCode, args: FindingArgs, options: FindingOptions & { at: Position }): Finding & Position;
export function createFinding(code: RuleCode, args?: FindingArgs, options?: FindingOptions): Finding;
export function createFinding(code: RuleCode, args: FindingArgs = {}, options: FindingOptions & { at?: Position } = {}): Finding {
  const rule = rulesByCode.get(code);
  if (rule === undefined) throw new RangeError(`no rule has the code '${code}'`);
  const profile = options.profile ?? 'jdf';
  const severity = severityUnder(rule.meta, profile, options.severity);
  if (severity === null) throw new RangeError(`the ${profile} profile does not report '${code}'`);
  const finding = findingOf(rule, args, severity, options.offset, options.fix);
  return options.at === undefined ? finding : Object.assign(finding, { line: options.at.line, column: options.at.column });
}

/** createFinding for a rule at hand whose severity is settled: how checkUrl's rules report, once per finding. */
export function findingOf(rule: CatalogRule, args: FindingArgs, severity: Severity, offset: number | undefined, fix: string | undefined): Finding {
  const code = rule.meta.code;
  const finding: Finding = new MadeFinding(code, severity, say(code, args).shown, rule.meta.spec);
  if (fix !== undefined) finding.fix = stripPassword(fix);
  if (offset !== undefined) finding.offset = offset;
  return finding;
}

/**
 * A finding of createFinding's placed at a line and column, with `args` (equal to its own, perhaps an object other
 * findings share): a new object, its properties in createFinding's order, then the place.
 */
export function placedFinding(finding: Finding, args: FindingArgs, at: Position): Finding & Position {
  const out = new MadeFinding(finding.code, finding.severity, args, finding.spec!) as MadeFinding & Finding & Position;
  if (finding.fix !== undefined) out.fix = finding.fix;
  if (finding.offset !== undefined) out.offset = finding.offset;
  if (finding.suggestions !== undefined) out.suggestions = finding.suggestions;
  out.line = at.line;
  out.column = at.column;
  return out;
}

/** The finding said again with other arguments (a ticket-level fact changed its meaning): its words follow. */
export function restateFinding(finding: Finding, args: FindingArgs, severity?: Severity): void {
  finding.args = shownArgs(args);
  if (Object.hasOwn(finding, 'message')) finding.message = sentenceOf(finding.code, finding.args); // a plain finding's own words
  if (severity !== undefined) finding.severity = severity;
}
