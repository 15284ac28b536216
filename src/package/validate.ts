// validatePackage: opens a MIME (RFC 2046, RFC 2387) or zip package, validates every ticket in it, and checks
// the package against its tickets: every cid: names a part, every part is used, every relative reference
// inside a zip names an entry. Streams: only ticket parts (and small nested packages) are held in memory.
import type { RuleCode } from '../rules/codes.js';
import { createFinding } from '../rules/finding.js';
import type { Profile } from '../rules/types.js';
import { validateTicket, type LocatedFinding, type TicketReport, type ValidateOptions } from '../ticket/validate.js';
import { TICKET_ROOTS } from '../ticket/vocabulary.js';
import { resolveReference } from '../uri/resolve.js';
import { decodeSegment } from '../escape/percent.js';
import { concat, latin1 } from './bytes.js';
import { cidToContentId } from './cid.js';
import type { MediaType } from './headers.js';
import { DEFAULT_PACKAGE_LIMITS, type PackageLimits } from './limits.js';
import { declaredByName, declaredByType, mismatch, sniff, SNIFF_BYTES, TYPE_OF, type Sniffed } from './magic.js';
import { MultipartReader, type PartHead, type Place } from './multipart.js';
import { bytesAccess, isZip, readZipDirectory, readZipEntry, type RandomAccess } from './zip.js';

export type PackageKind = 'mime' | 'zip';
export type PackageInput = Uint8Array | RandomAccess | AsyncIterable<Uint8Array>;

export interface PackageOptions extends ValidateOptions {
  /** The package's own URI: MIME tickets resolve relative references against its folder, zip tickets inside it. */
  documentUri?: string;
  /** The Content-Type of a MIME body that comes without its header (an HTTP POST). */
  contentType?: string;
  limits?: Partial<PackageLimits>;
}

export interface PartSummary {
  /** Content-ID in angle brackets, else Content-Location, file name or "part N"; a zip entry's name. */
  name: string;
  contentId?: string;
  location?: string;
  contentType?: string;
  /** Decoded (MIME) or uncompressed (zip, as declared) size in bytes. */
  size: number;
  /** What its first bytes are: pdf, tiff, jpeg, png, zip, xml. */
  sniffed?: Sniffed;
  /** Validated as a ticket. */
  ticket: boolean;
  root?: boolean;
}

export interface PackageFile extends TicketReport {
  /** The part a ticket report is for (absent on the package's own report). */
  part?: string;
  package?: { kind: PackageKind; parts: PartSummary[] };
}

export interface PackageReport {
  kind: PackageKind;
  parts: PartSummary[];
  /** The package's own findings first (structure, parts), then one report per ticket part. */
  files: PackageFile[];
}

