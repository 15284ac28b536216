// unpack: every part of a package written into one folder, under safe names, never outside it; the cid:
// references of the tickets rewritten to relative URLs naming the written files. Parts are streamed to disk.
// All or nothing: the names are planned first (a MIME package's from a first pass over its headers, a zip's from
// its directory), a folder already holding one is refused before anything is written, and what was written is
// removed again when unpacking cannot finish. A file of the user's is never replaced. Nothing is written, read
// back or removed through a folder swapped for a symbolic link meanwhile (unpack-place.ts).
import { closeSync, writeSync } from 'node:fs';
import { lstat, mkdir, realpath, rename, rmdir } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { cidToContentId } from '../package/cid.js';
import { entryFor } from '../package/entry-name.js';
import { pathFor } from '../package/names.js';
import { MultipartReader } from '../package/multipart.js';
import { detectPackage } from '../package/validate.js';
import { readZipDirectory, readZipEntry, type ZipEntry } from '../package/zip.js';
import { slipProblem } from '../rules/package.js';
import { sniff } from '../package/magic.js';
import { decodeAttributeValue } from '../ticket/xml/index.js';
import { decodeTicket } from '../ticket/decode.js';
import { applyEdits, escapeForAttribute, type Edit } from '../ticket/rewrite.js';
import { validateTicket, type TicketReport } from '../ticket/validate.js';
import { resolveReference } from '../uri/resolve.js';
import { TICKET_ROOTS } from '../ticket/vocabulary.js';
import { fileAccess, reusedChunks } from './package-read.js';
import { mimeName, Names, safeSegment } from './unpack-names.js';
import { createInside, createInsideSync, folderFor, Made, readMade } from './unpack-place.js';

export { safeSegment } from './unpack-names.js';

export interface UnpackedPart {
  /** Content-ID in angle brackets, or the zip entry name. */
  part: string;
  /** Where it was written, relative to the output folder ("/" separated). */
  file: string;
  size: number;
  /** A ticket whose cid: references were rewritten. */
  rewritten?: number;
}

export interface UnpackResult {
  parts: UnpackedPart[];
  /** What was refused (unsafe zip entries, bombs) or could not be resolved (a cid: naming no part). */
  problems: string[];
}

/** The names (relative, "/"-separated) that `root` already holds, or holds as a file or link where a folder must go. */
async function taken(root: string, relatives: readonly string[]): Promise<string[]> {
  const found = new Set<string>();
  const looked = new Set<string>();
  for (const relative of relatives) {
    const parts = relative.split('/');
    for (let k = 1; k <= parts.length; k++) {
      const name = parts.slice(0, k).join('/');
      if (looked.has(name)) continue;
      looked.add(name);
      try {
        const info = await lstat(path.join(root, ...parts.slice(0, k)));
        if (k === parts.length || !info.isDirectory()) { found.add(name); break; }
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') break;
        throw error;
      }
    }
  }
  return [...found];
}

/** Refuses a folder that holds a name the package would be written under, naming them, before anything is written. */
async function refuseTaken(input: string, outDir: string, root: string, relatives: readonly string[]): Promise<void> {
  const names = await taken(root, relatives);
  if (names.length === 0) return;
  const shown = names.slice(0, 5).map((n) => `'${n}'`).join(', ') + (names.length > 5 ? ` and ${names.length - 5} more` : '');
  throw new Error(`${outDir} already holds ${shown}, which unpacking ${input} would write; nothing was written. Unpack into a new or empty folder, or move ${names.length > 1 ? 'those' : 'that'} away first.`);
}

export async function unpackPackage(input: string, outDir: string): Promise<UnpackResult> {
  const access = await fileAccess(input);
  let kind;
  try {
    kind = detectPackage(await access.read(0, 16 * 1024));
  } finally {
    await access.close();
  }
  if (kind === null) throw new Error(`${input} is not a MIME or zip package`);
  const created = await mkdir(outDir, { recursive: true });
  const root = await realpath(outDir);
  const made = new Made();
  try {
    return await (kind === 'zip' ? unpackZip(input, outDir, root, made) : unpackMime(input, outDir, root, made));
  } catch (error) {
    await made.undo();
    // The output folder too, and those above it, where this run created them (and so they are empty again).
    if (created !== undefined) {
      const top = path.resolve(created);
      for (let at = path.resolve(outDir); at.length >= top.length; at = path.dirname(at)) if (!(await rmdir(at).then(() => true, () => false))) break;
    }
    throw error;
  }
}

