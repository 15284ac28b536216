// Step 5 of validateTicket: the findings for one reference the walk reaches, and the reference as reported.
import { checkUrl } from '../check.js';
import { redactPassword } from '../fileurl/redact.js';
import type { WalkedReference } from '../rules/ticket.js';
import type { CheckOptions, Role } from '../rules/types.js';
import type { Attribute } from './xml/index.js';
import type { ElementPaths } from './element-paths.js';
import { FileSpecFactsReader } from './filespec-facts.js';
import { bySeverityThenPlace, makeFinding } from './finding.js';
import { identifierKind } from './identifier.js';
import { noteReportedInValue, type TicketDocument } from './read.js';
import { IDENTIFIER_RULES, REFERENCE_RULES } from './ticket-rules.js';
import type { BaseSource, LocatedFinding, TicketReference, ValidateOptions } from './validate.js';

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

/** Records the references of one ticket in its report, in the order the walk reaches them. */
export class ReferenceRecorder {
  /** Directories reported (in order), and the elements whose Directory some relative reference resolved against. */
  readonly directoryReferences: Array<{ e: number; ref: TicketReference }> = [];
  readonly usedDirectories = new Set<number>();
  // One options object per (base, role): a ticket has few bases and many references.
  private readonly checkOptionsCache = new Map<string, CheckOptions>();
  private readonly facts: FileSpecFactsReader;

  constructor(
    private readonly doc: TicketDocument,
    private readonly options: ValidateOptions,
    private readonly paths: ElementPaths,
  ) {
    this.facts = new FileSpecFactsReader(doc.tree);
  }

  /**
   * Checks a URL or Directory against its base and reports it. `via`: the rRef through which it was reached;
   * `container`: a FileSpec/@URL inside a container (appendix 4.6).
   */
  url(element: number, attr: Attribute, role: Role, base: Base, via: string | undefined, container?: boolean): TicketReference {
    const value = attr.value;
    const checked = checkUrl(value, this.checkOptionsFor(base.uri, role));
    const findings = this.valueFindings(attr, checked.findings);
    for (const p of attr.problems) findings.push(this.finding(p.code, p.args, this.doc.lines.position(p.offset)));
    noteReportedInValue(this.doc, attr.problems);
    // Non-file URLs (http, ftp, mailto, cid: a MIME part) are never resolved against a Directory or folder.
    const nonFile = checked.scheme !== undefined && checked.scheme !== 'file' && checked.scheme.length > 1;
    const shownBase: Base = nonFile ? NO_BASE : base;
    if (base.from !== undefined && checked.kind !== 'absolute') this.usedDirectories.add(base.from);
    const walked: WalkedReference = { role, value, kind: checked.kind, base, inContainer: container === true };
    for (const rule of REFERENCE_RULES) {
      rule.checkReference(walked, this.doc, (r) => {
        if (r.supersedes) for (let k = findings.length - 1; k >= 0; k--) if (r.supersedes.includes(findings[k]!.code)) findings.splice(k, 1);
        findings.push(this.finding(rule.meta.code, r.args ?? {}, this.positionIn(attr, r.offset)));
      });
    }
    if (findings.length > 1) findings.sort(bySeverityThenPlace);
    const ref: TicketReference = {
      element: this.paths.pathOf(element),
      attribute: attr.name,
      role,
      value: checked.value,
      ...this.placeOf(attr),
      base: shownBase.uri === null ? null : redactPassword(shownBase.uri),
      baseSource: shownBase.source,
      kind: checked.kind,
      resolved: checked.resolved,
      local: checked.local,
      findings,
    };
    if (via !== undefined) ref.via = via;
    if (checked.scheme !== undefined) ref.scheme = checked.scheme;
    if (checked.fixed !== undefined) ref.fixed = checked.fixed;
    const facts = role === 'url' ? this.facts.of(element) : undefined;
    if (facts) ref.fileSpec = facts;
    if (role === 'directory') this.directoryReferences.push({ e: element, ref });
    this.doc.report.references.push(ref);
    return ref;
  }

  /** Where a value stands in the text: its first and last line and column, and its span. */
  private placeOf(attr: Attribute): Pick<TicketReference, 'line' | 'column' | 'endLine' | 'endColumn' | 'span'> {
    const at = this.doc.lines.position(attr.valueStart);
    const end = this.doc.lines.position(attr.valueEnd);
    return { line: at.line, column: at.column, endLine: end.line, endColumn: end.column, span: [attr.valueStart, attr.valueEnd] };
  }

  /** A URI that identifies rather than locates (DevNS, PDFXRegistryName): its syntax only, never resolved or looked for. */
  identifier(element: number, attr: Attribute, via: string | undefined): void {
    const checked = identifierKind(attr.value);
    const findings: LocatedFinding[] = [];
    for (const rule of IDENTIFIER_RULES) rule.checkIdentifier(attr.value, (r) => findings.push(this.finding(rule.meta.code, r.args ?? {}, this.positionIn(attr, r.offset))));
    for (const p of attr.problems) findings.push(this.finding(p.code, p.args, this.doc.lines.position(p.offset)));
    noteReportedInValue(this.doc, attr.problems);
    if (findings.length > 1) findings.sort(bySeverityThenPlace);
    const ref: TicketReference = {
      element: this.paths.pathOf(element),
      attribute: attr.name,
      role: 'identifier',
      value: redactPassword(attr.value),
      ...this.placeOf(attr),
      base: null,
      baseSource: 'none',
      kind: checked.kind,
      resolved: null,
      local: 'unknown',
      findings,
    };
    if (via !== undefined) ref.via = via;
    if (checked.scheme !== undefined) ref.scheme = checked.scheme;
    this.doc.report.references.push(ref);
  }

  /** checkUrl's findings, placed in the text; those inside a reference XML could not expand are dropped. */
  private valueFindings(attr: Attribute, found: ReturnType<typeof checkUrl>['findings']): LocatedFinding[] {
    if (found.length === 0) return [];
    // A reference XML could not expand is unknown text: URL findings inside it would be artefacts of its spelling.
    const unknownSpans = attr.problems.filter((p) => p.length !== undefined).map((p) => [p.offset, p.offset + p.length!] as const);
    const insideUnknown = (index: number) => {
      const at = attr.offsets?.[index] ?? attr.valueStart + index;
      return unknownSpans.some(([from, to]) => at >= from && at < to);
    };
    return found
      .filter((f) => unknownSpans.length === 0 || f.offset === undefined || !insideUnknown(f.offset))
      .map((f) => ({ ...f, ...this.positionIn(attr, f.offset ?? 0) }));
  }

  private finding(code: string, args: Record<string, string | number>, at: { line: number; column: number }): LocatedFinding {
    return makeFinding(code, this.doc.profile, args, at);
  }

  /** Where index `index` of the decoded value stands in the text. */
  private positionIn(attr: Attribute, index: number): { line: number; column: number } {
    return this.doc.lines.position(attr.offsets?.[index] ?? attr.valueStart + index);
  }

  private checkOptionsFor(base: string | null, role: Role): CheckOptions {
    const key = `${role}\u0000${base ?? ''}`;
    let o = this.checkOptionsCache.get(key);
    if (o === undefined) {
      const { options, doc } = this;
      o = { profile: doc.profile, role, charset: doc.urlCharset };
      if (base !== null) o.base = base;
      if (options.platform) o.platform = options.platform;
      if (doc.version !== undefined) o.jdfVersion = doc.version;
      if (options.drivePreserving) o.drivePreserving = true;
      if (options.localHosts) o.localHosts = options.localHosts;
      this.checkOptionsCache.set(key, o);
    }
    return o;
  }
}
