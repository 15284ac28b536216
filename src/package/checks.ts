// The package against its tickets, for either family: each ticket part validated (settled as soon as its bytes
// are all in, and its bytes let go), its references resolved to parts (cid: to a Content-ID, else by location or
// entry name), then the root, the parts nothing refers to and the nested packages (validated in turn, as parts
// of this one).
import type { Profile } from '../rules/types.js';
import { settleFindings, silenceFindings } from '../ticket/silence.js';
import { validateTicket, type TicketReference, type TicketReport } from '../ticket/validate.js';
import { TICKET_ROOTS } from '../ticket/vocabulary.js';
import { concat } from '../util/concat.js';
import type { PackageKind } from './detect.js';
import { cidToContentId } from './cid.js';
import { insideName } from './entry-name.js';
import type { Gathered } from './gather.js';
import type { PackageLimits } from './limits.js';
import { TYPE_OF } from './magic.js';
import { finding, validatePackage, type PackageOptions, type PackageReport } from './validate.js';
import { limitProblem, partMissing, rootNotTicket, unreferencedProblem, type PackageProblem } from '../rules/package-read.js';

/** What a package family tells about a part while it is read. */
export interface PartContext {
  /** A part's own location (a MIME part's Content-Location), the base of its ticket's references when absolute. */
  locationFor(g: Gathered): string | undefined;
  /** A nested multipart part's Content-Type, from its own header. */
  nestedTypeOf(g: Gathered): string | undefined;
}

/** What a package family tells the checks about its parts once all are read. */
export interface PackageShape extends PartContext {
  parts: Gathered[];
  root: Gathered | undefined;
  /** The part a reference names; undefined when it is not one to look for, null when it names a part that is not there. */
  lookup(value: string, resolved: string | null, from: Gathered, charset: string): Gathered | undefined | null;
  byId: Map<string, Gathered>;
}

/**
 * A part whose bytes are all in: a ticket part validated, a nested package read (no deeper than maxDepth), and
 * their bytes let go, so that a package holds one part's bytes at a time, not all of its tickets until its end.
 */
export async function settlePart(g: Gathered, kind: PackageKind, context: PartContext, options: PackageOptions, depth: number, limits: PackageLimits): Promise<void> {
  if (g.kept === null) return;
  if (g.nested) {
    if (depth + 1 >= limits.maxDepth) g.outcome = { tooDeep: true };
    else {
      const type = context.nestedTypeOf(g);
      const bytes = concat(g.kept, g.keptBytes);
      g.kept = null;
      g.outcome = { inner: await validatePackage(bytes, { ...ticketOptions(options), limits, ...(type !== undefined ? { contentType: type } : {}) }, depth + 1) };
    }
  } else if (g.summary.sniffed === 'xml') {
    g.outcome = ticketOf(g, kind, context, options);
  }
  g.kept = null;
}

/**
 * Validates the ticket parts, resolves their references to parts, and reports the root, unreferenced parts,
 * cid: URLs that name no part and nested packages.
 */
