// Step 5 of validateTicket: the findings for one reference the walk reaches, and the reference as reported.
//
// What a value comes to depends on the value and on its context only: the base, the role, whether it names a
// file in a container, and the options of the ticket (profile, platform, charset, JDF version, ...). So each
// context is made once per ticket with its checkUrl options and its shown base, and a value met again in the
// same context is not checked again: its checkUrl answer and the reference rules' reports are reused, and each
// place gets its own findings, made from those with its line and column. Only the place is per reference: the
// XML problems of the attribute, and where each finding stands in the text.
import { checkUrl, type CheckResult } from '../check.js';
import { redactPassword } from '../fileurl/redact.js';
import { ownCopy } from '../util/own-copy.js';
import type { TicketRuleReport, WalkedReference } from '../rules/ticket.js';
import type { TicketLayer, TicketView } from '../rules/ticket-view.js';
import { disagreementOf } from './readings.js';
import { parseReference } from '../uri/parse.js';
import type { CheckOptions, Finding, Role } from '../rules/types.js';
import { sortFew } from '../util/sort-few.js';
import type { Attribute } from './xml/index.js';
import type { ElementPaths } from './element-paths.js';
import type { FileSpecFacts } from './filespec-facts.js';
import { bySeverityThenPlace, makeFinding, placed, reword, SharedWords, unplacedFinding } from './finding.js';
import { identifierKind } from './identifier.js';
import { noteReportedInValue, type TicketDocument } from './read.js';
import { notReadyStatus } from './resources.js';
import { DIRECTORY_WARNING, type ReferenceQueue } from './reference-queue.js';
import { IDENTIFIER_RULES, REFERENCE_RULES } from './ticket-rules.js';
import type { BaseSource, LocatedFinding, TicketReference, ValidateOptions } from './validate.js';
import type { RuleCode } from '../rules/codes.js';

/** What a reference resolves against. */
export interface Base {
  uri: string | null;
  source: BaseSource;
  /** The element whose Directory this is. */
  from?: number;
}

export const NO_BASE: Base = { uri: null, source: 'none' };

/** The base inside a container that names no file (no URL; a FileSpecRef that is dangling, cyclic or whose Part matches nothing). */
export const NO_CONTAINER: Base = { uri: null, source: 'container' };

/** A reference rule's report on a value, its finding made without a place (or, `into`, what goes into checkUrl's finding of that code). */
interface RuleFinding {
  finding: Finding | undefined;
  /** Index in the value. */
  offset: number;
  supersedes: readonly string[] | undefined;
  into?: { code: RuleCode; args: Record<string, string | number> };
}

/** What a value comes to in a context, wherever it stands. */
interface Checked {
  result: CheckResult;
  rules: readonly RuleFinding[];
  /** The codes of checkUrl's findings that a reference rule's finding says more than (not placed). */
  superseded: readonly string[] | undefined;
}

const NO_RULE_FINDINGS: readonly RuleFinding[] = [];

/**
 * How many values each context notes (then it notes no more); 0 checks every reference on its own, its context
 * made for it alone: the tests' oracle. An answer is kept for the value just before, and for a value the second
 * time it is met: a table of names, not of answers (an answer held for each of 100,000 different names held
 * their findings twice until the garbage collector caught up). A context that has noted `probe` values and met
 * none of them again stops noting: its names are all different (a generated ticket, one file per page), and the
 * table cost 4% of such a ticket's time.
 */
export const remembering = { perContext: 65_536, probe: 2048 };

/** Everything but the value that decides what a reference comes to. */
class Context {
  /** The base as the reference rules see it. */
  readonly base: { uri: string | null; source: BaseSource };
  /** The base as reported: a password masked. */
  readonly shownUri: string | null;
  /** The values met, each with its answer from the second time on (null: met once). */
  readonly remembered = new Map<string, Checked | null>();
  /** Whether values are still noted (see remembering.probe), and how many were met again. */
  noting = true;
  repeats = 0;
  /** The value just before, and its answer. */
  lastValue: string | undefined;
  lastChecked: Checked | undefined;

  constructor(
    base: Base,
    readonly role: Role,
    readonly inContainer: boolean,
    readonly options: CheckOptions,
  ) {
    // A base is a Directory's value, a view of the ticket's text (ownCopy): every reference reports it.
    const uri = base.uri === null ? null : ownCopy(base.uri);
    this.base = { uri, source: base.source };
    this.shownUri = uri === null ? null : redactPassword(uri);
  }
}

