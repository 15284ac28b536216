// Findings about job packages: MIME multipart/related (.mjm, .mjd) and zip. validatePackage reports them;
// they are here so the catalog, the docs and SARIF know them. MIME examples are whole packages, which the
// package tests read; zip examples are described in words (the tests build those zips).
import { isWindowsDriveAt } from '../fileurl/drive.js';
import { examples, sev } from './helpers.js';
import type { CatalogRule, RuleMeta, Severity } from './types.js';

type PackageRule = CatalogRule & { meta: RuleMeta & { scope: 'package' } };

function packageRule(meta: Omit<RuleMeta, 'scope' | 'examples' | 'fixable' | 'severity'> & { severity: Severity; flagged: string[]; clean: string[] }, message: CatalogRule['message']): PackageRule {
  const { flagged, clean, severity, ...rest } = meta;
  return {
    meta: { ...rest, scope: 'package', fixable: false, severity: sev(severity, severity, severity), examples: examples(flagged.map((value) => ({ value })), clean.map((value) => ({ value }))) },
    message,
  };
}

const JDF = (url: string) => `<JDF ID="n1" Type="Product" Version="1.4"><ResourcePool><RunList ID="RL1"><LayoutElement><FileSpec URL="${url}"/></LayoutElement></RunList></ResourcePool></JDF>`;
/** A MIME package: its header parameters, then parts as [headers, body]. */
export function mimeExample(params: string, parts: Array<[string, string]>, close = '--B--\n'): string {
  return `MIME-Version: 1.0\nContent-Type: multipart/related${params}\n\n` + parts.map(([h, b]) => `--B\n${h}\n\n${b}\n`).join('') + close;
}
const TICKET = 'Content-Type: application/vnd.cip4-jdf+xml\nContent-ID: <jdf@example.com>';
const PDF_PART: [string, string] = ['Content-Type: application/pdf\nContent-ID: <pdf@example.com>', '%PDF-1.7\n%%EOF'];
const OK = mimeExample('; boundary=B; type="application/vnd.cip4-jdf+xml"; start="<jdf@example.com>"', [[TICKET, JDF('cid:pdf@example.com')], PDF_PART]);

export const mimeBoundaryMissing = packageRule({
  code: 'mime-boundary-missing', title: 'No usable multipart boundary', spec: 'RFC 2046 5.1.1',
  description: 'A MIME package needs a multipart Content-Type with a boundary parameter, and that boundary must appear in the body. Without it no part can be found (the boundary of a first line "--..." is used when there is one).',
  severity: 'error', flagged: [OK.replace('; boundary=B', ''), OK.replace('boundary=B', 'boundary=C')], clean: [OK],
}, (a) => `The package's parts cannot be found: ${a.detail}. Give the Content-Type a boundary that delimits the parts.`);

export const mimeBoundaryInvalid = packageRule({
  code: 'mime-boundary-invalid', title: 'Boundary breaks the MIME syntax', spec: 'RFC 2046 5.1.1',
  description: "A boundary is 1 to 70 characters of digits, letters and '()+_,-./:=? (a space, but not at the end). Others are read as given, but strict consumers reject them.",
  severity: 'error', flagged: [OK.replace('boundary=B', `boundary="${'B'.repeat(71)}"`).replace(/--B/g, '--' + 'B'.repeat(71))], clean: [OK],
}, (a) => `The boundary "${a.boundary}" is not valid: ${a.problem}. Use at most 70 letters, digits or '()+_,-./:=?.`);

export const mimeUnclosed = packageRule({
  code: 'mime-unclosed', title: 'Package ends before its close delimiter', spec: 'RFC 2046 5.1.1',
  description: 'The last part must be followed by the close delimiter "--boundary--". Without it the package was cut off in transfer, and its last part may be incomplete.',
  severity: 'error', flagged: [OK.replace('--B--\n', '')], clean: [OK],
}, (a) => `The package ends without its close delimiter "--${a.boundary}--"; it was cut off, and the last part may be incomplete.`);

export const mimeUnknownEncoding = packageRule({
  code: 'mime-unknown-encoding', title: 'Unknown Content-Transfer-Encoding', spec: 'RFC 2045 6.1',
  description: 'Only 7bit, 8bit, binary, quoted-printable and base64 are defined; a part in another encoding is read as it stands.',
  severity: 'warning', flagged: [OK.replace('Content-Type: application/pdf', 'Content-Type: application/pdf\nContent-Transfer-Encoding: uuencode')], clean: [OK],
}, (a) => `The Content-Transfer-Encoding '${a.encoding}' is not defined by MIME; the part was read as it stands. Use base64 or binary.`);

