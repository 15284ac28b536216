// What an input is from its first bytes: a zip, a MIME package, or neither (a plain ticket). Read as bytes, not
// as a string made of them: every ticket a batch reads is asked this, and making the string of its first 16 KiB
// took a tenth of the CLI's time.
import { isZip } from './magic-zip.js';

export type PackageKind = 'mime' | 'zip';

/** How far into the input a package's header is looked for. */
const HEAD = 16 * 1024;
const [CR, LF, TAB, SPACE, COLON, DASH] = [0x0d, 0x0a, 0x09, 0x20, 0x3a, 0x2d];
const CONTENT_TYPE = bytesOf('content-type:');
const MULTIPART = bytesOf('multipart/');
const MIME_VERSION = bytesOf('mime-version:');

/** What the first bytes of an input are: a zip, a MIME package, or neither (a plain ticket). */
export function detectPackage(head: Uint8Array): PackageKind | null {
  if (isZip(head)) return 'zip';
  const end = Math.min(head.length, HEAD);
  // RFC 5322 2.2: a header is field lines; a package header names a multipart Content-Type or MIME-Version.
  if (fieldName(head, 0, end) !== -1 && namesMultipart(head, headerEnd(head, end))) return 'mime';
  // RFC 2046 5.1.1: a body that starts with its first boundary line, a field line after it.
  if (startsWithBoundary(head, end)) return 'mime';
  return null;
}

/** The end of the field name and colon at `i` (RFC 5322 3.6.8: ftext is %d33-57 / %d59-126), or -1. */
function fieldName(b: Uint8Array, i: number, end: number): number {
  let k = i;
  while (k < end && b[k]! >= 0x21 && b[k]! <= 0x7e && b[k] !== COLON) k++;
  return k > i && k < end && b[k] === COLON ? k + 1 : -1;
}

/** Where the header ends: at the first empty line (CRLF or LF line ends), or at `end`. */
function headerEnd(b: Uint8Array, end: number): number {
  for (let i = b.indexOf(LF); i !== -1 && i < end; i = b.indexOf(LF, i + 1)) {
    const next = b[i + 1] === CR ? i + 2 : i + 1;
    if (next < end && b[next] === LF) return i > 0 && b[i - 1] === CR ? i - 1 : i;
  }
  return end;
}

/** Whether a line of the header (a line starts after CR or LF) is a multipart Content-Type or a MIME-Version. */
function namesMultipart(b: Uint8Array, end: number): boolean {
  for (let i = 0; i < end; i++) {
    if (i > 0 && b[i - 1] !== CR && b[i - 1] !== LF) continue;
    if (startsWithIgnoringCase(b, i, end, MIME_VERSION)) return true;
    if (!startsWithIgnoringCase(b, i, end, CONTENT_TYPE)) continue;
    let k = i + CONTENT_TYPE.length;
    while (k < end && (b[k] === SPACE || b[k] === TAB)) k++;
    if (startsWithIgnoringCase(b, k, end, MULTIPART)) return true;
  }
  return false;
}

/** "--", a boundary of 1 to 70 of RFC 2046's bchars but space, optional blanks, a line end, then a field name. */
function startsWithBoundary(b: Uint8Array, end: number): boolean {
  if (end < 2 || b[0] !== DASH || b[1] !== DASH) return false;
  let k = 2;
  while (k < end && isBoundaryChar(b[k]!)) k++;
  if (k === 2 || k - 2 > 70) return false;
  while (k < end && (b[k] === SPACE || b[k] === TAB)) k++;
  if (b[k] === CR) k++;
  if (k >= end || b[k] !== LF) return false;
  return fieldName(b, k + 1, end) !== -1;
}

/** RFC 2046 5.1.1 bcharsnospace: DIGIT / ALPHA / "'" / "(" / ")" / "+" / "_" / "," / "-" / "." / "/" / ":" / "=" / "?". */
function isBoundaryChar(c: number): boolean {
  return (c >= 0x30 && c <= 0x3a) || (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a) || (c >= 0x27 && c <= 0x29) || c === 0x2b || c === 0x5f || (c >= 0x2c && c <= 0x2f) || c === 0x3d || c === 0x3f;
}

/** Whether `b` holds `lower` (ASCII lower case) at `i`, before `end`, in either case. */
function startsWithIgnoringCase(b: Uint8Array, i: number, end: number, lower: Uint8Array): boolean {
  if (i + lower.length > end) return false;
  for (let k = 0; k < lower.length; k++) {
    const c = b[i + k]!;
    if ((c >= 0x41 && c <= 0x5a ? c + 0x20 : c) !== lower[k]) return false;
  }
  return true;
}

function bytesOf(ascii: string): Uint8Array {
  return Uint8Array.from(ascii, (c) => c.charCodeAt(0));
}
