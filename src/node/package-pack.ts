// pack: a ticket and every local file it references, as a MIME multipart/related package (references rewritten
// to cid: URLs, RFC 2392) or a zip (references rewritten to paths inside it). The ticket's bytes change only in
// the rewritten values; content files are streamed, never held whole; the package is written to a temporary
// file beside the output and renamed over it, so it appears whole or not at all. Each file is found by the walk
// inside --root and read through one descriptor that must be the file the walk found (checked-source.ts): a
// folder swapped for a link after the check is never followed, and a file that changes while it is packed
// fails the pack.
import { randomBytes } from 'node:crypto';
import { readFile, realpath, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { isWindowsDriveAt } from '../fileurl/drive.js';
import { pathFor, utf8Escapes } from '../package/names.js';
import { contentIdToCid } from '../package/cid.js';
import { decodeTicket } from '../ticket/decode.js';
import { applyEdits, escapeForAttribute, type Edit } from '../ticket/rewrite.js';
import { validateTicket, type TicketReference, type ValidateOptions } from '../ticket/validate.js';
import { mapReference } from '../views/map.js';
import { attributeSpan, basesUrls } from '../views/rebase.js';
import { decodeAttributeValue } from '../ticket/xml/index.js';
import { resolveReference } from '../uri/resolve.js';
import type { ViewTable } from '../views/types.js';
import type { CheckedFile } from './checked-file.js';
import { findSourceFile, SourceChanged } from './checked-source.js';
import { viewTable } from './config-file.js';
import type { Root } from './confine.js';
import type { PrefixMap } from './local-files.js';
import { writeMime, writeZip } from './package-write.js';
import { localPathHere } from './view-paths.js';

export interface PackOptions {
  output: string;
  /** mime (default): cid: references; zip: references relative to the package. */
  format?: 'mime' | 'zip';
  maps?: readonly PrefixMap[];
  /** Every packed file must be inside this folder (after symbolic links). */
  root?: string;
  /** Pack what is there and leave references to missing files as they are (never a dangling cid:). */
  allowMissing?: boolean;
  validate?: ValidateOptions;
}

export interface PackProblem {
  value: string;
  line: number;
  column: number;
  path?: string;
  reason: string;
  /** The ticket itself is the problem (its name, or XML that cannot be rewritten), not one of its references. */
  ticket?: true;
}

export interface PackedFile {
  path: string;
  /** Content-ID (MIME) or entry name (zip). */
  name: string;
  /** The value the references now hold. */
  reference: string;
  references: number;
}

export interface PackResult {
  written: boolean;
  output: string;
  files: PackedFile[];
  problems: PackProblem[];
}

const ROOT_TYPES: Record<string, string> = {
  JDF: 'application/vnd.cip4-jdf+xml', JMF: 'application/vnd.cip4-jmf+xml', XJDF: 'application/vnd.cip4-xjdf+xml', XJMF: 'application/vnd.cip4-xjmf+xml',
};

/**
 * The paths a resolved URL may name on this machine, in the order to try: through the --map rows as validate
 * reads them (views/match.ts: whole segments, the longest prefix first), else a file URL's own path here; null
 * for another scheme or host (it travels as a URL). Its escapes are first read in the ticket's charset.
 */
function localPaths(resolved: string, charset: string, table: ViewTable | undefined, documentUri: string): string[] | null {
  const url = utf8Escapes(resolved, charset);
  const mapped = table !== undefined ? mapReference(url, table, localPathHere, documentUri) : null;
  if (mapped) return mapped.local.map((c) => c.path);
  if (!/^file:/i.test(url)) return null;
  const here = localPathHere(url);
  return here === null ? null : [here];
}

/** A file to pack: where the walk found it, as a file of the result, and the file it was (device, inode). */
type Packing = PackedFile & { refs: TicketReference[]; checked: CheckedFile; mtime: Date; mode: number };

/**
 * The first candidate that is a file (after symbolic links; inside --root, walked as confine.ts walks), or why
 * the first one is not; a candidate that leads outside --root is refused at once.
 */
async function firstFile(candidates: readonly string[], root: Root | undefined, rootShown: string | undefined): Promise<{ file: CheckedFile; mtime: Date; mode: number; path: string } | { path?: string; problem: string }> {
  let first: { path: string; problem: string } | undefined;
  for (const candidate of candidates) {
    const found = await findSourceFile(candidate, root);
    if ('file' in found) return { file: found.file, mtime: found.info.mtime, mode: found.info.mode, path: candidate };
    if ('outside' in found) return { path: candidate, problem: `is outside --root ${rootShown}${found.outside}` };
    first ??= { path: candidate, problem: found.problem === 'missing' ? 'does not exist' : 'is not a file' };
  }
  return first ?? { problem: 'names no path on this machine (its --map row has no folder here)' };
}

/**
 * Why a file's name cannot be the last segment of a zip entry's name as it is, or null. APPNOTE 4.4.17: "/" is
 * the only separator, yet zip tools (and yazl, which writes ours) read "\\" as one too: "a\\..\\evil.pdf" would
 * be stored, and extracted, as "a/../evil.pdf", and the reference written for it would name no entry.
 */
function zipNameProblem(name: string): string | null {
  if (name.includes('\\')) return `is named '${name}', with '\\', which zip tools read as a folder separator (APPNOTE 4.4.17 allows only '/'): no zip entry can carry that name`;
  if (isWindowsDriveAt(name)) return `is named '${name}', which starts like a drive letter, and zip tools read that as an absolute path`;
  return null;
}

/** RFC 5322 3.2.3 dot-atom-text: the characters a Content-ID's left side may hold. */
function atom(name: string): string {
  const cleaned = name.replace(/[^A-Za-z0-9!#$%&'*+\-/=?^_`{|}~.]/g, '_').replace(/\.{2,}/g, '.').replace(/^\.|\.$/g, '');
  return cleaned === '' ? 'file' : cleaned;
}

/** Picks the files to pack and the new value of every reference to them; reports what is missing. */
async function plan(report: ReturnType<typeof validateTicket>, documentUri: string, options: PackOptions): Promise<{ files: Map<string, Packing>; problems: PackProblem[] }> {
  const files = new Map<string, Packing>();
  const problems: PackProblem[] = [];
  const table = options.maps !== undefined && options.maps.length > 0 ? viewTable(undefined, options.maps) : undefined;
  let root: Root | undefined;
  if (options.root !== undefined) {
    const named = path.resolve(options.root);
    root = { named, real: await realpath(named) };
  }
  const taken = new Set<string>();
  const zip = options.format === 'zip';
  for (const ref of report.references) {
    if (ref.role !== 'url' || ref.value.trim() === '' || ref.baseSource === 'container' || ref.resolved === null) continue;
    const where = { value: ref.value, line: ref.line, column: ref.column };
    if (ref.scheme === 'cid') {
      problems.push({ ...where, reason: 'is a cid: URL, which names a part of a package this ticket is not in; the package would carry it dangling' });
      continue;
    }
    const candidates = localPaths(ref.resolved, report.encoding, table, documentUri);
    if (candidates === null) continue; // another scheme or host: it travels as a URL
    const found = await firstFile(candidates, root, options.root);
    if ('problem' in found) { problems.push({ ...where, ...(found.path !== undefined ? { path: found.path } : {}), reason: found.problem }); continue; }
    const { file: checked, path: local } = found;
    const real = checked.path;
    const unzippable = zip ? zipNameProblem(path.basename(real)) : null;
    if (unzippable !== null) { problems.push({ ...where, path: local, reason: `${unzippable}; rename the file, or pack as MIME (--format mime), which keeps any name` }); continue; }
    let file = files.get(real);
    if (!file) {
      const base = path.basename(real);
      let name: string;
      if (zip) {
        // Two files with one name never collide: the second is content/2/name, and so on.
        name = `content/${base}`;
        for (let k = 2; taken.has(name.toLowerCase()); k++) name = `content/${k}/${base}`;
        taken.add(name.toLowerCase());
      } else {
        name = `${files.size + 1}.${atom(base)}@jdf-filespec`;
      }
      const reference = zip ? pathFor(name, report.encoding) : contentIdToCid(name);
      file = { path: real, name, reference, references: 0, refs: [], checked, mtime: found.mtime, mode: found.mode };
      files.set(real, file);
    }
    file.references++;
    file.refs.push(ref);
  }
  // One value reached through rRefs with different bases can name different files; it cannot become one cid:.
  const bySpan = new Map<string, string>();
  const split = new Set<string>();
  for (const file of files.values()) {
    for (const ref of file.refs) {
      const key = `${ref.span[0]}:${ref.span[1]}`;
      const seen = bySpan.get(key);
      if (seen !== undefined && seen !== file.path) split.add(key);
      else bySpan.set(key, file.path);
    }
  }
  if (split.size > 0) {
    for (const [real, file] of [...files]) {
      const kept = file.refs.filter((ref) => !split.has(`${ref.span[0]}:${ref.span[1]}`));
      for (const ref of file.refs.filter((r) => !kept.includes(r))) {
        problems.push({ value: ref.value, line: ref.line, column: ref.column, path: file.path, reason: `names different files through its uses${ref.via ? ` (here via ${ref.via})` : ''}, so it cannot be rewritten to one of them; give each use its own FileSpec` });
      }
      file.refs = kept;
      file.references = kept.length;
      if (kept.length === 0) files.delete(real);
    }
  }
  return { files, problems };
}

/**
 * For a zip: each RunList/@Directory and Preview/@Directory dropped, and every relative reference it based that is
 * not packed made absolute (the Directory folded into it), so it names the same file as before; a packed one
 * becomes content/NAME, relative to the ticket at the zip's top. A value whose rRef uses fold to different URLs
 * cannot be given one: a problem.
 */
function foldDirectories(report: ReturnType<typeof validateTicket>, text: string, files: Map<string, Packing>, problems: PackProblem[]): Edit[] {
  const packed = new Set<string>();
  for (const file of files.values()) for (const ref of file.refs) packed.add(`${ref.span[0]}:${ref.span[1]}`);
  const bySpan = new Map<string, TicketReference[]>();
  for (const ref of report.references) {
    const key = `${ref.span[0]}:${ref.span[1]}`;
    bySpan.set(key, [...(bySpan.get(key) ?? []), ref]);
  }
  const edits: Edit[] = [];
  for (const [key, uses] of bySpan) {
    const ref = uses[0]!;
    const at = { line: ref.line, column: ref.column, element: ref.element, attribute: ref.attribute };
    if (ref.role === 'directory' && basesUrls(ref)) {
      const span = attributeSpan(text, ref.span);
      edits.push({ ...at, span, from: text.slice(span[0], span[1]), to: '', written: '' });
      continue;
    }
    if (packed.has(key) || ref.role !== 'url' || ref.kind === 'absolute' || !uses.some((u) => u.baseSource === 'directory')) continue;
    // The value as the file holds it (the report's masks a password), resolved against each use's base.
    const raw = decodeAttributeValue(text, ref.span[0], ref.span[1]).value.trim();
    const targets = new Set(uses.map((u) => (u.base === null ? null : resolveReference(raw, u.base))));
    const to = [...targets][0];
    if (targets.size !== 1 || to === null || to === undefined) {
      problems.push({ value: ref.value, line: ref.line, column: ref.column, reason: 'takes its base from a RunList/@Directory that a zip drops, and names different files through its uses (or has no base), so it cannot be made absolute; give each use its own FileSpec, or pack as MIME' });
      continue;
    }
    const quote = text[ref.span[0] - 1] === "'" ? "'" : '"';
    edits.push({ ...at, span: ref.span, from: text.slice(ref.span[0], ref.span[1]), to, written: escapeForAttribute(to, quote, report.encoding) });
  }
  return edits;
}

/** Collects the ticket and its local files into one package; nothing is written when a file is missing (unless allowMissing). */
export async function packJob(ticketPath: string, options: PackOptions): Promise<PackResult> {
  const bytes = await readFile(ticketPath);
  const decoded = decodeTicket(bytes);
  const documentUri = pathToFileURL(path.resolve(ticketPath)).href;
  const report = validateTicket(bytes, { ...options.validate, documentUri });
  const result: PackResult = { written: false, output: options.output, files: [], problems: [] };
  const unzippable = options.format === 'zip' ? zipNameProblem(path.basename(ticketPath)) : null;
  if (unzippable !== null) {
    result.problems.push({ value: '', line: 1, column: 1, ticket: true, reason: `the ticket cannot be the zip's top-level entry: it ${unzippable}; rename it, or pack as MIME (--format mime)` });
    return result;
  }
  const broken = report.findings.find((f) => ['xml-malformed', 'xml-too-deep', 'xml-empty', 'invalid-encoding-bytes', 'unsupported-encoding', 'file-too-large', 'duplicate-attribute'].includes(f.code));
  if (broken) {
    result.problems.push({ value: '', line: broken.line, column: broken.column, ticket: true, reason: `the ticket cannot be rewritten: ${broken.message}` });
    return result;
  }
  const { files, problems } = await plan(report, documentUri, options);
  // A zip's references are relative to the ticket: each RunList's and Preview's Directory is folded into the
  // references it bases (as rebase --fold-directory does) and dropped.
  const folded = options.format === 'zip' ? foldDirectories(report, decoded.text, files, problems) : [];
  result.problems = problems;
  result.files = [...files.values()].map(({ path: p, name, reference, references }) => ({ path: p, name, reference, references }));
  if (problems.length > 0 && !options.allowMissing) return result;

  // Every use of a value is one span; rRef uses of one resource share it.
  const edits = new Map<string, Edit>();
  for (const file of files.values()) {
    for (const ref of file.refs) {
      const key = `${ref.span[0]}:${ref.span[1]}`;
      if (edits.has(key)) continue;
      const quote = decoded.text[ref.span[0] - 1] === "'" ? "'" : '"';
      edits.set(key, { span: ref.span, from: decoded.text.slice(ref.span[0], ref.span[1]), to: file.reference, written: escapeForAttribute(file.reference, quote, report.encoding), line: ref.line, column: ref.column, element: ref.element, attribute: ref.attribute });
    }
  }
  for (const edit of folded) if (!edits.has(`${edit.span[0]}:${edit.span[1]}`)) edits.set(`${edit.span[0]}:${edit.span[1]}`, edit);
  const ticket = applyEdits(bytes, decoded.text, decoded.charset.toUpperCase(), decoded.bom, [...edits.values()].sort((a, b) => a.span[0] - b.span[0]));
  const temp = path.join(path.dirname(path.resolve(options.output)), `.${path.basename(options.output)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
  try {
    if (options.format === 'zip') await writeZip(temp, path.basename(ticketPath), ticket, [...files.values()]);
    else await writeMime(temp, ticket, ROOT_TYPES[report.root ?? ''] ?? 'application/xml', [...files.values()]);
    await rename(temp, options.output);
  } catch (error) {
    await rm(temp, { force: true });
    throw error instanceof SourceChanged ? new SourceChanged(`${error.message}; no package was written`) : error;
  }
  result.written = true;
  return result;
}
