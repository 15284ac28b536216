// What a Windows consumer opens for a file URL, and whether every reading of a value that names a file names the
// same Windows one: the test a fix of a Windows path written with backslashes, escaped backslashes or the scheme
// twice passes (src/ticket/fix-decision.ts), where no reading of the value as written is the fixed URL itself.
import { decodeSegment } from '../escape/percent.js';
import { AUTHORITY, parseAuthority, PATH, PATH_END, referenceBounds } from '../uri/parse.js';
import { asciiDecoded, isUtf8 } from './ascii-escapes.js';

/** A character Windows forbids in a server or share name (and ":" marks a drive, never a share). */
const NOT_IN_SHARE = /[:*?"<>|]/;

/**
 * The Windows path a file URL names, case-folded as Windows compares names (`c:\jobs\a.pdf`, `\\server\share\a.pdf`):
 * host and path percent-decoded in `charset` (the ticket's, JDF appendix section 3), every "/" and "\" a
 * separator, a host the UNC server (RFC 8089 E.3.1), a path that starts with "//" a UNC string (E.3.2) and one
 * that starts with a drive letter that drive (E.2), "." and ".." removed, a trailing separator dropped. `undefined`
 * where the URL names a file that is no Windows path (a POSIX path); null where it names no file at all: another
 * scheme, a query or fragment, user information or a port (a file URL has neither), octets invalid in `charset`,
 * a server or share name Windows forbids.
 */
export function windowsTarget(uri: string, charset = 'utf-8'): string | null | undefined {
  // RFC 3986 3.1: the scheme is "file" exactly where the URI starts with it and ":" (none of "/?#" can come first).
  if (!FILE_SCHEME.test(uri)) return null;
  // The components' bounds, not parseReference's object. A path ends before the end only at a query or fragment.
  const b = referenceBounds(uri);
  if (b[PATH_END] !== uri.length) return null;
  const rawPath = uri.slice(b[PATH]);
  const authority = b[AUTHORITY]!;
  let host = '';
  if (authority !== -1 && authority < b[PATH]!) {
    const parts = parseAuthority(uri.slice(authority, b[PATH]));
    if (parts.userinfo !== undefined || parts.port !== undefined) return null;
    const decoded = decodeSegment(parts.host, charset);
    if (!decoded.valid) return null;
    host = decoded.text.toLowerCase() === 'localhost' ? '' : decoded.text;
  }
  // Every "/" and "\\" is a separator, a decoded "%2F" too: the path decoded, "/" between its segments.
  const decoded = decodedPath(rawPath, charset);
  if (decoded === null) return null;
  const path = (host !== '' ? '\\\\' + host : '') + decoded;
  const unc = isSeparator(path.charCodeAt(0)) && isSeparator(path.charCodeAt(1));
  const kept = namesOf(path);
  if (unc) {
    if (kept.length < 2 || NOT_IN_SHARE.test(kept[0]!) || NOT_IN_SHARE.test(kept[1]!)) return null;
    return `\\\\${kept.join('\\')}`.toLowerCase();
  }
  if (!isDrive(kept[0])) return undefined;
  // The drive, ":\\" and the other names joined by "\\" (a regular expression and an array's join cost more).
  let out = kept[0]![0] + ':\\';
  for (let i = 1; i < kept.length; i++) out += i === 1 ? kept[i] : '\\' + kept[i];
  return out.toLowerCase();
}

/** A drive: an ASCII letter and ":" or "|" (RFC 8089 E.2, E.2.2), nothing more. */
function isDrive(name: string | undefined): boolean {
  if (name === undefined || name.length !== 2) return false;
  const letter = name.charCodeAt(0) | 0x20;
  const mark = name.charCodeAt(1);
  return letter >= 0x61 && letter <= 0x7a && (mark === 0x3a || mark === 0x7c);
}

const FILE_SCHEME = /^file:/i;

/** Each segment of `path` percent-decoded in `charset`, joined by "/"; null where one holds octets invalid there. */
function decodedPath(path: string, charset: string): string | null {
  if (path.indexOf('%') === -1) return path; // each segment decodes to itself
  const ascii = isUtf8(charset) ? asciiDecoded(path, false) : undefined;
  if (ascii !== undefined) return ascii;
  const texts: string[] = [];
  for (const segment of path.split('/')) {
    const s = decodeSegment(segment, charset);
    if (!s.valid) return null;
    texts.push(s.text);
  }
  return texts.join('/');
}

const isSeparator = (c: number): boolean => c === 0x2f || c === 0x5c; // "/" "\\"

/**
 * The names of `path` between its separators ("/" and "\\"), but empty ones, with "." dropped and each ".."
 * removing the name before it (never the first, the server or drive).
 */
function namesOf(path: string): string[] {
  const out: string[] = [];
  for (let start = 0, i = 0; i <= path.length; i++) {
    if (i < path.length && !isSeparator(path.charCodeAt(i))) continue;
    const n = path.slice(start, i);
    start = i + 1;
    if (n === '' || n === '.') continue;
    if (n === '..') {
      if (out.length > 1) out.pop();
      continue;
    }
    out.push(n);
  }
  return out;
}

/**
 * The Windows path every one of the `readings` (each with the charset of its escapes) that names a file names, when at least one does and all of them agree
 * on it; otherwise null (one reading names another Windows file, or a file that is no Windows path). A reading
 * that names no file (null, another scheme, a port) has nothing to disagree with.
 */
export function windowsAgreement(readings: WindowsReadings): string | null {
  let agreed: string | null = null;
  for (let k = 0; k < readings.count; k++) {
    const href = readings.hrefOf(k);
    if (href === null) continue;
    const charset = readings.charsetOf(k);
    // A reading alike an earlier one (same href and charset) names what it names: counted already.
    if (readAlready(readings, k, href, charset)) continue;
    const target = windowsTarget(href, charset);
    if (target === null) continue;
    if (target === undefined || (agreed !== null && target !== agreed)) return null;
    agreed = target;
  }
  return agreed;
}

/** Whether a reading before `k` has the same href in the same charset. */
function readAlready(readings: WindowsReadings, k: number, href: string, charset: string): boolean {
  for (let j = 0; j < k; j++) if (readings.hrefOf(j) === href && readings.charsetOf(j) === charset) return true;
  return false;
}

/** What windowsAgreement compares: `count` readings, each an href (null: none) and the charset of its escapes. */
export interface WindowsReadings {
  readonly count: number;
  hrefOf(k: number): string | null;
  charsetOf(k: number): string;
}

/**
 * The value a scheme written twice stands for ("file://file:/c:/a.pdf" is "file:/c:/a.pdf", a tool that wrote
 * "file://" before a URL): the reading of a consumer that takes the inner URL. Null for any other value.
 */
export function innerOfDoubledScheme(value: string): string | null {
  const m = /^([A-Za-z][A-Za-z0-9+.-]*):\/\/([A-Za-z][A-Za-z0-9+.-]*:.*)$/s.exec(value);
  return m !== null && m[1]!.toLowerCase() === m[2]!.slice(0, m[2]!.indexOf(':')).toLowerCase() ? m[2]! : null;
}