/** A reference rule's arguments added to the finding at this place that is their cause (src/rules/causes.ts). */
function addToCause(findings: readonly LocatedFinding[], count: number, code: RuleCode, args: Record<string, string | number>): void {
  let cause: LocatedFinding | undefined;
  for (let i = 0; i < count && cause === undefined; i++) if (findings[i]!.code === code) cause = findings[i];
  if (cause !== undefined) reword(cause, cause.severity, merged(cause.args ?? {}, args));
}

/**
 * `{ ...a, ...b }`, written out: V8 made the spread of these objects in the old generation, so each reference's
 * merged arguments outlived it there (100,000 broken references grew the heap by 20 MB before a full collection).
 */
function merged(a: Readonly<Record<string, string | number>>, b: Readonly<Record<string, string | number>>): Record<string, string | number> {
  const out: Record<string, string | number> = {};
  for (const key in a) out[key] = a[key]!;
  for (const key in b) out[key] = b[key]!;
  return out;
}

/** Records the references of one ticket in its queue (reference-queue.ts), in the order the walk reaches them. */
export class ReferenceRecorder {
  /** The contexts by base URI: a ticket has few bases and many references. */
  private readonly contexts = new Map<string | null, Context[]>();
  private readonly words = new SharedWords();
  /** Where url() gathers one reference's findings before copying them once (past its count, an earlier reference's, which its report holds anyway). */
  private readonly scratch: LocatedFinding[] = [];
  // The reference rules report into a scratch list (by index, with a count) through one function; check() copies it once.
  private readonly ruleScratch: RuleFinding[] = [];
  private ruleCount = 0;
  private ruleCode: RuleCode = 'internal-error'; // set before each rule runs
  private readonly collect = (r: TicketRuleReport): void => {
    this.ruleScratch[this.ruleCount++] = r.into !== undefined
      ? { finding: undefined, offset: r.offset, supersedes: r.supersedes, into: { code: r.into, args: r.args ?? {} } }
      : { finding: unplacedFinding(this.ruleCode, this.doc.profile, r.args ?? {}), offset: r.offset, supersedes: r.supersedes };
  };

  /** The document as the reference rules see it: its disagreements leave their readings on the queue's shelf. */
  private readonly view: TicketView;

  constructor(
    private readonly doc: TicketDocument,
    private readonly options: ValidateOptions,
    private readonly paths: ElementPaths,
    readonly queue: ReferenceQueue,
  ) {
    const shelf = queue.shelf;
    const layer: TicketLayer = { ...doc.layer, disagreement: (value, base, withJoin) => disagreementOf(value, base, withJoin, shelf) };
    this.view = { text: doc.text, lines: doc.lines, tree: doc.tree, root: doc.root, layer };
  }

