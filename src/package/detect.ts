// What an input is from its first bytes: a zip, a MIME package, or neither (a plain ticket).
import { latin1 } from './bytes.js';
import { isZip } from './magic-zip.js';

export type PackageKind = 'mime' | 'zip';

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