/** What the first bytes of an input are: a zip, a MIME package, or neither (a plain ticket). */
export function detectPackage(head: Uint8Array): PackageKind | null {
  if (isZip(head)) return 'zip';
  const text = latin1(head, 0, Math.min(head.length, 16 * 1024));
  const headerEnd = text.search(/\r?\n\r?\n/);
  const header = headerEnd === -1 ? text : text.slice(0, headerEnd);
  // RFC 5322 2.2: a header is field lines; a package header names a multipart Content-Type or MIME-Version.
  if (/^[!-9;-~]+:/.test(header) && /^(content-type:[ \t]*multipart\/|mime-version:)/im.test(header)) return 'mime';
  if (/^--[0-9A-Za-z'()+_,\-./:=?]{1,70}[ \t]*\r?\n[!-9;-~]+:/.test(text)) return 'mime';
  return null;
}

/**
 * Validates a package given as bytes, a random-access source (zip or MIME) or a stream of chunks (MIME; a zip
 * on a stream is read into memory up to maxBytes). Never throws on bad input: it comes back as findings.
 */
export async function validatePackage(input: PackageInput, options: PackageOptions = {}, depth = 0): Promise<PackageReport> {
  if (input instanceof Uint8Array) {
    return isZip(input) ? validateZip(bytesAccess(input), options, depth) : validateMime(once(input), options, depth);
  }
  if ('read' in input) {
    const head = await input.read(0, 4);
    return isZip(head) ? validateZip(input, options, depth) : validateMime(chunksOf(input), options, depth);
  }
  const iterator = input[Symbol.asyncIterator]();
  const first = await iterator.next();
  const head: Uint8Array = first.done ? new Uint8Array(0) : first.value;
  const rest: AsyncIterable<Uint8Array> = { [Symbol.asyncIterator]: () => iterator };
  if (!isZip(head)) return validateMime(prepend(head, rest), options, depth);
  const max = options.maxBytes ?? 512 * 1024 * 1024;
  const chunks = [head];
  let size = head.length;
  for await (const c of rest) {
    size += c.length;
    if (size > max) {
      const report = emptyReport('zip');
      report.files[0]!.findings.push(finding('package-limit', options.profile, { what: `a zip on a stream is read into memory, and this one is over ${max} bytes (--max-bytes)` }, { line: 1, column: 1 }));
      return report;
    }
    chunks.push(c);
  }
  return validateZip(bytesAccess(concat(chunks, size)), options, depth);
}

async function* once(bytes: Uint8Array): AsyncIterable<Uint8Array> {
  const STEP = 1 << 20;
  for (let at = 0; at < bytes.length; at += STEP) yield bytes.subarray(at, at + STEP);
}

async function* prepend(head: Uint8Array, rest: AsyncIterable<Uint8Array>): AsyncIterable<Uint8Array> {
  yield head;
  yield* rest;
}

async function* chunksOf(src: RandomAccess): AsyncIterable<Uint8Array> {
  const STEP = 1 << 20;
  for (let at = 0; at < src.size; at += STEP) yield await src.read(at, Math.min(STEP, src.size - at));
}

function finding(code: string, profile: Profile | undefined, args: Record<string, string | number>, at: { line: number; column: number }): LocatedFinding {
  return createFinding(code as RuleCode, args, { profile: profile ?? 'jdf', at });
}

function emptyReport(kind: PackageKind): PackageReport {
  const parts: PartSummary[] = [];
  return { kind, parts, files: [{ encoding: kind === 'mime' ? 'MIME' : 'ZIP', references: [], findings: [], package: { kind, parts } }] };
}

/** A part on its way through: its first bytes (to sniff), and all of it while it may be a ticket or a nested package. */
interface Gathered {
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
}

class Gatherer {
  readonly parts: Gathered[] = [];
  constructor(private readonly maxTicket: number, private readonly maxNested: number, private readonly onLimit: (g: Gathered, what: string) => void) {}

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
    const max = g.nested ? this.maxNested : this.maxTicket;
    if (g.keptBytes + d.length > max) {
      g.kept = null;
      this.onLimit(g, g.nested ? `the nested package ${g.summary.name} is over ${max} bytes and was not read` : `the part ${g.summary.name} is over ${max} bytes (--max-bytes) and was not read as a ticket`);
      return false;
    }
    g.kept.push(new Uint8Array(d));
    g.keptBytes += d.length;
    return true;
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

function partName(head: PartHead): string {
  if (head.contentId !== undefined) return `<${head.contentId}>`;
  return head.location ?? head.filename ?? `part ${head.index + 1}`;
}

async function validateMime(chunks: AsyncIterable<Uint8Array>, options: PackageOptions, depth: number): Promise<PackageReport> {
  const limits = { ...DEFAULT_PACKAGE_LIMITS, ...options.limits };
  const report = emptyReport('mime');
  const own = report.files[0]!;
  const profile = options.profile;
  const add = (code: string, args: Record<string, string | number>, at: { line: number; column: number }) => own.findings.push(finding(code, profile, args, at));
  let topType: MediaType | null = null;
  const heads = new Map<Gathered, PartHead>();
  const gatherer = new Gatherer(options.maxBytes ?? 512 * 1024 * 1024, limits.maxNestedBytes, (g, what) => add('package-limit', { what }, g.at));
  let current: Gathered | undefined;
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
      if (end.problem === 'truncated') add('base64-truncated', { part: partName(head) }, head.at);
      else if (end.problem === 'invalid-chars') add('base64-invalid-chars', { part: partName(head) }, head.at);
    },
    problem(code, args, at: Place) { add(code, args, at); },
  }, limits, options.contentType);
  for await (const chunk of chunks) {
    reader.push(chunk);
    if (reader.stopped) break;
  }
  reader.end();
  if (options.contentType !== undefined) topType = null;

  // RFC 2387 3.2: the root is the part the start parameter names, else the first.
  const related = topType !== null && (topType as MediaType).type === 'multipart/related' ? (topType as MediaType) : null;
  const parts = gatherer.parts;
  let root = parts[0];
  if (related !== null) {
    const start = related.params.get('start');
    if (start === undefined) add('mime-start-missing', {}, { line: 1, column: 1 });
    else {
      const id = start.trim().replace(/^<(.*)>$/, '$1');
      const named = parts.find((g) => g.summary.contentId === id);
      if (named) root = named;
      else if (parts.length > 0) add('mime-start-wrong', { start }, { line: 1, column: 1 });
    }
  }
  // RFC 2045 7: Content-IDs are unique.
  const byId = new Map<string, Gathered>();
  for (const g of parts) {
    const id = g.summary.contentId;
    if (id === undefined) continue;
    const first = byId.get(id);
    if (first) add('duplicate-content-id', { id, first: first.summary.name === g.summary.name ? `an earlier part (line ${first.at.line})` : first.summary.name }, g.at);
    else byId.set(id, g);
  }
  const base = options.documentUri;
  const locationOf = (g: Gathered) => (g.summary.location === undefined ? undefined : base !== undefined ? safeResolve(g.summary.location, base) : g.summary.location);
  const lookup = (value: string, resolved: string | null): Gathered | undefined => {
    const v = value.trim();
    return parts.find((g) => g.summary.location !== undefined && (g.summary.location === v || (resolved !== null && locationOf(g) === resolved)));
  };
  // A nested multipart part has its Content-Type (and boundary) in its own header, not in its body.
  const nestedType = (g: Gathered) => {
    const type = heads.get(g)?.fields.find((f) => f.name === 'content-type')?.value;
    return type !== undefined && /^\s*multipart\//i.test(type) ? type : undefined;
  };
  await finishPackage(report, parts, root, options, depth, limits, (g) => heads.get(g)?.location, lookup, byId, nestedType);
  for (const g of parts) checkDeclared(g, (code, args) => add(code, args, g.at));
  own.findings.sort((a, b) => a.line - b.line || a.column - b.column);
  return report;
}

