// jdf-filespec relocate: a ticket and every local file it references, copied or moved into DIR with their
// relative layout, the references rewritten relative to the ticket, and a manifest. All or nothing: everything
// is staged in a new folder beside DIR and renamed into place at the end; on any failure the staging folder
// is removed and the sources are as they were. Confined to --root on both sides. Each source is found by the
// confined walk and read through one descriptor that must be the file the walk found (checked-source.ts);
// --move deletes the sources only when every one is still the file copied, unchanged, and else none of them.
import { randomBytes } from 'node:crypto';
import { chmod, lstat, mkdir, readdir, realpath, rename, rm, rmdir, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { escapeSegment } from '../escape/percent.js';
import { redactPassword } from '../fileurl/redact.js';
import type { DecodedTicket } from '../ticket/decode.js';
import { applyEdits, escapeForAttribute, type Edit } from '../ticket/rewrite.js';
import type { TicketReference, TicketReport } from '../ticket/validate.js';
import type { Platform } from '../rules/types.js';
import type { ViewTable } from '../views/types.js';
import type { CheckedFile } from './checked-file.js';
import { changedSince, copyCheckedSource, findSourceFile, readCheckedSource, SourceChanged, stillTheCopiedFile, type Stamp } from './checked-source.js';
import type { Root } from './confine.js';
import { localCandidates } from './locate.js';
import { decodeToRewrite } from './rewrite-read.js';
import { DEFAULT_MAX_BYTES } from './limits.js';

export interface RelocateOptions {
  to: string;
  mode: 'copy' | 'move';
  root?: string;
  views?: ViewTable;
  maxBytes?: number;
  /** Move (or copy) what is there; a file that is missing, not a regular file or outside --root stays behind. */
  allowMissing?: boolean;
  /** The consumer the ticket is read for (as validate's --platform); default any. */
  platform?: Platform;
}

export interface ManifestEntry {
  from: string;
  to: string;
  /** The references (line:column) that name it. */
  references: string[];
}

export interface Manifest {
  tool: 'jdf-filespec relocate';
  mode: 'copy' | 'move';
  ticket: { from: string; to: string };
  files: ManifestEntry[];
  /** References that were not moved with their file, and why; the value is kept (made absolute if it was relative). */
  notMoved: Array<{ reference: string; value: string; reason: string }>;
  /** With --move: sources that could not be removed after the copy was in place. */
  leftInPlace?: Array<{ path: string; reason: string }>;
}

export class RelocateError extends Error {}

const MANIFEST = 'jdf-filespec-relocate.json';

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
}

/** Why a reference stays: it names no file on this machine (another host, another scheme). */
const NOT_LOCAL = 'not a local file';

const where = (r: TicketReference) => `${r.line}:${r.column}`;

export async function relocate(ticketPath: string, options: RelocateOptions): Promise<Manifest> {
  const places = await findPlaces(ticketPath, options);
  const ticket = await readTicket(places.ticketFile, ticketPath, options.maxBytes ?? DEFAULT_MAX_BYTES, options.platform);
  const plan = await planReferences(ticket, places, options.views);
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
async function readTicket(file: CheckedFile, ticketPath: string, maxBytes: number, platform: Platform | undefined): Promise<ReadTicket> {
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
  const checked = decodeToRewrite(bytes, file.path, platform ? { platform } : {});
  if ('unfit' in checked) throw new RelocateError(checked.unfit === 'encoding' ? 'the ticket does not decode in its declared encoding' : 'the ticket is not well-formed XML');
  return { bytes, mode: stamp!.mode, stamp: stamp!, ...checked, documentUri: pathToFileURL(file.path).href };
}

/** Which file each reference names here (the first candidate that is a regular file), and what cannot move. */
async function planReferences(ticket: ReadTicket, places: Places, views: ViewTable | undefined): Promise<Plan> {
  const plan: Plan = { steps: [], sources: new Map(), files: new Map(), notMoved: [] };
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

/** A source and the stamp of what was copied from it. */
interface Copied {
  file: CheckedFile;
  stamp: Stamp;
}

/**
 * Staged beside DIR (same file system, so the last step is one rename), then renamed into place; on any
 * failure the staging folder is removed. Each file is copied from the descriptor of the file the walk found;
 * with --move, every source (the ticket too) must still be unchanged once all are staged, or nothing is placed.
 */
async function stageAndPlace(places: Places, layout: Map<string, string>, files: Map<string, CheckedFile>, copied: Copied[], ticket: { name: string; bytes: Uint8Array; mode: number; move: boolean }, manifest: Manifest): Promise<void> {
  const { destParent, target } = places;
  const staging = path.join(destParent, `.${path.basename(target)}.jdf-filespec-${process.pid}-${randomBytes(6).toString('hex')}.tmp`);
  await mkdir(staging, { mode: 0o700 });
  try {
    for (const [from, rel] of layout) {
      const into = path.join(staging, rel);
      await mkdir(path.dirname(into), { recursive: true });
      const file = files.get(from)!;
      copied.push({ file, stamp: await copyCheckedSource(file, into) });
    }
    await writeFile(path.join(staging, ticket.name), ticket.bytes, { flag: 'wx', mode: ticket.mode & 0o777 });
    await writeFile(path.join(staging, MANIFEST), JSON.stringify(manifest, null, 2) + '\n', { flag: 'wx' });
    if (ticket.move) await refuseChanged(copied);
    await chmod(staging, 0o755);
    // An empty DIR that exists is replaced by the rename (rmdir first: rename onto it is not portable).
    await rmdir(target).catch(() => undefined);
    await rename(staging, target);
  } catch (error) {
    await rm(staging, { recursive: true, force: true });
    throw error instanceof SourceChanged ? new RelocateError(`${error.message}; the sources are kept and nothing was moved`) : error;
  }
}

/** --move: a source that changed since it was copied (a file still being written) is never deleted; nor is any other. */
async function refuseChanged(copied: readonly Copied[]): Promise<void> {
  const changed: string[] = [];
  for (const c of copied) {
    const why = await changedSince(c.file, c.stamp);
    if (why !== null) changed.push(`${c.file.path} changed since it was copied (${why})`);
  }
  if (changed.length > 0) throw new RelocateError(`${changed.join('; ')}: it may still be being written; the sources are kept, the copy removed, and nothing was moved`);
}

/**
 * With --move, once the copy is in place: the sources removed, all or none. Each is looked at by name right
 * before (the walk inside --root reaches it, the same device, inode, size and mtime); if any is not the file
 * copied, none is removed. Those that stay are added to the manifest.
 */
async function removeSources(copied: readonly Copied[], target: string, manifest: Manifest): Promise<void> {
  const left: Array<{ path: string; reason: string }> = [];
  for (const c of copied) {
    const why = await stillTheCopiedFile(c.file, c.stamp);
    if (why !== null) left.push({ path: c.file.path, reason: `changed after it was copied (${why}); no source was removed` });
  }
  if (left.length > 0) {
    const changed = new Set(left.map((l) => l.path));
    for (const c of copied) if (!changed.has(c.file.path)) left.push({ path: c.file.path, reason: 'kept: another source changed after it was copied, so no source was removed' });
  } else {
    for (const c of copied) {
      try {
        await unlink(c.file.path);
      } catch (error) {
        left.push({ path: c.file.path, reason: (error as NodeJS.ErrnoException).code ?? String(error) });
      }
    }
  }
  if (left.length > 0) {
    manifest.leftInPlace = left;
    await writeFile(path.join(target, MANIFEST), JSON.stringify(manifest, null, 2) + '\n');
  }
}