/** The names a MIME package's parts are written under, in order: a first pass over the package, reading its headers only. */
async function mimeNames(input: string): Promise<string[]> {
  const names = new Names();
  const files: string[] = [];
  const reader = new MultipartReader({
    partStart(h) { files.push(names.unique(mimeName(h))); },
    partData() { return false; },
    partEnd() {},
    problem() {},
  });
  const access = await fileAccess(input);
  try {
    for await (const chunk of reusedChunks(access, 256 << 10)) reader.push(chunk);
    reader.end();
  } finally {
    await access.close();
  }
  return files;
}

async function unpackMime(input: string, outDir: string, root: string, made: Made): Promise<UnpackResult> {
  const planned = await mimeNames(input);
  await refuseTaken(input, outDir, root, planned);
  const result: UnpackResult = { parts: [], problems: [] };
  const byId = new Map<string, UnpackedPart>();
  const tickets: UnpackedPart[] = [];
  // Parts are written synchronously as they are decoded: no copy of a chunk waits in memory for the disk.
  let fd: number | undefined;
  let current: UnpackedPart | undefined;
  let head: Uint8Array | undefined;
  const reader = new MultipartReader({
    partStart(h) {
      // The first pass read the same bytes: the same parts, in the same order.
      const file = planned[h.index];
      if (file === undefined) throw new Error(`${input} changed while it was unpacked (it has more parts than a moment before)`);
      current = { part: h.contentId !== undefined ? `<${h.contentId}>` : file, file, size: 0 };
      if (h.contentId !== undefined && !byId.has(h.contentId)) byId.set(h.contentId, current);
      result.parts.push(current);
      head = undefined;
      fd = createInsideSync(path.join(root, file), file, made);
    },
    partData(_h, data) {
      if (head === undefined) head = new Uint8Array(data.subarray(0, 1024));
      current!.size += data.length;
      for (let at = 0; at < data.length; ) at += writeSync(fd!, data, at, data.length - at);
    },
    partEnd() {
      if (head !== undefined && sniff(head) === 'xml') tickets.push(current!);
      closeSync(fd!);
      fd = undefined;
    },
    problem(code, args) {
      result.problems.push(`${code}: ${Object.values(args).join(', ')}`);
    },
  });
  const access = await fileAccess(input);
  try {
    for await (const chunk of reusedChunks(access, 256 << 10)) reader.push(chunk);
    reader.end();
  } finally {
    if (fd !== undefined) closeSync(fd);
    await access.close();
  }
  for (const t of tickets) await rewriteTicket(root, t, cidTargets(t, byId, result), made);
  return result;
}

/** Which references of a ticket name which written part (by their index in the ticket's references). */
type TargetsOf = (references: TicketReport['references'], encoding: string, valueOf: (k: number) => string) => Map<number, UnpackedPart>;

/** RFC 2392 cid: references to parts: each names the part with that Content-ID. */
function cidTargets(part: UnpackedPart, byId: Map<string, UnpackedPart>, result: UnpackResult): TargetsOf {
  return (references) => {
    const targets = new Map<number, UnpackedPart>();
    references.forEach((ref, k) => {
      if (ref.scheme !== 'cid') return;
      const id = cidToContentId(ref.value);
      const target = id === undefined ? undefined : byId.get(id);
      if (target) targets.set(k, target);
      else result.problems.push(`cid-no-part: ${ref.value} in ${part.part} names no part; left as it is`);
    });
    return targets;
  };
}

/** A zip ticket's relative references to entries written under other names (made safe, or -2 for a name taken): each names that entry. */
function entryTargets(part: UnpackedPart, byEntry: Map<string, UnpackedPart>): TargetsOf {
  return (references, encoding, valueOf) => {
    const targets = new Map<number, UnpackedPart>();
    references.forEach((ref, k) => {
      // The value as written (a report's value hides what looks like a password: "a:b@c" is a name here).
      const value = valueOf(k).trim();
      if (ref.role !== 'url' || /^[A-Za-z][A-Za-z0-9+.-]*:/.test(value) || value.startsWith('/') || value.startsWith('#')) return;
      const name = entryFor(value, part.part, encoding);
      const target = name === undefined ? undefined : byEntry.get(name);
      if (target && (target.file !== target.part || part.file !== part.part)) targets.set(k, target);
    });
    return targets;
  };
}

