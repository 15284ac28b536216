// Packages on this machine: a file read with random access (zip) or as a stream (MIME), never whole, and
// validated with the browser-usable core in src/package. Also: --check-exists for files inside a local zip
// named by FileSpec/Container, looked up in its central directory without extracting.
import type { FileHandle } from 'node:fs/promises';
import { decodeSegment } from '../escape/percent.js';
import { validatePackage, type PackageInput, type PackageKind, type PackageOptions } from '../package/validate.js';
import { utf8Escapes } from '../package/names.js';
import { isZip, readZipDirectory, type RandomAccess } from '../package/zip.js';
import type { FileReport } from '../report/report.js';
import { containerMemberProblem } from '../rules/files.js';
import { createFinding } from '../rules/finding.js';
import type { TicketReport } from '../ticket/validate.js';
import type { TicketSource } from './files.js';
import { settleFindings } from '../ticket/silence.js';
import { checkLocalFiles, type LocalFileOptions } from './local-files.js';
import { localPathHere } from './view-paths.js';
import { fileAccess, kindOfAccess, withAccess } from './package-kind.js';

export { fileAccess, packageKindOf } from './package-kind.js';

/** A file front to back through one reused buffer: each chunk is valid until the next is asked for. */
export async function* reusedChunks(access: RandomAccess & { readInto?: unknown }, size = 1 << 20): AsyncIterable<Uint8Array> {
  const handle = (access as { handle?: FileHandle }).handle;
  if (!handle) {
    for (let at = 0; at < access.size; at += size) yield await access.read(at, size);
    return;
  }
  const buffer = Buffer.allocUnsafe(size);
  for (let at = 0; at < access.size; ) {
    const { bytesRead } = await handle.read(buffer, 0, size, at);
    if (bytesRead === 0) return;
    at += bytesRead;
    yield buffer.subarray(0, bytesRead);
  }
}

/** Validates a package file; one report for the package itself, then one per ticket in it (`part` names it). */
export async function validatePackageFile(source: TicketSource, options: PackageOptions, local?: LocalFileOptions): Promise<FileReport[]> {
  const access = await fileAccess(source.path, source.noFollow);
  try {
    // A zip is read where its directory points; a MIME package front to back through one reused buffer (the
    // reader copies what it holds back, so nothing of a part outlives its chunk).
    const zip = isZip(await access.read(0, 4));
    return await validatePackageSource(zip ? access : reusedChunks(access), source, options, local);
  } finally {
    await access.close();
  }
}

/**
 * A package from a file or from standard input ("-" with its documentUri from --stdin-filename): validated the
 * same way, its base the package's URI, its references that leave it checked on this machine.
 */
export async function validatePackageSource(input: PackageInput, source: TicketSource, options: PackageOptions, local?: LocalFileOptions): Promise<FileReport[]> {
  const report = await validatePackage(input, { ...options, ...(source.documentUri ? { documentUri: source.documentUri } : {}) });
  const files: FileReport[] = [];
  for (const f of report.files) {
    if (local && (local.checkExists || local.root !== undefined) && f.part !== undefined) {
      await checkOutside(f, report.kind, source.documentUri, local);
      settleFindings(f);
    }
    files.push({ path: source.path, ...(source.documentUri ? { documentUri: source.documentUri } : {}), ...f });
  }
  return files;
}

/**
 * --check-exists and --root for the references of a ticket in a package that lead outside it (inside a zip, the
 * directory decided; a part a reference names, by its Content-Location too, is inside).
 */
async function checkOutside(ticket: TicketReport, kind: PackageKind, packageUri: string | undefined, local: LocalFileOptions): Promise<void> {
  const inside = kind === 'zip' && packageUri !== undefined ? `${packageUri}/` : undefined;
  const outside = ticket.references.filter((r) => r.scheme !== 'cid' && r.packagePart === undefined && !(inside !== undefined && r.resolved?.startsWith(inside)));
  await checkLocalFiles({ ...ticket, references: outside }, local);
}

/**
 * --check-exists for FileSpecs inside a Container/FileSpec zip (JDF appendix 4.6): where the container is a local
 * zip, its member is looked up in the central directory instead of the file system.
 */
export async function checkContainerMembers(ticket: TicketReport, local: LocalFileOptions): Promise<void> {
  if (!local.checkExists) return;
  const directories = new Map<string, Promise<Set<string> | null>>();
  for (const ref of ticket.references) {
    if (ref.baseSource !== 'container' || ref.base === null || ref.resolved === null || !ref.resolved.startsWith(ref.base)) continue;
    // Escaped octets are in the ticket's charset (JDF appendix section 3), the zip's names and this disk's in Unicode.
    const container = localPathHere(utf8Escapes(ref.base.replace(/\/$/, ''), ticket.encoding));
    if (container === null) continue;
    let names = directories.get(container);
    if (!names) directories.set(container, (names = zipNames(container)));
    const set = await names;
    if (set === null) continue; // not a readable zip: the file-system check stands
    const member = ref.resolved.slice(ref.base.length).replace(/[?#].*$/, '').split('/').map((s) => decodeSegment(s, ticket.encoding).text).join('/');
    ref.findings = ref.findings.filter((f) => f.code !== 'file-missing' && f.code !== 'not-a-file' && f.code !== 'case-mismatch');
    const missing = containerMemberProblem(member, container, set.has(member));
    if (missing) ref.findings.push(createFinding(missing.code, missing.args, { profile: local.profile ?? 'jdf', at: ref }));
  }
}

async function zipNames(file: string): Promise<Set<string> | null> {
  return withAccess(file, async (access) => {
    if ((await kindOfAccess(access)) !== 'zip') return null;
    const directory = await readZipDirectory(access);
    return new Set(directory.entries.map((e) => e.name));
  });
}
