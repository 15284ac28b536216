// validate --check-exists: what each FileSpec declares (FileSize, MimeType, CheckSum) against the file's bytes.
// The MD5 is streamed, and only with --verify-checksums: it reads every byte of every file. Every byte is read
// through one descriptor, of the very file the look found (checked-file.ts), never by its path again.
import { createHash } from 'node:crypto';
import type { FileHandle } from 'node:fs/promises';
import type { RuleCode } from '../rules/codes.js';
import { changedOutsideRoot } from '../rules/files.js';
import { createFinding } from '../rules/finding.js';
import { contentFindings, type ContentFacts, type DeclaredContent } from '../rules/integrity.js';
import type { Profile } from '../rules/types.js';
import type { TicketReference, TicketReport } from '../ticket/validate.js';
import { checkedFileOf, openCheckedFile, type CheckedFile } from './checked-file.js';
import { pdfjsInstalled, pdfPageCount } from './pdf-pages.js';

export interface IntegrityOptions {
  verifyChecksums?: boolean;
  profile?: Profile;
}

type Kind = 'PDF' | 'PostScript' | 'TIFF' | 'JPEG' | 'PNG' | 'ZIP' | 'XML';

/**
 * The magic bytes of each type (ISO 32000-1 7.5.2; PLRM 3 5.1; TIFF 6.0 section 2; JFIF; PNG 5.2; APPNOTE 4.3.7;
 * XML 1.0 2.8 and F.1), those at the very start first: a PDF header may stand anywhere in the first KiB, and so
 * may the bytes of a PDF stored uncompressed in a zip, which is still a zip.
 */
const MAGIC: Array<{ kind: Kind; test: (b: Buffer) => boolean }> = [
  { kind: 'PDF', test: (b) => b.subarray(0, 5).toString('latin1') === '%PDF-' },
  { kind: 'PostScript', test: (b) => b.subarray(0, 4).toString('latin1') === '%!PS' || b.readUInt32BE(0) === 0xc5d0d3c6 },
  { kind: 'TIFF', test: (b) => ['49492a00', '4d4d002a', '49492b00', '4d4d002b'].includes(b.subarray(0, 4).toString('hex')) },
  { kind: 'JPEG', test: (b) => b.subarray(0, 3).toString('hex') === 'ffd8ff' },
  { kind: 'PNG', test: (b) => b.subarray(0, 8).toString('hex') === '89504e470d0a1a0a' },
  { kind: 'ZIP', test: (b) => ['504b0304', '504b0506', '504b0708'].includes(b.subarray(0, 4).toString('hex')) },
  { kind: 'XML', test: isXml },
  { kind: 'PDF', test: (b) => b.subarray(0, 1024).includes('%PDF-') },
];

function isXml(b: Buffer): boolean {
  const hex = b.subarray(0, 4).toString('hex');
  return /^(\ufeff)?\s*</.test(b.toString('utf8')) || hex === '3c003f00' || hex === '003c003f' || hex.startsWith('fffe') || hex.startsWith('feff');
}

/** The kind a declared MimeType stands for; undefined for types we have no magic for. */
export function kindOfMimeType(mime: string): Kind | undefined {
  const type = mime.split(';')[0]!.trim().toLowerCase();
  if (type === 'application/pdf') return 'PDF';
  if (type === 'application/postscript' || type === 'application/eps' || type === 'image/eps' || type === 'image/x-eps') return 'PostScript';
  if (type === 'image/tiff') return 'TIFF';
  if (type === 'image/jpeg') return 'JPEG';
  if (type === 'image/png') return 'PNG';
  if (type === 'application/zip' || type.endsWith('+zip')) return 'ZIP';
  if (type === 'text/xml' || type === 'application/xml' || type.endsWith('+xml')) return 'XML';
  return undefined;
}

/** The kind the first bytes show, or undefined. */
export function kindOfBytes(head: Buffer): Kind | undefined {
  if (head.length < 4) return head.length > 0 && isXml(head) ? 'XML' : undefined;
  return MAGIC.find((m) => m.test(head))?.kind;
}

async function head(handle: FileHandle, bytes = 1024): Promise<Buffer> {
  const buffer = Buffer.alloc(bytes);
  const { bytesRead } = await handle.read(buffer, 0, bytes, 0);
  return buffer.subarray(0, bytesRead);
}

/** The MD5 of every byte of an open file, read from its start in 1 MiB chunks. */
async function md5(handle: FileHandle): Promise<string> {
  const hash = createHash('md5');
  const buffer = Buffer.allocUnsafe(1024 * 1024);
  for (let at = 0; ; ) {
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, at);
    if (bytesRead === 0) return hash.digest('hex');
    hash.update(buffer.subarray(0, bytesRead));
    at += bytesRead;
  }
}

type Found = { code: RuleCode; args: Record<string, string> };

async function compare(ref: TicketReference, file: CheckedFile, options: IntegrityOptions): Promise<Found[]> {
  const opened = await openCheckedFile(file);
  if ('changed' in opened) return file.root ? [changedOutsideRoot()] : [];
  try {
    return contentFindings(ref.fileSpec!, await gather(ref.fileSpec!, opened.handle, opened.size, file.path, options));
  } finally {
    await opened.handle.close();
  }
}

/** The facts contentFindings needs of the open file: only those the FileSpec's declared values ask for. */
async function gather(declared: DeclaredContent, handle: FileHandle, size: number, path: string, options: IntegrityOptions): Promise<ContentFacts> {
  const facts: ContentFacts = { path, size };
  const declaredKind = declared.MimeType !== undefined ? kindOfMimeType(declared.MimeType) : undefined;
  if (declaredKind !== undefined) facts.kind = { declared: declaredKind, actual: kindOfBytes(await head(handle)) };
  if ((declared.NPage !== undefined || declared.Pages !== undefined) && (declaredKind ?? kindOfBytes(await head(handle))) === 'PDF') {
    const count = await pdfPageCount(handle);
    if (count !== undefined) facts.pages = count;
    else if (!(await pdfjsInstalled())) facts.pages = 'no-pdfjs';
  }
  if (options.verifyChecksums && declared.CheckSum !== undefined) facts.md5 = await md5(handle);
  return facts;
}

/** Adds the integrity findings to the references whose file the look found a regular file (checkLocalFiles). */
export async function checkIntegrity(ticket: TicketReport, options: IntegrityOptions): Promise<void> {
  const profile = options.profile ?? 'jdf';
  const fileCodes = new Set(['file-missing', 'case-mismatch', 'not-a-file', 'file-unreadable', 'outside-root', 'not-checked', 'not-a-local-path', 'not-in-machine-view', 'remote-not-checked']);
  const done = new Map<string, Promise<Found[]>>();
  for (const ref of ticket.references) {
    if (!ref.fileSpec || ref.resolved === null || ref.findings.some((f) => fileCodes.has(f.code))) continue;
    const file = checkedFileOf(ref);
    if (file === undefined) continue;
    const key = `${file.path}\u0000${JSON.stringify(ref.fileSpec)}`;
    if (!done.has(key)) done.set(key, compare(ref, file, options).catch(() => []));
    for (const found of await done.get(key)!) {
      ref.findings.push(createFinding(found.code, found.args, { profile, at: ref }));
    }
  }
}
