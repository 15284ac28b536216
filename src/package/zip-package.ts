// A zip package (XJDF 2.0 zip packaging): its directory's problems, each entry gathered (as much of it as its
// kind needs), the ticket at the top level as the root, and references to entries by their names; then the
// checks both families share.
import { finishPackage, settlePart, type PartContext } from './checks.js';
import { entryFor } from './entry-name.js';
import { checkDeclared, Gatherer, type Gathered } from './gather.js';
import { DEFAULT_MAX_BYTES, DEFAULT_PACKAGE_LIMITS, gatherLimits, type PackageLimits } from './limits.js';
import { SNIFF_BYTES } from './magic.js';
import { emptyReport, finding, type PackageOptions, type PackageReport, type PartSummary } from './validate.js';
import { readZipDirectory, readZipEntry, type RandomAccess, type ZipEntry } from './zip.js';
import type { RuleCode } from '../rules/codes.js';
import { limitProblem, rootNotTicket, zipReadProblems, type PackageProblem } from '../rules/package-read.js';

type Add = (code: RuleCode, args: Record<string, string | number>) => void;

const placed = (add: Add, p: PackageProblem) => add(p.code, p.args);

export async function validateZip(src: RandomAccess, options: PackageOptions, depth: number): Promise<PackageReport> {
  const limits = { ...DEFAULT_PACKAGE_LIMITS, ...options.limits };
  const report = emptyReport('zip');
  const own = report.files[0]!;
  const add: Add = (code, args) => own.findings.push(finding(code, options.profile, args, { line: 1, column: 1 }));
  const directory = await readZipDirectory(src, limits);
  for (const p of directory.problems) add(p.code, p.args);
  const bad = new Set(directory.problems.filter((p) => p.entry !== undefined && p.code !== 'zip-slip').map((p) => p.entry!));
  const bomb = directory.problems.some((p) => p.code === 'zip-bomb' && p.entry === undefined);
  const gatherer = new Gatherer(gatherLimits(limits, options.maxBytes), (_g, limit) => placed(add, limitProblem(limit)));
  const context: PartContext = { locationFor: () => undefined, nestedTypeOf: () => undefined };
  const byName = new Map<string, Gathered>();
  for (const entry of directory.entries) {
    const summary: PartSummary = { name: entry.name, size: entry.size, ticket: false };
    const g = gatherer.start(summary, { line: 1, column: 1 }, undefined, false);
    byName.set(entry.name, g);
    report.parts.push(summary);
    if (entry.isDirectory || bad.has(entry.name) || bomb) { g.kept = null; continue; }
    await gatherEntry(src, entry, g, gatherer, options, limits, add);
    await settlePart(g, 'zip', context, options, depth, limits);
  }
  gatherer.overTotal((_g, limit) => placed(add, limitProblem(limit)));
  // XJDF 2.0 zip packaging: the ticket at the top level is the root; the first one when there are several.
  const tickets = report.parts.filter((p) => isRootTicketName(p.name));
  const root = tickets.length > 0 ? byName.get(tickets[0]!.name) : undefined;
  await finishPackage(report, { ...context, parts: gatherer.parts, root, lookup: byEntryName(byName), byId: new Map() }, options, depth, limits);
  for (const g of gatherer.parts) {
    if (g.kept === null && g.headBytes === 0) continue;
    checkDeclared(g, (code, args) => add(code, args));
  }
  if (!root && directory.entries.length > 0) placed(add, rootNotTicket(undefined, '', 'zip'));
  return report;
}

/** XJDF 2.0 zip packaging: a ticket (.xjdf, .jdf, .xjmf, .jmf) at the top level of the zip is its root. */
export function isRootTicketName(name: string): boolean {
  return /\.(xjdf|jdf|xjmf|jmf)$/i.test(name) && !name.includes('/');
}

/** One entry read through the gatherer: a ticket or a nested package whole (up to its limit), anything else its first bytes. */
async function gatherEntry(src: RandomAccess, entry: ZipEntry, g: Gathered, gatherer: Gatherer, options: PackageOptions, limits: PackageLimits, add: Add): Promise<void> {
  const summary = g.summary;
  const wanted = /\.(jdf|xjdf|jmf|xjmf|xml)$/i.test(entry.name) ? options.maxBytes ?? DEFAULT_MAX_BYTES : /\.(zip|mjm|mjd|mim)$/i.test(entry.name) ? limits.maxNestedBytes : SNIFF_BYTES;
  if (entry.size > wanted && wanted > SNIFF_BYTES) placed(add, limitProblem({ limit: 'zip-entry', name: entry.name, size: entry.size, read: wanted }));
  const limit = Math.min(wanted, entry.size);
  summary.size = 0;
  // Read no further than the gatherer wants: a part past a limit, or not a ticket after all, is not inflated on.
  const read = await readZipEntry(src, entry, limit, (d) => gatherer.data(g, d));
  summary.size = entry.size;
  gatherer.end(g);
  for (const p of zipReadProblems(entry.name, entry.size, read.error, read.oversize)) placed(add, p);
  if (read.error || read.oversize) g.kept = null;
  if (g.keptBytes < entry.size && g.kept !== null && !g.nested) g.kept = null;
}

/** The entry a relative reference names (null when it names one that is not there); undefined for an absolute URL or one that leaves the package. */
function byEntryName(byName: Map<string, Gathered>): (value: string, resolved: string | null, from: Gathered, charset: string) => Gathered | undefined | null {
  return (value, _resolved, from, charset) => {
    const name = entryFor(value.trim(), from.summary.name, charset);
    if (name === undefined || /^[A-Za-z][A-Za-z0-9+.-]*:/.test(value.trim()) || value.trim().startsWith('/')) return undefined;
    return byName.get(name) ?? null;
  };
}