function safeResolve(ref: string, base: string): string {
  try {
    return resolveReference(ref, base);
  } catch {
    return ref;
  }
}

function checkDeclared(g: Gathered, add: (code: string, args: Record<string, string | number>) => void): void {
  if (g.headBytes === 0 && g.summary.size === 0) return;
  if (mismatch(g.declared, g.summary.sniffed)) {
    add('content-type-mismatch', { part: g.summary.name, declared: g.declaredText ?? TYPE_OF[g.declared!], actual: g.summary.sniffed ? TYPE_OF[g.summary.sniffed] : 'nothing we know' });
  }
}

/**
 * Validates the ticket parts, resolves their references to parts, and reports the root, unreferenced parts,
 * cid: URLs that name no part and nested packages.
 */
async function finishPackage(
  report: PackageReport,
  parts: Gathered[],
  root: Gathered | undefined,
  options: PackageOptions,
  depth: number,
  limits: PackageLimits,
  locationFor: (g: Gathered) => string | undefined,
  lookup: (value: string, resolved: string | null, from: Gathered) => Gathered | undefined | null,
  byId: Map<string, Gathered>,
  nestedTypeOf: (g: Gathered) => string | undefined = () => undefined,
): Promise<void> {
  const own = report.files[0]!;
  const profile = options.profile;
  const zip = report.kind === 'zip';
  const at = (g: Gathered) => (zip ? { line: 1, column: 1 } : g.at);
  const add = (code: string, args: Record<string, string | number>, where: { line: number; column: number }) => own.findings.push(finding(code, profile, args, where));
  const referenced = new Set<Gathered>();
  if (root) {
    root.summary.root = true;
    referenced.add(root);
  }
  const { limits: _l, contentType: _c, ...ticketOptions } = options;
  for (const g of parts) {
    if (g.kept === null || g.nested || g.summary.sniffed !== 'xml') continue;
    const bytes = concat(g.kept, g.keptBytes);
    g.kept = null;
    const location = locationFor(g);
    const documentUri = zip
      ? (options.documentUri !== undefined ? `${options.documentUri}/${g.summary.name.split('/').map((s) => encodeURIComponent(s)).join('/')}` : undefined)
      : (location !== undefined && /^[A-Za-z][A-Za-z0-9+.-]*:/.test(location) ? location : options.documentUri);
    const ticket = validateTicket(bytes, { ...ticketOptions, ...(documentUri !== undefined ? { documentUri } : {}) });
    const isTicket = ticket.root !== undefined && TICKET_ROOTS.has(ticket.root);
    if (!isTicket && g !== root) continue;
    g.summary.ticket = isTicket;
    if (isTicket) {
      for (const ref of ticket.references) {
        if (ref.role !== 'url') continue;
        if (ref.scheme === 'cid') {
          const id = cidToContentId(ref.value);
          const target = id === undefined ? undefined : byId.get(id);
          if (target) referenced.add(target);
          else ref.findings.push(finding('cid-no-part', profile, { id: id ?? ref.value }, ref));
          continue;
        }
        const target = lookup(ref.value, ref.resolved, g);
        if (target) referenced.add(target);
        else if (target === null) ref.findings.push(finding('file-missing', profile, { path: `'${insideName(ref.value, g.summary.name)}' inside the package` }, ref));
      }
    }
    report.files.push({ part: g.summary.name, ...ticket });
  }
  if (root && !root.summary.ticket) {
    const what = root.summary.sniffed === 'xml' ? `XML whose root is not a ticket` : root.summary.sniffed ? TYPE_OF[root.summary.sniffed] : (root.summary.contentType ?? 'not XML');
    add('package-root-not-ticket', { part: root.summary.name, what }, at(root));
  }
  if (!root && !zip) add('package-root-not-ticket', { part: '(none)', what: 'missing: the package has no parts' }, { line: 1, column: 1 });
  for (const g of parts) {
    if (!referenced.has(g) && !(zip && g.summary.name.endsWith('/'))) add('part-unreferenced', { part: g.summary.name }, at(g));
    if (g.nested && g.kept !== null) {
      if (depth + 1 >= limits.maxDepth) {
        add('package-limit', { what: `${g.summary.name} is a package nested ${depth + 2} deep, deeper than ${limits.maxDepth}` }, at(g));
        continue;
      }
      const type = nestedTypeOf(g);
      const inner = await validatePackage(concat(g.kept, g.keptBytes), { ...ticketOptions, limits, ...(type !== undefined ? { contentType: type } : {}) }, depth + 1);
      g.kept = null;
      for (const f of inner.files) report.files.push({ ...f, part: f.part !== undefined ? `${g.summary.name} > ${f.part}` : g.summary.name });
    }
  }
}