/** A ticket's references to parts, rewritten as relative URLs naming the files they were written to. */
async function rewriteTicket(root: string, part: UnpackedPart, targetsOf: TargetsOf, made: Made): Promise<void> {
  const file = path.join(root, part.file);
  const bytes = await readMade(file, made);
  const documentUri = pathToFileURL(file).href;
  const report = validateTicket(bytes, { documentUri });
  if (report.root === undefined || !TICKET_ROOTS.has(report.root)) return;
  const decoded = decodeTicket(bytes);
  // Each reference naming a part becomes a URL for the file written from it: relative to the ticket's folder,
  // or, where a RunList/@Directory would be the base of a relative URL, the file's absolute file URL. Which one
  // is decided by reading the rewritten ticket back and checking where each value resolves.
  const targets = targetsOf(report.references, report.encoding, (k) => decodeAttributeValue(decoded.text, report.references[k]!.span[0], report.references[k]!.span[1]).value);
  if (targets.size === 0) return;
  const relativeOf = (target: UnpackedPart) => pathFor(path.posix.relative(path.posix.dirname(part.file), target.file), report.encoding);
  const rewrite = (absolute: ReadonlySet<number>): Uint8Array => {
    const edits = new Map<number, Edit>();
    for (const [k, target] of targets) {
      const ref = report.references[k]!;
      if (edits.has(ref.span[0])) continue;
      const to = absolute.has(k) ? resolveReference(relativeOf(target), documentUri) : relativeOf(target);
      const quote = decoded.text[ref.span[0] - 1] === "'" ? "'" : '"';
      edits.set(ref.span[0], { span: ref.span, from: decoded.text.slice(ref.span[0], ref.span[1]), to, written: escapeForAttribute(to, quote, report.encoding), line: ref.line, column: ref.column, element: ref.element, attribute: ref.attribute });
    }
    return applyEdits(bytes, decoded.text, decoded.charset.toUpperCase(), decoded.bom, [...edits.values()].sort((a, b) => a.span[0] - b.span[0]));
  };
  const relative = rewrite(new Set());
  const readBack = validateTicket(relative, { documentUri }).references;
  const absolute = new Set<number>();
  for (const [k, target] of targets) {
    if (readBack[k]?.resolved !== resolveReference(relativeOf(target), documentUri)) absolute.add(k);
  }
  const rewritten = absolute.size === 0 ? relative : rewrite(absolute);
  part.rewritten = targets.size;
  const temp = `${file}.${process.pid}.tmp`;
  const handle = await createInside(temp, `${part.file} (its rewritten copy)`, made);
  try {
    await handle.writeFile(rewritten);
  } finally {
    await handle.close();
  }
  await rename(temp, file);
  made.moved(temp, file);
}

async function unpackZip(input: string, outDir: string, root: string, made: Made): Promise<UnpackResult> {
  const result: UnpackResult = { parts: [], problems: [] };
  const access = await fileAccess(input);
  try {
    const directory = await readZipDirectory(access);
    const refused = directory.problems.filter((p) => p.code !== 'zip-slip');
    if (refused.some((p) => p.code === 'zip-bomb' || p.code === 'package-limit' || (p.code === 'zip-malformed' && p.entry === undefined))) {
      result.problems.push(...refused.map((p) => `${p.code}: ${Object.values(p.args).join(', ')}`));
      return result;
    }
    const names = new Names();
    const planned: Array<{ entry: ZipEntry; relative: string }> = [];
    for (const entry of directory.entries) {
      if (entry.isDirectory) continue;
      const slip = slipProblem(entry.name);
      if (slip) {
        result.problems.push(`zip-slip: '${entry.name}' not written: ${slip}`);
        continue;
      }
      if (entry.flags & 1 || (entry.method !== 0 && entry.method !== 8)) {
        result.problems.push(`zip-malformed: '${entry.name}' not written: encrypted or compressed with method ${entry.method}`);
        continue;
      }
      const segments = entry.name.split(/[/\\]/).filter((s) => s !== '' && s !== '.');
      const safe = segments.map((s, k) => safeSegment(s, k === segments.length - 1 ? 'entry' : 'folder'));
      planned.push({ entry, relative: names.unique(safe.join('/')) });
    }
    await refuseTaken(input, outDir, root, planned.map((p) => p.relative));
    const byEntry = new Map<string, UnpackedPart>();
    const tickets: UnpackedPart[] = [];
    for (const { entry, relative } of planned) {
      const target = await folderFor(root, relative, made);
      const handle = await createInside(target, relative, made);
      let size = 0;
      let head: Uint8Array | undefined;
      try {
        // Written as it is inflated, 32 KiB of input at a time.
        const read = await readZipEntry(access, entry, entry.size, async (d) => {
          if (head === undefined) head = new Uint8Array(d.subarray(0, 1024));
          await handle.write(d);
          size += d.length;
        });
        if (read.error || read.oversize) result.problems.push(`zip-malformed: '${entry.name}' ${read.error ?? 'inflates past its declared size'}; written up to its declared size`);
      } finally {
        await handle.close();
      }
      const written: UnpackedPart = { part: entry.name, file: relative, size };
      result.parts.push(written);
      byEntry.set(entry.name, written);
      if (head !== undefined && sniff(head) === 'xml') tickets.push(written);
    }
    // Entries written under other names than their own: the tickets' references to them follow.
    for (const t of tickets) await rewriteTicket(root, t, entryTargets(t, byEntry), made);
  } finally {
    await access.close();
  }
  return result;
}
