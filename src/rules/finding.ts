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

/** What a finding of a code said: a ticket's values repeat their problems, so its words are made once. */
interface Said {
  args: FindingArgs;
  shown: FindingArgs;
  message: string;
}
/** The last two different things each code said (values of two forms often take turns). */
const lastSaid = new Map<RuleCode, [Said, Said | undefined]>();

/** The masked arguments and the sentence for a code and its arguments, shared with a recent finding of the code when they are the same. */
function say(code: RuleCode, args: FindingArgs): Said {
  const recent = lastSaid.get(code);
  if (recent !== undefined) {
    if (sameArgs(recent[0].args, args)) return recent[0];
    if (recent[1] !== undefined && sameArgs(recent[1].args, args)) return recent[1];
  }
  const shown = shownArgs(args);
  const message = messageOf(code, shown);
  const said = { args: { ...args }, shown: sharingMessage(shown, message), message }; // a copy: the caller may reuse its object
  lastSaid.set(code, [said, recent?.[0]]);
  return said;
}

/** Arguments at least this long are kept as a part of the sentence that quotes them, not beside it. */
const SHARED_ARG = 64;

/**
 * The arguments, each long one that the sentence quotes as it is taken as that part of the sentence: a value's
 * readings or resolution is then held once, not twice (V8 keeps a slice of a flat string as a view of it).
 */
function sharingMessage(shown: FindingArgs, message: string): FindingArgs {
  for (const key in shown) {
    const v = shown[key]!;
    if (typeof v !== 'string' || v.length < SHARED_ARG) continue;
    const at = message.indexOf(v);
    if (at !== -1) (shown as Record<string, string | number>)[key] = message.slice(at, at + v.length);
  }
  return shown;
}

/** The sentence for a code and its (already masked) arguments: the one place findings get their words. */
export function messageOf(code: RuleCode, args: FindingArgs): string {
  const rule = rulesByCode.get(code);
  if (rule === undefined) throw new RangeError(`no rule has the code '${code}'`);
  return redact(rule.message(args));
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
  const { shown, message } = say(code, args);
  const finding: Finding = { code, severity, message, args: shown, spec: rule.meta.spec };
  if (fix !== undefined) finding.fix = stripPassword(fix);
  if (offset !== undefined) finding.offset = offset;
  return finding;
}

/** The finding said again with other arguments (a ticket-level fact changed its meaning): its words follow. */
export function restateFinding(finding: Finding, args: FindingArgs, severity?: Severity): void {
  finding.args = shownArgs(args);
  finding.message = messageOf(finding.code, finding.args);
  if (severity !== undefined) finding.severity = severity;
}
