// A MIME package (RFC 2046 5.1, RFC 2387): its parts gathered as the multipart reader streams them, its root
// (the start parameter, else the first part), its Content-IDs (unique, RFC 2045 7), and references to parts by
// Content-Location; then the checks both families share.
import { resolveReference } from '../uri/resolve.js';
import { finishPackage, settlePart, type PartContext } from './checks.js';
import { checkDeclared, Gatherer, type Gathered } from './gather.js';
import { parseMediaType, type MediaType } from './headers.js';
import { DEFAULT_PACKAGE_LIMITS, gatherLimits, type PackageLimits } from './limits.js';
import { MultipartReader, type PartHead, type Place } from './multipart.js';
import { emptyReport, finding, type PackageOptions, type PackageReport, type PartSummary } from './validate.js';
import type { RuleCode } from '../rules/codes.js';
import { base64Problem, duplicateIdProblem, limitProblem, startProblem, type PackageProblem } from '../rules/package-read.js';

type Add = (code: RuleCode, args: Record<string, string | number>, at: { line: number; column: number }) => void;

/** A problem the rules found, placed (none when they found none). */
const placed = (add: Add, p: PackageProblem | null, at: { line: number; column: number }) => { if (p) add(p.code, p.args, at); };

export async function validateMime(chunks: AsyncIterable<Uint8Array>, options: PackageOptions, depth: number): Promise<PackageReport> {
  const limits = { ...DEFAULT_PACKAGE_LIMITS, ...options.limits };
  const report = emptyReport('mime');
  const own = report.files[0]!;
  const add: Add = (code, args, at) => own.findings.push(finding(code, options.profile, args, at));
  const heads = new Map<Gathered, PartHead>();
  const context: PartContext = { locationFor: (g) => heads.get(g)?.location, nestedTypeOf: (g) => nestedType(heads.get(g)) };
  const { parts, topType } = await readParts(chunks, report, heads, (g) => settlePart(g, 'mime', context, options, depth, limits), options, limits, add);
  // RFC 2387 3.2: the root is named by the package's own Content-Type, given (HTTP, a nested part) or in its header.
  const root = rootPart(parts, options.contentType !== undefined ? parseMediaType(options.contentType) : topType, add);
  const byId = contentIds(parts, add);
  await finishPackage(report, { ...context, parts, root, lookup: byLocation(parts, options.documentUri), byId }, options, depth, limits);
  for (const g of parts) checkDeclared(g, (code, args) => add(code, args, g.at));
  own.findings.sort((a, b) => a.line - b.line || a.column - b.column);
  return report;
}

function partName(head: PartHead): string {
  if (head.contentId !== undefined) return `<${head.contentId}>`;
  return head.location ?? head.filename ?? `part ${head.index + 1}`;
}

/**
 * The parts, gathered as the reader streams them (each summary added to the report, each head to `heads`), each
 * settled once it ends; and the package's own Content-Type.
 */
async function readParts(chunks: AsyncIterable<Uint8Array>, report: PackageReport, heads: Map<Gathered, PartHead>, settle: (g: Gathered) => Promise<void>, options: PackageOptions, limits: PackageLimits, add: Add): Promise<{ parts: Gathered[]; topType: MediaType | null }> {
  let topType: MediaType | null = null;
  const gatherer = new Gatherer(gatherLimits(limits, options.maxBytes), (g, limit) => placed(add, limitProblem(limit), g.at));
  let current: Gathered | undefined;
  const ended: Gathered[] = [];
  const reader = new MultipartReader({
    top(_fields, type) { topType = type; },
    partStart(head) {
      const summary: PartSummary = { name: partName(head), size: 0, ticket: false };
      if (head.contentId !== undefined) summary.contentId = head.contentId;
      if (head.location !== undefined) summary.location = head.location;
      if (head.contentType) summary.contentType = head.contentType.type;
      const nestedType = head.contentType !== null && (head.contentType.type.startsWith('multipart/') || head.contentType.type === 'application/zip');
      current = gatherer.start(summary, head.at, head.contentType?.type, nestedType);
      heads.set(current, head);
      report.parts.push(summary);
    },
    partData(_head, data) { return gatherer.data(current!, data); },
    partEnd(head, end) {
      current!.summary.size = end.decodedBytes;
      gatherer.end(current!);
      ended.push(current!);
      placed(add, base64Problem(partName(head), end.problem), head.at);
    },
    problem(code, args, at: Place) { add(code, args, at); },
  }, limits, options.contentType);
  for await (const chunk of chunks) {
    reader.push(chunk);
    for (const g of ended.splice(0)) await settle(g);
    if (reader.stopped) break;
  }
  reader.end();
  for (const g of ended.splice(0)) await settle(g);
  gatherer.overTotal((g, limit) => placed(add, limitProblem(limit), g.at));
  return { parts: gatherer.parts, topType };
}

/** RFC 2387 3.2: the root is the part the start parameter names, else the first. */
function rootPart(parts: Gathered[], topType: MediaType | null, add: Add): Gathered | undefined {
  const related = topType !== null && topType.type === 'multipart/related' ? topType : null;
  let root = parts[0];
  if (related !== null) {
    const start = related.params.get('start');
    const id = start?.trim().replace(/^<(.*)>$/, '$1');
    const named = id === undefined ? undefined : parts.find((g) => g.summary.contentId === id);
    if (named) root = named;
    placed(add, startProblem(start, named !== undefined, parts.length), { line: 1, column: 1 });
  }
  return root;
}

/** RFC 2045 7: Content-IDs are unique. The parts by Content-ID (the first of each). */
function contentIds(parts: Gathered[], add: Add): Map<string, Gathered> {
  const byId = new Map<string, Gathered>();
  for (const g of parts) {
    const id = g.summary.contentId;
    if (id === undefined) continue;
    const first = byId.get(id);
    if (first) placed(add, duplicateIdProblem(id, g.summary.name, { name: first.summary.name, line: first.at.line }), g.at);
    else byId.set(id, g);
  }
  return byId;
}

/** The part whose Content-Location is a reference's value, or (resolved against the package) its resolved URL. */
function byLocation(parts: Gathered[], base: string | undefined): (value: string, resolved: string | null) => Gathered | undefined {
  const locationOf = (g: Gathered) => (g.summary.location === undefined ? undefined : base !== undefined ? safeResolve(g.summary.location, base) : g.summary.location);
  return (value, resolved) => {
    const v = value.trim();
    return parts.find((g) => g.summary.location !== undefined && (g.summary.location === v || (resolved !== null && locationOf(g) === resolved)));
  };
}

/** A nested multipart part has its Content-Type (and boundary) in its own header, not in its body. */
function nestedType(head: PartHead | undefined): string | undefined {
  const type = head?.fields.find((f) => f.name === 'content-type')?.value;
  return type !== undefined && /^\s*multipart\//i.test(type) ? type : undefined;
}

function safeResolve(ref: string, base: string): string {
  try {
    return resolveReference(ref, base);
  } catch {
    return ref;
  }
}
