// jdf-filespec relocate: a ticket and every local file it references, copied or moved into DIR with their
// relative layout, the references rewritten relative to the ticket, and a manifest. All or nothing: everything
// is staged in a new folder beside DIR and renamed into place at the end; on any failure the staging folder
// is removed and the sources are as they were. Confined to --root on both sides. Each source is found by the
// confined walk and read through one descriptor that must be the file the walk found (checked-source.ts);
// --move deletes the sources only when every one is still the file copied, unchanged, and else none of them.
import { lstat, readdir, realpath } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { escapeSegment } from '../escape/percent.js';
import { redactPassword } from '../fileurl/redact.js';
import type { DecodedTicket } from '../ticket/decode.js';
import { disagreementOf } from '../ticket/readings.js';
import { applyEdits, escapeForAttribute, type Edit } from '../ticket/rewrite.js';
import type { TicketReference, TicketReport } from '../ticket/validate.js';
import type { ViewTable } from '../views/types.js';
import type { CheckedFile } from './checked-file.js';
import { findSourceFile, readCheckedSource, SourceChanged, type Stamp } from './checked-source.js';
import type { Root } from './confine.js';
import { localCandidates } from './locate.js';
import { decodeToRewrite } from './rewrite-read.js';
import { DEFAULT_MAX_BYTES } from './limits.js';
import { MANIFEST, RelocateError, removeSources, stageAndPlace, type Copied, type Manifest } from './relocate-place.js';

export { RelocateError, type Manifest, type ManifestEntry } from './relocate-place.js';

export interface RelocateOptions {
  to: string;
  mode: 'copy' | 'move';
  root?: string;
  views?: ViewTable;
  maxBytes?: number;
  /** Move (or copy) what is there; a file that is missing, not a regular file or outside --root stays behind. */
  allowMissing?: boolean;
}

const inside = (root: string, p: string) => {
  const rel = path.relative(root, p);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
};

/** A Directory that bases URLs (RunList, Preview), dropped once every URL is relative to the ticket. */
const basesUrls = (ref: TicketReference) => ref.role === 'directory' && ref.attribute === 'Directory' && /\/(?:[\w-]+:)?(?:RunList|Preview)(?:\[[^\]]*\])?$/.test(ref.element);