export async function finishPackage(report: PackageReport, shape: PackageShape, options: PackageOptions, depth: number, limits: PackageLimits): Promise<void> {
  const own = report.files[0]!;
  const zip = report.kind === 'zip';
  const at = (g: Gathered) => (zip ? { line: 1, column: 1 } : g.at);
  const placed = (p: PackageProblem, where: { line: number; column: number }) => own.findings.push(finding(p.code, options.profile, p.args, where));
  const { root } = shape;
  const referenced = new Set<Gathered>();
  if (root) {
    root.summary.root = true;
    referenced.add(root);
  }
  for (const g of shape.parts) await settlePart(g, report.kind, shape, options, depth, limits);
  for (const g of shape.parts) {
    const ticket = g.outcome !== undefined && 'ticket' in g.outcome ? g.outcome : undefined;
    if (ticket === undefined || (!ticket.isTicket && g !== root)) continue;
    g.summary.ticket = ticket.isTicket;
    if (ticket.isTicket) resolveToParts(ticket.ticket, g, shape, referenced, options.profile);
    report.files.push({ part: g.summary.name, ...ticket.ticket });
  }
  if (root && !root.summary.ticket) {
    const what = root.summary.sniffed === 'xml' ? `XML whose root is not a ticket` : root.summary.sniffed ? TYPE_OF[root.summary.sniffed] : (root.summary.contentType ?? 'not XML');
    placed(rootNotTicket(root.summary.name, what, report.kind), at(root));
  }
  if (!root && !zip) placed(rootNotTicket(undefined, '', report.kind), { line: 1, column: 1 });
  for (const g of shape.parts) {
    const unreferenced = unreferencedProblem(g.summary.name, referenced.has(g), zip);
    if (unreferenced) placed(unreferenced, at(g));
    if (g.outcome !== undefined && 'tooDeep' in g.outcome) placed(limitProblem({ limit: 'depth', name: g.summary.name, depth: depth + 2, max: limits.maxDepth }), at(g));
    if (g.outcome !== undefined && 'inner' in g.outcome) {
      for (const f of g.outcome.inner.files) report.files.push({ ...f, part: f.part !== undefined ? `${g.summary.name} > ${f.part}` : g.summary.name });
    }
  }
  // The run's rule settings and each ticket's directives over what was added here, and over the package's own findings.
  for (const f of report.files) settleFindings(f);
  silenceFindings(undefined, own, options.rules, false);
}

/** The options a part's ticket is validated with: the package's own left out. */
function ticketOptions(options: PackageOptions) {
  const { limits: _l, contentType: _c, ...rest } = options;
  return rest;
}

/** An XML part validated (its kept bytes let go), with its base: its entry in a zip, else its absolute location or the package's. */
function ticketOf(g: Gathered, kind: PackageKind, context: PartContext, options: PackageOptions): { ticket: TicketReport; isTicket: boolean } {
  const bytes = concat(g.kept!, g.keptBytes);
  g.kept = null;
  const location = context.locationFor(g);
  const documentUri = kind === 'zip'
    ? (options.documentUri !== undefined ? `${options.documentUri}/${g.summary.name.split('/').map((s) => encodeURIComponent(s)).join('/')}` : undefined)
    : (location !== undefined && /^[A-Za-z][A-Za-z0-9+.-]*:/.test(location) ? location : options.documentUri);
  const ticket = validateTicket(bytes, { ...ticketOptions(options), ...(documentUri !== undefined ? { documentUri } : {}) });
  return { ticket, isTicket: ticket.root !== undefined && TICKET_ROOTS.has(ticket.root) };
}

/** Each URL of a ticket part resolved to the part it names; one that names a part that is not there gets its finding. */
function resolveToParts(ticket: TicketReport, g: Gathered, shape: PackageShape, referenced: Set<Gathered>, profile: Profile | undefined): void {
  for (const ref of ticket.references) {
    if (ref.role !== 'url') continue;
    if (ref.scheme === 'cid') {
      const id = cidToContentId(ref.value);
      const target = id === undefined ? undefined : shape.byId.get(id);
      if (target) named(ref, target, referenced);
      else ref.findings.push(partFinding(partMissing(id ?? ref.value, ''), profile, ref));
      continue;
    }
    const target = shape.lookup(ref.value, ref.resolved, g, ticket.encoding);
    if (target) named(ref, target, referenced);
    else if (target === null) ref.findings.push(partFinding(partMissing(undefined, insideName(ref.value, g.summary.name, ticket.encoding)), profile, ref));
  }
}

/** A reference's finding from the package rules. */
function partFinding(p: PackageProblem, profile: Profile | undefined, ref: TicketReference) {
  return finding(p.code, profile, p.args, ref);
}

/** A reference that names a part: the part is used, and the reference says which it is. */
function named(ref: TicketReference, target: Gathered, referenced: Set<Gathered>): void {
  referenced.add(target);
  const { name, contentId } = target.summary;
  ref.packagePart = contentId !== undefined ? { name, contentId } : { name };
}