export const mimeStartMissing = packageRule({
  code: 'mime-start-missing', title: 'multipart/related without start', spec: 'RFC 2387 3.2',
  description: 'Without a start parameter the root of a multipart/related package is its first part (RFC 2387 3.2), which is where the JDF specification puts the JDF or JMF. Naming it with start= makes the root explicit for consumers that look for it.',
  severity: 'info', flagged: [OK.replace('; start="<jdf@example.com>"', '')], clean: [OK],
}, () => 'The package has no start parameter, so its root is the first part; name it with start="<content-id>".');

export const mimeStartWrong = packageRule({
  code: 'mime-start-wrong', title: 'start names no part', spec: 'RFC 2387 3.2',
  description: 'The start parameter must be the Content-ID (with its angle brackets) of the root part. When it names no part, consumers disagree on the root (the first part is taken here).',
  severity: 'error', flagged: [OK.replace('start="<jdf@example.com>"', 'start="<ticket@example.com>"')], clean: [OK],
}, (a) => `start="${a.start}" names no part of the package; the first part is taken as the root. Set start to the root part's Content-ID.`);

export const cidNoPart = packageRule({
  code: 'cid-no-part', title: 'cid: URL names no part', spec: 'RFC 2392 2; JDF appendix 4.6',
  description: 'A cid: URL refers to the part whose Content-ID equals it after percent-decoding (RFC 2392 2). When no part has that Content-ID the file is missing from the package.',
  severity: 'error', flagged: [OK.replace('cid:pdf@example.com', 'cid:pdf2@example.com')], clean: [OK],
}, (a) => `No part of the package has the Content-ID <${a.id}>; add the part, or correct the cid: URL.`);

export const duplicateContentId = packageRule({
  code: 'duplicate-content-id', title: 'Two parts with one Content-ID', spec: 'RFC 2045 7; RFC 2392 2',
  description: 'Content-IDs must be unique; a cid: URL naming a Content-ID two parts share is ambiguous.',
  severity: 'error', flagged: [mimeExample('; boundary=B; start="<jdf@example.com>"', [[TICKET, JDF('cid:pdf@example.com')], PDF_PART, PDF_PART])], clean: [OK],
}, (a) => `The Content-ID <${a.id}> is already used by ${a.first}; give every part its own Content-ID.`);

export const partUnreferenced = packageRule({
  code: 'part-unreferenced', title: 'Part that nothing references', spec: 'RFC 2387 3.1',
  description: 'No ticket in the package refers to this part (by cid: or Content-Location), so no consumer will use it; it may be a leftover or the reference may be misspelled.',
  severity: 'info', flagged: [mimeExample('; boundary=B; start="<jdf@example.com>"', [[TICKET, JDF('http://example.com/a.pdf')], PDF_PART])], clean: [OK],
}, (a) => `Nothing in the package refers to ${a.part}; remove it, or refer to it.`);

export const contentTypeMismatch = packageRule({
  code: 'content-type-mismatch', title: "Part's bytes are not its declared type", spec: 'RFC 2045 5; ISO 32000-1 7.5.2',
  description: "The part's Content-Type (in a zip: its name's extension) says PDF, TIFF, JPEG or PNG, but its first bytes are not that format's signature. The consumer may reject or misread it.",
  severity: 'warning', flagged: [OK.replace('%PDF-1.7', 'GIF89a')], clean: [OK],
}, (a) => `${a.part} is declared ${a.declared} but its bytes ${a.actual === 'nothing we know' ? 'are not' : `are ${a.actual}, not`} ${a.declared}; correct its Content-Type or its content.`);

export const base64Truncated = packageRule({
  code: 'base64-truncated', title: 'base64 body cut off', spec: 'RFC 2045 6.8',
  description: 'A base64 body is a whole number of 4-character groups, the last padded with "="; one that ends mid-group was cut off and its last bytes are lost.',
  severity: 'error', flagged: [OK.replace('Content-Type: application/pdf', 'Content-Type: application/pdf\nContent-Transfer-Encoding: base64').replace('%PDF-1.7\n%%EOF', 'JVBERi0xLjcKJSVFT0')], clean: [OK.replace('Content-Type: application/pdf', 'Content-Type: application/pdf\nContent-Transfer-Encoding: base64').replace('%PDF-1.7\n%%EOF', 'JVBERi0xLjcKJSVFT0Y=')],
}, (a) => `The base64 body of ${a.part} ends in the middle of a group; it was cut off and its last bytes are lost.`);