  /**
   * Checks a URL or Directory against its base and reports it. `via`: the rRef through which it was reached;
   * `container`: a FileSpec/@URL inside a container (appendix 4.6); `facts`: what its FileSpec declares; `again`:
   * where the walk may come back; `endpoint`: a route or endpoint, not a file (its own scheme is a vendor's
   * business). Returns what it resolved to: the reference itself comes in many shapes (its optional fields), and
   * code that reads it on every reference would see them all.
   */
  url(element: number, attr: Attribute, role: Role, base: Base, via: string | undefined, container: boolean, facts: FileSpecFacts | undefined, again: boolean, endpoint: boolean): string | null {
    const context = this.contextOf(base, role, container);
    const value = attr.value;
    const checked = context.lastValue === value ? context.lastChecked! : this.answer(value, context);
    const result = checked.result;
    // Gathered in the scratch list (by index, with a count), copied once at their length (a pushed list holds 17).
    const scratch = this.scratch;
    let n = result.findings.length === 0 ? 0 : this.valueFindings(attr, result.findings, checked.superseded);
    if (attr.problems.length > 0) {
      for (const p of attr.problems) scratch[n++] = makeFinding(p.code, this.doc.profile, p.args, this.doc.lines.position(p.offset));
      noteReportedInValue(this.doc, attr.problems);
    }
    if (base.from !== undefined && result.kind !== 'absolute') this.queue.use(base.from);
    for (const r of checked.rules) {
      if (r.finding !== undefined) scratch[n++] = placed(r.finding, this.positionIn(attr, r.offset), this.words.of(r.finding));
      else if (r.into !== undefined) addToCause(scratch, n, r.into.code, r.into.args);
    }
    if (result.kind === 'relative-path' && n > 0) this.settleNotReady(element, scratch, n);
    const kept: LocatedFinding[] = n === 0 ? [] : scratch.slice(0, n);
    if (n > 1) sortFew(kept, bySeverityThenPlace);
    // A vendor's own scheme in a route or endpoint (Prinect's pt://host/Normalizer) is its business: info.
    if (endpoint) for (const f of kept) if (f.code === 'unknown-scheme' && f.severity === 'warning') downgradeScheme(f, kept, result.value);
    // Non-file URLs (http, ftp, mailto, cid: a MIME part) are never resolved against a Directory or folder.
    const nonFile = result.scheme !== undefined && result.scheme !== 'file' && result.scheme.length > 1;
    const lines = this.doc.lines;
    const at = lines.position(attr.valueStart);
    const end = lines.position(attr.valueEnd);
    const ref: TicketReference = {
      element: this.paths.pathOf(element),
      attribute: attr.name,
      role,
      value: result.value,
      line: at.line,
      column: at.column,
      endLine: end.line,
      endColumn: end.column,
      span: [attr.valueStart, attr.valueEnd],
      base: nonFile ? null : context.shownUri,
      baseSource: nonFile ? 'none' : base.source,
      kind: result.kind,
      resolved: result.resolved,
      local: result.local,
      findings: kept,
    };
    if (via !== undefined) ref.via = via;
    if (result.scheme !== undefined) ref.scheme = result.scheme;
    if (result.fixed !== undefined) ref.fixed = result.fixed;
    if (facts) ref.fileSpec = facts;
    const waitsOnUse = role === 'directory' && kept.some(isDirectoryWarning);
    this.queue.add(ref, kept, element, again, result.fixed !== undefined, waitsOnUse);
    return result.resolved;
  }

  /** An empty URL on a resource the ticket declares not ready (Status Unavailable or Incomplete) is info naming the status. */
  private settleNotReady(element: number, findings: readonly LocatedFinding[], count: number): void {
    let empty: LocatedFinding | undefined;
    for (let i = 0; i < count && empty === undefined; i++) if (findings[i]!.code === 'empty-url' && findings[i]!.severity === 'error') empty = findings[i];
    if (empty === undefined) return;
    const status = notReadyStatus(this.doc.tree, element);
    if (status !== undefined) reword(empty, 'info', { status });
  }

  /** A URI that identifies rather than locates (DevNS, PDFXRegistryName): its syntax only, never resolved or looked for. */
  identifier(element: number, attr: Attribute, via: string | undefined): void {
    const checked = identifierKind(attr.value);
    const findings: LocatedFinding[] = [];
    for (const rule of IDENTIFIER_RULES) rule.checkIdentifier(attr.value, (r) => findings.push(makeFinding(rule.meta.code, this.doc.profile, r.args ?? {}, this.positionIn(attr, r.offset))));
    for (const p of attr.problems) findings.push(makeFinding(p.code, this.doc.profile, p.args, this.doc.lines.position(p.offset)));
    noteReportedInValue(this.doc, attr.problems);
    if (findings.length > 1) sortFew(findings, bySeverityThenPlace);
    const lines = this.doc.lines;
    const at = lines.position(attr.valueStart);
    const end = lines.position(attr.valueEnd);
    const ref: TicketReference = {
      element: this.paths.pathOf(element),
      attribute: attr.name,
      role: 'identifier',
      value: redactPassword(attr.value),
      line: at.line,
      column: at.column,
      endLine: end.line,
      endColumn: end.column,
      span: [attr.valueStart, attr.valueEnd],
      base: null,
      baseSource: 'none',
      kind: checked.kind,
      resolved: null,
      local: 'unknown',
      findings,
    };
    if (via !== undefined) ref.via = via;
    if (checked.scheme !== undefined) ref.scheme = checked.scheme;
    this.queue.add(ref, findings, element, false, false, false);
  }

  /** What a value comes to in a context: remembered, or checked (and noted, or remembered the second time). */
  private answer(value: string, context: Context): Checked {
    const remembered = context.remembered;
    let checked = context.noting || remembered.size > 0 ? remembered.get(value) : undefined;
    if (!checked) {
      const metOnce = checked === null;
      checked = this.check(value, context);
      if (metOnce) {
        remembered.set(value, checked);
        context.repeats++;
      } else if (context.noting) {
        if (remembered.size < remembering.perContext) remembered.set(value, null);
        if (remembered.size >= remembering.probe && context.repeats === 0) {
          context.noting = false;
          remembered.clear();
        }
      }
    }
    if (remembering.perContext > 0) {
      context.lastValue = value;
      context.lastChecked = checked;
    }
    return checked;
  }