function attributeSpan(text: string, span: [number, number]): [number, number] {
  let i = span[0] - 2;
  while (i > 0 && /\s/.test(text[i]!)) i--;
  if (text[i] !== '=') return span;
  i--;
  while (i > 0 && /\s/.test(text[i]!)) i--;
  while (i > 0 && /[^\s<"'=]/.test(text[i - 1]!)) i--;
  while (i > 0 && /\s/.test(text[i - 1]!)) i--;
  return [i, span[1] + 1];
}

/** The deepest folder that holds every path. */
function commonFolder(paths: string[]): string {
  let common = path.dirname(paths[0]!).split(path.sep);
  for (const p of paths.slice(1)) {
    const parts = path.dirname(p).split(path.sep);
    let k = 0;
    while (k < common.length && k < parts.length && common[k] === parts[k]) k++;
    common = common.slice(0, k);
  }
  return common.join(path.sep) || path.sep;
}

/** A relative URL from the folder `from` to the file `to` (both inside the new layout). */
function relativeUrl(from: string, to: string): string {
  return path.relative(from, to).split(path.sep).map((n) => (n === '..' ? n : escapeSegment(n))).join('/');
}

/** Where things are: the real ticket, the folder DIR goes into, DIR itself; both sides inside --root. */
interface Places {
  root: Root | undefined;
  ticketReal: string;
  /** The ticket as the walk found it (its device and inode). */
  ticketFile: CheckedFile;
  destParent: string;
  target: string;
}

/** The ticket as read and validated. */
interface ReadTicket {
  bytes: Uint8Array;
  mode: number;
  /** What was read, to tell before a --move deletes it that it has not changed since. */
  stamp: Stamp;
  decoded: DecodedTicket;
  report: TicketReport;
  documentUri: string;
}

/** What happens to one reference: its file moves (source), it keeps a value (keep), or it is dropped. */
interface Step {
  ref: TicketReference;
  source?: string;
  keep?: string;
  drop?: true;
}

interface Plan {
  steps: Step[];
  /** real path -> the references (line:column) that name it */
  sources: Map<string, string[]>;
  /** real path -> the file the walk found there */
  files: Map<string, CheckedFile>;
  notMoved: Manifest['notMoved'];
  /** References that consumers read as different files (line:column, value, readings): relocate cannot choose. */
  ambiguous: string[];
}

/** Why a reference stays: it names no file on this machine (another host, another scheme). */
const NOT_LOCAL = 'not a local file';

const where = (r: TicketReference) => `${r.line}:${r.column}`;

export async function relocate(ticketPath: string, options: RelocateOptions): Promise<Manifest> {
  const places = await findPlaces(ticketPath, options);
  const ticket = await readTicket(places.ticketFile, ticketPath, options.maxBytes ?? DEFAULT_MAX_BYTES);
  const plan = await planReferences(ticket, places, options.views);
  refuseAmbiguous(plan.ambiguous, ticketPath);
  if (!options.allowMissing) refuseMissing(plan.notMoved, ticketPath);
  const ticketName = path.basename(places.ticketReal);
  const layout = newLayout(plan.sources, path.dirname(places.ticketReal), ticketName);
  const rewritten = rewriteTicket(ticket, plan.steps, layout, places.target);
  const manifest: Manifest = {
    tool: 'jdf-filespec relocate',
    mode: options.mode,
    ticket: { from: places.ticketReal, to: path.join(places.target, ticketName) },
    files: [...layout].map(([from, rel]) => ({ from, to: path.join(places.target, rel), references: plan.sources.get(from)! })),
    notMoved: plan.notMoved,
  };
  const copied: Copied[] = [{ file: places.ticketFile, stamp: ticket.stamp }];
  await stageAndPlace(places, layout, plan.files, copied, { name: ticketName, bytes: rewritten, mode: ticket.mode, move: options.mode === 'move' }, manifest);
  if (options.mode === 'move') await removeSources(copied, places.target, manifest);
  return manifest;
}

/** The real ticket and DIR, both inside --root; DIR is new or an empty folder. */
async function findPlaces(ticketPath: string, options: RelocateOptions): Promise<Places> {
  let root: Root | undefined;
  if (options.root !== undefined) {
    const named = path.resolve(options.root);
    root = { named, real: await realpath(named) };
  }
  const found = await findSourceFile(ticketPath, root);
  if ('outside' in found) throw new RelocateError(`the ticket ${ticketPath} is outside --root${found.outside}`);
  if ('problem' in found) throw new RelocateError(`the ticket ${ticketPath} is ${found.problem === 'missing' ? 'missing' : 'not a regular file'}`);
  const ticketReal = found.file.path;
  const dest = path.resolve(options.to);
  const destParent = await realpath(path.dirname(dest)).catch(() => {
    throw new RelocateError(`the folder ${path.dirname(dest)} (where ${options.to} would be) does not exist`);
  });
  const target = path.join(destParent, path.basename(dest));
  if (root !== undefined && !inside(root.real, target)) throw new RelocateError(`--to ${options.to} is outside --root`);
  try {
    const info = await lstat(target);
    if (!info.isDirectory() || (await readdir(target)).length > 0) throw new RelocateError(`${options.to} exists and is not an empty folder; relocate never overwrites`);
  } catch (error) {
    if (error instanceof RelocateError) throw error;
  }
  return { root, ticketReal, ticketFile: found.file, destParent, target };
}

/** The ticket's bytes (through the descriptor of the file the walk found), decoded and validated; refused unless it decodes and is well-formed. */
async function readTicket(file: CheckedFile, ticketPath: string, maxBytes: number): Promise<ReadTicket> {
  const chunks: Buffer[] = [];
  let size = 0;
  let stamp: Stamp | undefined;
  try {
    for await (const chunk of readCheckedSource(file, (s) => (stamp = s))) {
      size += chunk.length;
      if (size > maxBytes) throw new RelocateError(`the ticket ${ticketPath} is over the size limit`);
      chunks.push(chunk);
    }
  } catch (error) {
    throw error instanceof SourceChanged ? new RelocateError(`the ticket ${error.message}`) : error;
  }
  const bytes = new Uint8Array(Buffer.concat(chunks, size));
  const checked = decodeToRewrite(bytes, file.path, {});
  if ('unfit' in checked) throw new RelocateError(checked.unfit === 'encoding' ? 'the ticket does not decode in its declared encoding' : 'the ticket is not well-formed XML');
  return { bytes, mode: stamp!.mode, stamp: stamp!, ...checked, documentUri: pathToFileURL(file.path).href };
}

/** Which file each reference names here (the first candidate that is a regular file), and what cannot move. */
async function planReferences(ticket: ReadTicket, places: Places, views: ViewTable | undefined): Promise<Plan> {
  const plan: Plan = { steps: [], sources: new Map(), files: new Map(), notMoved: [], ambiguous: [] };
  const lookup = { ...(views ? { views } : {}), documentUri: ticket.documentUri };
  for (const uses of usesBySpan(ticket.report.references)) {
    const ref = uses[0]!;
    if (ref.role === 'identifier') continue;
    if (basesUrls(ref)) {
      plan.steps.push({ ref, drop: true });
      continue;
    }
    if (ref.role !== 'url' || uses.some((u) => u.baseSource === 'container')) continue;
    const resolved = new Set(uses.map((u) => u.resolved));
    if (resolved.size !== 1 || ref.resolved === null) {
      if (ref.kind !== 'absolute') throw new RelocateError(`${where(ref)}: ${ref.value} names different files through its rRefs; relocate cannot give it one value`);
      continue;
    }
    const readings = readingsDiffer(uses);
    if (readings !== null) {
      plan.ambiguous.push(`${where(ref)} ${redactPassword(ref.value)} (${readings})`);
      continue;
    }
    const found = await findSource(localCandidates(ref.resolved, lookup), places.root);
    if ('reason' in found) {
      const keep = ref.kind === 'absolute' ? undefined : ref.resolved;
      plan.notMoved.push({ reference: where(ref), value: redactPassword(keep ?? ref.value), reason: found.reason });
      plan.steps.push({ ref, ...(keep !== undefined ? { keep } : {}) });
      continue;
    }
    const source = found.file.path;
    plan.sources.set(source, [...(plan.sources.get(source) ?? []), where(ref)]);
    plan.files.set(source, found.file);
    plan.steps.push({ ref, source });
  }
  return plan;
}

/** Files that cannot come along (not a URL of another host, which travels as it is): all or nothing refuses the job. */
function refuseMissing(notMoved: Manifest['notMoved'], ticketPath: string): void {
  const missing = notMoved.filter((n) => n.reason !== NOT_LOCAL);
  if (missing.length === 0) return;
  const shown = missing.slice(0, 5).map((n) => `${ticketPath}:${n.reference} ${n.value} (${n.reason})`).join(', ') + (missing.length > 5 ? ` and ${missing.length - 5} more` : '');
  throw new RelocateError(`${missing.length === 1 ? 'a file is' : `${missing.length} files are`} not there to move with the job: ${shown}; --allow-missing moves the rest`);
}

/**
 * How consumers read a relative value differently, or null when they all open one file: strict RFC 3986, RFC 8089
 * E.2.1, WHATWG URL and, against a Directory, JDFLibJ's string join (validate's consumers-disagree, and the
 * readings of backslash and unc-path-as-url). Relocate rewrites a relative value (relative to the new place, or
 * made absolute), so it would have to choose one reading: the file it moved, or the value it wrote, would then be
 * another file than the ticket named for the other consumers.
 */
function readingsDiffer(uses: readonly TicketReference[]): string | null {
  for (const u of uses) {
    if (u.kind === 'absolute' || u.base === null || u.value.trim() === '') continue;
    const differing = disagreementOf(u.value.trim(), u.base, u.baseSource === 'directory');
    if (differing !== null) return differing.map((r) => `${r.consumer} ${r.href === null ? '(fails)' : redactPassword(r.href)}`).join('; ');
  }
  return null;
}

/** References that name different files for different consumers: all or nothing refuses the job, --allow-missing too. */
function refuseAmbiguous(ambiguous: readonly string[], ticketPath: string): void {
  if (ambiguous.length === 0) return;
  const shown = ambiguous.slice(0, 5).map((a) => `${ticketPath}:${a}`).join(', ') + (ambiguous.length > 5 ? ` and ${ambiguous.length - 5} more` : '');
  throw new RelocateError(`${ambiguous.length === 1 ? 'a reference names' : `${ambiguous.length} references name`} different files for different consumers, and relocate would have to choose one: ${shown}; write each so that every reading agrees (validate says how; jdf-filespec fix does where it can), then relocate`);
}

/** The references grouped by the span of their value (one attribute seen through several rRefs is one group). */
function usesBySpan(references: readonly TicketReference[]): TicketReference[][] {
  const bySpan = new Map<string, TicketReference[]>();
  for (const ref of references) {
    const key = `${ref.span[0]}:${ref.span[1]}`;
    bySpan.set(key, [...(bySpan.get(key) ?? []), ref]);
  }
  return [...bySpan.values()];
}

/** The first candidate that is a regular file inside --root (walked as confine.ts walks), or why there is none. */
async function findSource(candidates: Iterable<string>, root: Root | undefined): Promise<{ file: CheckedFile } | { reason: string }> {
  let reason = NOT_LOCAL;
  for (const candidate of candidates) {
    const found = await findSourceFile(candidate, root);
    if ('file' in found) return { file: found.file };
    if ('outside' in found) return { reason: 'outside --root' };
    reason = found.problem;
  }
  return { reason };
}

/**
 * The new layout (real path -> path inside DIR): files under the ticket's folder keep their place beside it;
 * the others keep their layout below their common folder, under "files/". Two sources never get one name
 * (checked without case, for file systems that fold it).
 */
function newLayout(sources: Map<string, string[]>, ticketFolder: string, ticketName: string): Map<string, string> {
  const outsiders = [...sources.keys()].filter((s) => !inside(ticketFolder, s));
  const outsideBase = outsiders.length > 0 ? commonFolder(outsiders) : '';
  const layout = new Map<string, string>();
  const taken = new Set<string>([ticketName.toLowerCase(), MANIFEST.toLowerCase()]);
  for (const s of sources.keys()) {
    let rel = inside(ticketFolder, s) ? path.relative(ticketFolder, s) : path.join('files', path.relative(outsideBase, s));
    const { dir, name, ext } = path.parse(rel);
    for (let k = 2; taken.has(rel.toLowerCase()); k++) rel = path.join(dir, `${name}~${k}${ext}`);
    taken.add(rel.toLowerCase());
    layout.set(s, rel);
  }
  return layout;
}

/** The rewritten ticket: each moved file relative to the ticket, the others absolute, the Directory dropped. */
function rewriteTicket(ticket: ReadTicket, steps: readonly Step[], layout: Map<string, string>, target: string): Uint8Array {
  const { text } = ticket.decoded;
  const edits: Edit[] = [];
  for (const p of steps) {
    const ref = p.ref;
    const at = { line: ref.line, column: ref.column, element: ref.element, attribute: ref.attribute };
    if (p.drop) {
      const span = attributeSpan(text, ref.span);
      edits.push({ ...at, span, from: text.slice(span[0], span[1]), to: '', written: '' });
      continue;
    }
    const to = p.source !== undefined ? relativeUrl(target, path.join(target, layout.get(p.source)!)) : p.keep;
    if (to === undefined) continue;
    const quote = text[ref.span[0] - 1] === "'" ? "'" : '"';
    edits.push({ ...at, span: ref.span, from: text.slice(ref.span[0], ref.span[1]), to, written: escapeForAttribute(to, quote, ticket.report.encoding) });
  }
  edits.sort((a, b) => a.span[0] - b.span[0]);
  return applyEdits(ticket.bytes, text, ticket.decoded.charset.toUpperCase(), ticket.decoded.bom, edits);
}