export const base64InvalidChars = packageRule({
  code: 'base64-invalid-chars', title: 'base64 body holds other characters', spec: 'RFC 2045 6.8',
  description: 'Characters outside the base64 alphabet (other than line breaks) are ignored as RFC 2045 requires, but they mean the body was damaged or is not base64.',
  severity: 'warning', flagged: [OK.replace('Content-Type: application/pdf', 'Content-Type: application/pdf\nContent-Transfer-Encoding: base64').replace('%PDF-1.7\n%%EOF', 'JVBERi0x*LjcKJSVFT0Y=')], clean: [OK],
}, (a) => `The base64 body of ${a.part} holds characters outside the base64 alphabet; they were skipped. Encode the part again.`);

export const packageRootNotTicket = packageRule({
  code: 'package-root-not-ticket', title: 'Package root is not a ticket', spec: 'RFC 2387 3.2; JDF 1.x MIME packaging; XJDF 2.0 zip packaging',
  description: 'The root of a MIME package (its start part, else its first) and the top-level ticket of a zip package must be JDF, JMF, XJDF or XJMF; otherwise a device cannot tell what the job is.',
  severity: 'error', flagged: [mimeExample('; boundary=B', [PDF_PART, [TICKET, JDF('cid:pdf@example.com')]])], clean: [OK],
}, (a) => `The package's root ${a.part} is ${a.what}, not a JDF, JMF, XJDF or XJMF ticket; put the ticket first (or name it with start=).`);

export const packageLimit = packageRule({
  code: 'package-limit', title: 'Package past a limit', spec: 'jdf-filespec limits',
  description: 'Packages are read in bounded time and memory: a part header over 64 KiB, more than 10,000 parts or zip entries, a zip central directory over 16 MiB, a part over 2 GiB (encoded), a ticket part over --max-bytes, ticket parts and nested packages over 256 MiB in all (or --max-bytes, when larger), packages nested deeper than 3, a nested package over 64 MiB. Reading stops at the limit and says so; what is not read is named.',
  severity: 'error', flagged: [OK.replace('Content-Type: application/pdf', 'Content-Type: application/pdf\nX-Pad: ' + 'x'.repeat(70 * 1024))], clean: [OK],
}, (a) => `Not read further: ${a.what}.`);

export const packageUnreadable = packageRule({
  code: 'package-unreadable', title: 'Package input failed while read', spec: 'jdf-filespec',
  description: 'The stream or random-access source the package came in failed (a read error, a file removed, a connection dropped) or gave text instead of bytes. What was read is not reported; read it again.',
  severity: 'error', flagged: ['a stream that fails with EIO halfway through the package'], clean: [OK],
}, (a) => `The package could not be read: ${a.detail}.`);

export const zipSlip = packageRule({
  code: 'zip-slip', title: 'Zip entry name escapes the folder', spec: 'APPNOTE 4.4.17; RFC 8089 5',
  description: "An entry name must be a relative path with '/' separators. One holding a '..' segment, a drive letter or a leading '/' or '\\' would be written outside the folder it is extracted to (zip slip); unpack refuses it.",
  severity: 'error', flagged: ['a zip with an entry named ../../etc/cron.d/job'], clean: ['a zip with an entry named content/book.pdf'],
}, (a) => `The entry name '${a.name}' is unsafe: ${a.problem}; it would be extracted outside the target folder. Rename it to a relative path.`);

export const zipBomb = packageRule({
  code: 'zip-bomb', title: 'Zip would inflate past the limits', spec: 'jdf-filespec limits; APPNOTE 4.4.8-9',
  description: 'An entry over 1 MiB that inflates more than 100 to 1, entries that add up to more than 16 GiB, entries that share compressed data, or an entry that inflates past its declared size: each is how a zip bomb exhausts a consumer. Such entries are not inflated.',
  severity: 'error', flagged: ['a zip whose 10 KiB entry inflates to 10 GiB'], clean: ['a zip of PDFs and an XJDF'],
}, (a) => `This zip looks like a bomb: ${a.detail}. It was not inflated.`);

