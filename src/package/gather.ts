// Gathering a package's parts (MIME parts or zip entries) as their bytes stream past: the first bytes, to tell
// what each is, and all of a part while it may be a ticket or a nested package; the rest is only counted. A
// part's bytes are let go once it is settled (checks.ts), so a package holds one part at a time; and the parts
// read whole, together, stop at a limit of their own (maxReadBytes), which bounds the time and the reports.
import type { TicketReport } from '../ticket/validate.js';
import { concat } from '../util/concat.js';
import { detectPackage } from './detect.js';
import { declaredByName, declaredByType, sniff, SNIFF_BYTES, TYPE_OF, type Sniffed } from './magic.js';
import type { PackageReport, PartSummary } from './validate.js';
import type { RuleCode } from '../rules/codes.js';
import { contentTypeProblem, type LimitFacts } from '../rules/package-read.js';

/** A part on its way through: its first bytes (to sniff), and all of it while it may be a ticket or a nested package. */
export interface Gathered {
  summary: PartSummary;
  at: { line: number; column: number };
  head: Uint8Array[];
  headBytes: number;
  kept: Uint8Array[] | null;
  keptBytes: number;
  /** The part is a package too. */
  nested: boolean;
  declared?: Sniffed;
  declaredText?: string;
  /** Not read whole: the package's parts had come to maxReadBytes. */
  overTotal?: boolean;
  /** What the part came to once settled: a ticket part validated, a nested package read (or too deep to be). */
  outcome?: { ticket: TicketReport; isTicket: boolean } | { inner: PackageReport } | { tooDeep: true };
}

export interface GatherLimits {
  /** A ticket part is read whole up to this (--max-bytes). */
  maxTicket: number;
  maxNested: number;
  /** Parts read whole (tickets, nested packages), all together. */
  maxTotal: number;
}

export class Gatherer {
  readonly parts: Gathered[] = [];
  /** Bytes of the parts read whole so far (let go or not). */
  private total = 0;
  /** What they had come to when the first part did not fit. */
  private totalWhenFull = 0;
  constructor(private readonly limits: GatherLimits, private readonly onLimit: (g: Gathered, limit: LimitFacts) => void) {}

  start(summary: PartSummary, at: { line: number; column: number }, declaredType: string | undefined, nestedType: boolean): Gathered {
    const g: Gathered = { summary, at, head: [], headBytes: 0, kept: [], keptBytes: 0, nested: nestedType };
    const declared = declaredType !== undefined ? declaredByType(declaredType) : declaredByName(summary.name);
    if (declared) { g.declared = declared; g.declaredText = declaredType ?? `.${summary.name.split('.').pop()}`; }
    // Known binary content is never kept; everything else is kept until its first bytes say what it is.
    if (declared && declared !== 'xml') g.kept = null;
    this.parts.push(g);
    return g;
  }

  /** Takes a part's bytes; false once none more are wanted (its first bytes are in, and it is neither kept nor a ticket). */
  data(g: Gathered, d: Uint8Array): boolean {
    if (g.headBytes < SNIFF_BYTES) {
      const piece = d.subarray(0, SNIFF_BYTES - g.headBytes);
      g.head.push(new Uint8Array(piece)); // a copy (Buffer#slice would be a view)
      g.headBytes += piece.length;
    }
    g.summary.size += d.length;
    if (g.kept === null) return g.headBytes < SNIFF_BYTES;
    if (g.headBytes >= SNIFF_BYTES && g.summary.sniffed === undefined) this.decide(g);
    if (g.kept === null) return false;
    const max = g.nested ? this.limits.maxNested : this.limits.maxTicket;
    if (g.keptBytes + d.length > max) {
      g.kept = null;
      this.onLimit(g, { limit: 'kept', name: g.summary.name, nested: g.nested, max });
      return false;
    }
    if (this.total + d.length > this.limits.maxTotal) {
      // Whether it was a ticket or a package is told at its end (its first bytes may not all be in yet).
      g.kept = null;
      g.overTotal = true;
      if (this.totalWhenFull === 0) this.totalWhenFull = this.total;
      return g.headBytes < SNIFF_BYTES;
    }
    g.kept.push(new Uint8Array(d));
    g.keptBytes += d.length;
    this.total += d.length;
    return true;
  }

  /**
   * The parts not read whole because the package's tickets and nested packages had come to maxTotal bytes: one
   * finding, at the first of them, naming it and counting the rest.
   */
  overTotal(add: (g: Gathered, limit: LimitFacts) => void): void {
    const over = this.parts.filter((g) => g.overTotal && (g.nested || g.summary.sniffed === 'xml'));
    if (over.length === 0) return;
    const first = over[0]!;
    add(first, { limit: 'total', name: first.summary.name, nested: first.nested, others: over.slice(1).map((g) => g.summary.name), before: this.totalWhenFull, max: this.limits.maxTotal });
  }

  /** Once its first bytes are in: keep XML (a ticket) and packages, drop the rest. */
  decide(g: Gathered): void {
    const head = concat(g.head, g.headBytes);
    const sniffed = sniff(head);
    if (sniffed !== undefined) g.summary.sniffed = sniffed;
    if (sniffed === 'zip' || detectPackage(head) === 'mime') g.nested = true;
    if (sniffed !== 'xml' && !g.nested) g.kept = null;
  }

  end(g: Gathered): void {
    if (g.summary.sniffed === undefined) this.decide(g);
    if (g.summary.sniffed === undefined && g.headBytes > 0) {
      const s = sniff(concat(g.head, g.headBytes));
      if (s) g.summary.sniffed = s;
    }
  }
}

/** A part whose bytes are not what its Content-Type (or, in a zip, its name) declares. */
export function checkDeclared(g: Gathered, add: (code: RuleCode, args: Record<string, string | number>) => void): void {
  if (g.headBytes === 0 && g.summary.size === 0) return;
  const declared = g.declared === undefined ? undefined : { kind: g.declared, as: g.declaredText ?? TYPE_OF[g.declared] };
  const p = contentTypeProblem(g.summary.name, declared, g.summary.sniffed === undefined ? undefined : { kind: g.summary.sniffed, as: TYPE_OF[g.summary.sniffed] });
  if (p) add(p.code, p.args);
}