  /** checkUrl's answer for a value in a context, and what the reference rules say of it. */
  private check(value: string, context: Context): Checked {
    const result = checkUrl(value, context.options);
    // A template is not a URL: its one finding says so, and no reference rule judges it either.
    if (result.findings[0]?.code === 'template-placeholder') return { result, rules: NO_RULE_FINDINGS, superseded: undefined };
    const walked: WalkedReference = { role: context.role, value, kind: result.kind, base: context.base, inContainer: context.inContainer, findings: result.findings };
    // The rules report into the scratch list; most values get no report, and share one empty list.
    this.ruleCount = 0;
    for (const rule of REFERENCE_RULES) {
      this.ruleCode = rule.meta.code;
      rule.checkReference(walked, this.view, this.collect);
    }
    const rules = this.ruleCount === 0 ? NO_RULE_FINDINGS : this.ruleScratch.slice(0, this.ruleCount);
    this.ruleCount = 0;
    let superseded: readonly string[] | undefined;
    for (const r of rules) if (r.supersedes) superseded = superseded === undefined ? r.supersedes : [...superseded, ...r.supersedes];
    return { result, rules, superseded };
  }

  /** checkUrl's findings placed in the text, into the scratch list from 0 (how many); those a rule supersedes or inside a reference XML could not expand dropped. */
  private valueFindings(attr: Attribute, found: readonly Finding[], superseded: readonly string[] | undefined): number {
    const scratch = this.scratch;
    let n = 0;
    for (const f of found) {
      if (superseded !== undefined && superseded.includes(f.code)) continue;
      const index = f.offset ?? 0;
      // A reference XML could not expand is unknown text: URL findings inside it would be artefacts of its spelling.
      if (f.offset !== undefined && attr.problems.length > 0 && this.insideUnknown(attr, index)) continue;
      scratch[n++] = placed(f, this.positionIn(attr, index), this.words.of(f));
    }
    return n;
  }

  private insideUnknown(attr: Attribute, index: number): boolean {
    const at = attr.offsets?.[index] ?? attr.valueStart + index;
    return attr.problems.some((p) => p.length !== undefined && at >= p.offset && at < p.offset + p.length);
  }

  /** Where index `index` of the decoded value stands in the text. */
  private positionIn(attr: Attribute, index: number): { line: number; column: number } {
    return this.doc.lines.position(attr.offsets?.[index] ?? attr.valueStart + index);
  }

  private contextOf(base: Base, role: Role, inContainer: boolean): Context {
    if (remembering.perContext === 0) return new Context(base, role, inContainer, this.checkOptions(base.uri, role, []));
    let list = this.contexts.get(base.uri);
    if (list === undefined) this.contexts.set(base.uri, (list = []));
    for (const c of list) if (c.role === role && c.inContainer === inContainer && c.base.source === base.source) return c;
    const context = new Context(base, role, inContainer, this.checkOptions(base.uri, role, list));
    list.push(context);
    return context;
  }

  /** One options object per (base, role), shared by the contexts that differ only in what the rules see. */
  private checkOptions(base: string | null, role: Role, siblings: readonly Context[]): CheckOptions {
    const same = siblings.find((c) => c.role === role);
    if (same !== undefined) return same.options;
    const { options, doc } = this;
    const o: CheckOptions = { profile: doc.profile, role, charset: doc.urlCharset };
    if (base !== null) o.base = base;
    if (options.platform) o.platform = options.platform;
    if (doc.version !== undefined) o.jdfVersion = doc.version;
    if (options.drivePreserving) o.drivePreserving = true;
    if (options.localHosts) o.localHosts = options.localHosts;
    return o;
  }
}

const isDirectoryWarning = (f: LocatedFinding): boolean => f.code === DIRECTORY_WARNING && f.severity === 'warning';

function downgradeScheme(f: LocatedFinding, findings: LocatedFinding[], value: string): void {
  reword(f, 'info', { scheme: parseReference(value.trim()).scheme ?? '', endpoint: 1 });
  findings.sort(bySeverityThenPlace);
}