/** The entry name a relative reference names inside a zip, as looked up (for messages). */
function insideName(value: string, from: string): string {
  return entryFor(value.trim(), from) ?? value.trim();
}

const PKG = 'http://package.invalid/';

/** The zip entry a relative reference from entry `from` names, or undefined when it leaves the package. */
export function entryFor(value: string, from: string): string | undefined {
  const dir = from.includes('/') ? from.slice(0, from.lastIndexOf('/') + 1) : '';
  let resolved: string;
  try {
    resolved = resolveReference(value, PKG + dir.split('/').map((s) => encodeURIComponent(s)).join('/'));
  } catch {
    return undefined;
  }
  if (!resolved.startsWith(PKG)) return undefined;
  const path = resolved.slice(PKG.length).replace(/[?#].*$/, '');
  return path.split('/').map((s) => decodeSegment(s).text).join('/');
}

async function validateZip(src: RandomAccess, options: PackageOptions, depth: number): Promise<PackageReport> {
  const limits = { ...DEFAULT_PACKAGE_LIMITS, ...options.limits };
  const report = emptyReport('zip');
  const own = report.files[0]!;
  const profile = options.profile;
  const add = (code: string, args: Record<string, string | number>) => own.findings.push(finding(code, profile, args, { line: 1, column: 1 }));
  const directory = await readZipDirectory(src, limits);
  for (const p of directory.problems) add(p.code, p.args);
  const bad = new Set(directory.problems.filter((p) => p.entry !== undefined && p.code !== 'zip-slip').map((p) => p.entry!));
  const bomb = directory.problems.some((p) => p.code === 'zip-bomb' && p.entry === undefined);
  const gatherer = new Gatherer(options.maxBytes ?? 512 * 1024 * 1024, limits.maxNestedBytes, (_g, what) => add('package-limit', { what }));
  const byName = new Map<string, Gathered>();
  for (const entry of directory.entries) {
    const summary: PartSummary = { name: entry.name, size: entry.size, ticket: false };
    const g = gatherer.start(summary, { line: 1, column: 1 }, undefined, false);
    byName.set(entry.name, g);
    report.parts.push(summary);
    if (entry.isDirectory || bad.has(entry.name) || bomb) { g.kept = null; continue; }
    const wanted = /\.(jdf|xjdf|jmf|xjmf|xml)$/i.test(entry.name) ? options.maxBytes ?? 512 * 1024 * 1024 : /\.(zip|mjm|mjd|mim)$/i.test(entry.name) ? limits.maxNestedBytes : SNIFF_BYTES;
    if (entry.size > wanted && wanted > SNIFF_BYTES) add('package-limit', { what: `the entry '${entry.name}' is ${entry.size} bytes, over the ${wanted} read from an entry of its kind` });
    const limit = Math.min(wanted, entry.size);
    summary.size = 0;
    const read = await readZipEntry(src, entry, limit, (d) => { gatherer.data(g, d); });
    summary.size = entry.size;
    gatherer.end(g);
    if (read.error) add('zip-malformed', { detail: `the entry '${entry.name}' cannot be read: ${read.error}` });
    if (read.oversize) add('zip-bomb', { detail: `'${entry.name}' inflates past its declared size of ${entry.size} bytes` });
    if (read.error || read.oversize) g.kept = null;
    if (g.keptBytes < entry.size && g.kept !== null && !g.nested) g.kept = null;
  }
  // XJDF 2.0 zip packaging: the ticket at the top level is the root; the first one when there are several.
  const tickets = report.parts.filter((p) => /\.(xjdf|jdf|xjmf|jmf)$/i.test(p.name) && !p.name.includes('/'));
  const root = tickets.length > 0 ? byName.get(tickets[0]!.name) : undefined;
  await finishPackage(report, gatherer.parts, root, options, depth, limits, () => undefined, (value, _resolved, from) => {
    const name = entryFor(value.trim(), from.summary.name);
    if (name === undefined || /^[A-Za-z][A-Za-z0-9+.-]*:/.test(value.trim()) || value.trim().startsWith('/')) return undefined;
    return byName.get(name) ?? null;
  }, new Map());
  for (const g of gatherer.parts) {
    if (g.kept === null && g.headBytes === 0) continue;
    checkDeclared(g, (code, args) => add(code, args));
  }
  if (!root && directory.entries.length > 0) add('package-root-not-ticket', { part: '(none)', what: 'missing: the zip has no .xjdf, .jdf, .xjmf or .jmf at its top level' });
  return report;
}
