// validate --check-exists: what each FileSpec declares (FileSize, MimeType, CheckSum) against the file's bytes.
// The MD5 is streamed, and only with --verify-checksums: it reads every byte of every file.
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { open, stat } from 'node:fs/promises';
import type { RuleCode } from '../rules/codes.js';
import { createFinding } from '../rules/finding.js';
import type { Profile } from '../rules/types.js';
import type { TicketReference, TicketReport } from '../ticket/validate.js';
import type { ViewTable } from '../views/types.js';
import { localCandidates } from './locate.js';
import { pdfPageCount, rangesFit } from './pdf-pages.js';

export interface IntegrityOptions {
  verifyChecksums?: boolean;
  views?: ViewTable;
  documentUri?: string;
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

async function head(file: string, bytes = 1024): Promise<Buffer> {
  const handle = await open(file, 'r');
  try {
    const buffer = Buffer.alloc(bytes);
    const { bytesRead } = await handle.read(buffer, 0, bytes, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

export function md5(file: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const hash = createHash('md5');
    createReadStream(file).on('data', (chunk) => hash.update(chunk)).on('error', reject).on('end', () => resolve(hash.digest('hex')));
  });
}

async function compare(ref: TicketReference, file: string, options: IntegrityOptions): Promise<Array<{ code: string; args: Record<string, string> }>> {
  const facts = ref.fileSpec!;
  const out: Array<{ code: string; args: Record<string, string> }> = [];
  const info = await stat(file);
  if (!info.isFile()) return out;
  if (facts.FileSize !== undefined && /^\d+$/.test(facts.FileSize) && BigInt(facts.FileSize) !== BigInt(info.size)) {
    out.push({ code: 'file-size-mismatch', args: { declared: facts.FileSize, actual: String(info.size), path: file } });
  }
  const declaredKind = facts.MimeType !== undefined ? kindOfMimeType(facts.MimeType) : undefined;
  if (declaredKind !== undefined) {
    const actual = kindOfBytes(await head(file));
    if (actual !== declaredKind) out.push({ code: 'mime-type-mismatch', args: { declared: facts.MimeType!, actual: actual ?? 'none of PDF, PostScript, TIFF, JPEG, PNG, ZIP, XML', path: file } });
  }
  if ((facts.NPage !== undefined || facts.Pages !== undefined) && (declaredKind ?? kindOfBytes(await head(file))) === 'PDF') {
    const count = await pdfPageCount(file);
    if (count !== undefined) {
      if (facts.Pages !== undefined && rangesFit(facts.Pages, count) === false) out.push({ code: 'page-count-mismatch', args: { what: 'RunList/@Pages', declared: facts.Pages, actual: String(count), path: file } });
      else if (facts.Pages === undefined && /^\d+$/.test(facts.NPage!) && Number(facts.NPage) !== count) out.push({ code: 'page-count-mismatch', args: { what: 'RunList/@NPage', declared: facts.NPage!, actual: String(count), path: file } });
    }
  }
  if (options.verifyChecksums && facts.CheckSum !== undefined) {
    const actual = await md5(file);
    if (actual !== facts.CheckSum.toLowerCase()) out.push({ code: 'checksum-mismatch', args: { declared: facts.CheckSum, actual, path: file } });
  }
  return out;
}

/** Adds the integrity findings to the references whose file is present (no file finding already). */
export async function checkIntegrity(ticket: TicketReport, options: IntegrityOptions): Promise<void> {
  const profile = options.profile ?? 'jdf';
  const fileCodes = new Set(['file-missing', 'case-mismatch', 'not-a-file', 'file-unreadable', 'outside-root', 'not-checked', 'not-a-local-path', 'not-in-machine-view', 'remote-not-checked']);
  const done = new Map<string, Promise<Array<{ code: string; args: Record<string, string> }>>>();
  for (const ref of ticket.references) {
    if (!ref.fileSpec || ref.resolved === null || ref.findings.some((f) => fileCodes.has(f.code))) continue;
    const file = ref.mappedBy?.path ?? localCandidates(ref.resolved, options)[0];
    if (file === undefined) continue;
    const key = `${file}\u0000${JSON.stringify(ref.fileSpec)}`;
    if (!done.has(key)) done.set(key, compare(ref, file, options).catch(() => []));
    for (const found of await done.get(key)!) {
      ref.findings.push(createFinding(found.code as RuleCode, found.args, { profile, at: ref }));
    }
  }
}