export const zipMalformed = packageRule({
  code: 'zip-malformed', title: 'Zip cannot be read', spec: 'APPNOTE 4.3',
  description: 'The zip structure is damaged or uses what is not read here (spanning, encryption, compression other than stored and deflate).',
  severity: 'error', flagged: ['a zip cut off before its central directory'], clean: ['a zip of PDFs and an XJDF'],
}, (a) => `The zip cannot be read: ${a.detail}.`);

export const packageRules: PackageRule[] = [
  mimeBoundaryMissing, mimeBoundaryInvalid, mimeUnclosed, mimeUnknownEncoding, mimeStartMissing, mimeStartWrong,
  cidNoPart, duplicateContentId, partUnreferenced, contentTypeMismatch, base64Truncated, base64InvalidChars,
  packageRootNotTicket, packageLimit, packageUnreadable, zipSlip, zipBomb, zipMalformed,
];

/** What the zip reader read of one central directory entry (APPNOTE 4.3.12): what the zip rules judge. */
export interface ZipEntryFacts {
  name: string;
  flags: number;
  method: number;
  compressedSize: number;
  size: number;
  localOffset: number;
  isDirectory: boolean;
}

export interface ZipEntryProblem {
  code: 'zip-malformed' | 'zip-slip' | 'zip-bomb';
  args: Record<string, string | number>;
  entry?: string;
}

/** APPNOTE 4.4.17 says names are relative with "/"; an entry that climbs out, or is absolute, is a zip slip. */
export function slipProblem(name: string): string | null {
  if (name.includes('\u0000')) return 'it holds a NUL character';
  if (/^[/\\]/.test(name)) return `it starts with '${name[0]}'`;
  if (isWindowsDriveAt(name)) return 'it starts with a drive letter';
  if (name.split(/[/\\]/).some((s) => s === '..')) return "it holds a '..' segment";
  return null;
}

/** The zip rules over what the reader read of the entries (src/package/zip.ts): slip, malformed, bomb. */
export function zipEntryProblems(entries: readonly ZipEntryFacts[], fileSize: number, lim: { maxRatio: number; maxTotalBytes: number }): ZipEntryProblem[] {
  const problems: ZipEntryProblem[] = [];
  let total = 0;
  for (const e of entries) {
    const slip = slipProblem(e.name);
    if (slip) problems.push({ code: 'zip-slip', args: { name: e.name, problem: slip }, entry: e.name });
    if (e.flags & 1) problems.push({ code: 'zip-malformed', args: { detail: `the entry '${e.name}' is encrypted and cannot be read` }, entry: e.name });
    else if (e.method !== 0 && e.method !== 8 && !e.isDirectory) problems.push({ code: 'zip-malformed', args: { detail: `the entry '${e.name}' uses compression method ${e.method}; only stored (0) and deflate (8) are read` }, entry: e.name });
    if (e.localOffset + 30 + e.compressedSize > fileSize) problems.push({ code: 'zip-malformed', args: { detail: `the data of '${e.name}' lies outside the file` }, entry: e.name });
    total += e.size;
    if (e.size > 1024 * 1024 && e.size > lim.maxRatio * Math.max(1, e.compressedSize)) {
      problems.push({ code: 'zip-bomb', args: { detail: `'${e.name}' would inflate ${e.compressedSize} bytes to ${e.size} (more than ${lim.maxRatio} to 1)` }, entry: e.name });
    }
  }
  if (total > lim.maxTotalBytes) problems.push({ code: 'zip-bomb', args: { detail: `the entries would inflate to ${total} bytes, more than ${lim.maxTotalBytes}` } });
  // Overlapping entries (one compressed stream shared by many names) are how the smallest bombs are built.
  const sorted = [...entries].sort((a, b) => a.localOffset - b.localOffset);
  for (let k = 1; k < sorted.length; k++) {
    const prev = sorted[k - 1]!;
    if (sorted[k]!.localOffset < prev.localOffset + 30 + prev.compressedSize) {
      problems.push({ code: 'zip-bomb', args: { detail: `the entries '${prev.name}' and '${sorted[k]!.name}' overlap in the file` }, entry: sorted[k]!.name });
      break;
    }
  }
  return problems;
}
