// Values no URL rule can say anything about. Most references of a real ticket are plain relative paths, and so
// are many values a fix makes (pages\a.pdf fixed to pages/a.pdf, \\srv\share\a.pdf to file://srv/share/a.pdf).
import { isWindowsDriveAt } from '../fileurl/drive.js';
import { isWindowsReservedName } from '../rules/segments.js';
import type { CheckOptions } from '../rules/types.js';
import { MAX_URL_LENGTH } from '../rules/url-length.js';
import { hexValue } from '../uri/chars.js';
import { mergePrefixOf } from '../uri/resolve.js';

// Characters after which no rule can fire in a path: the appendix's fsegment characters and "/", without ":"
// (scheme, Table 6), "%" (escapes, but see isPlainPath), "@" (which a masked password needs) and "$" (a
// template's placeholder, $$NAME$$: template-placeholder).
const PLAIN = new Uint8Array(128);
for (const ch of "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.!*'()~+,&=/") PLAIN[ch.charCodeAt(0)] = 1;

// A host of RFC 3986 3.2.2 unreserved characters only: a reg-name no host rule reports.
const HOST = new Uint8Array(128);
for (const ch of 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~') HOST[ch.charCodeAt(0)] = 1;

/**
 * Whether value[from] starts an escape of a printable ASCII octet (%20-%7E, RFC 3986 2.1) other than "/" (%2F,
 * escaped-slash): what no character rule reports (the octet is not a control, nor above 127, so its charset and
 * UTF-8 do not matter). "%00" and "%2F" are signs of their own (facts.ts), so they are not plain.
 */
function isPlainEscapeAt(value: string, from: number): boolean {
  const hi = value.charCodeAt(from + 1);
  const lo = value.charCodeAt(from + 2);
  if (hi < 0x32 || hi > 0x37 || hexValue(lo) === -1) return false;
  return !(hi === 0x32 && (lo | 0x20) === 0x66) && !(hi === 0x37 && (lo | 0x20) === 0x66);
}

/**
 * Where a run of escapes (RFC 3986 2.1) starting at value[from] ends, when no rule reports on it; else -1. Each
 * octet below 128 must be plain (isPlainEscapeAt); those above 127 must decode as UTF-8 (appendix section 3) where
 * the ticket's encoding is UTF-8 (invalid-escaped-octets reads no other), as the scan's decoder reads them (facts.ts).
 */
function plainEscapesEnd(value: string, from: number, end: number, utf8: boolean): number {
  let needed = 0;
  let lower = 0x80;
  let upper = 0xbf;
  let i = from;
  for (; i + 2 < end && value.charCodeAt(i) === 0x25; i += 3) {
    const hi = hexValue(value.charCodeAt(i + 1));
    const lo = hexValue(value.charCodeAt(i + 2));
    if (hi === -1 || lo === -1) return -1;
    const b = hi * 16 + lo;
    if (b < 0x80) {
      if (needed > 0 || !isPlainEscapeAt(value, i)) return -1;
    } else if (!utf8) {
      continue;
    } else if (needed > 0) {
      if (b < lower || b > upper) return -1;
      [needed, lower, upper] = [needed - 1, 0x80, 0xbf];
    } else if (b >= 0xc2 && b <= 0xdf) needed = 1;
    else if (b >= 0xe0 && b <= 0xef) [needed, lower, upper] = [2, b === 0xe0 ? 0xa0 : 0x80, b === 0xed ? 0x9f : 0xbf];
    else if (b >= 0xf0 && b <= 0xf4) [needed, lower, upper] = [3, b === 0xf0 ? 0x90 : 0x80, b === 0xf4 ? 0x8f : 0xbf];
    else return -1;
  }
  return needed === 0 && i > from ? i : -1;
}

const isUtf8Label = (label: string | undefined): boolean => {
  const charset = (label ?? 'utf-8').toLowerCase();
  return charset === 'utf-8' || charset === 'utf8';
};

// The common case of isPlainPath in one regular expression (a native scan, where the loop below reads a character
// at a time): segments of the plain characters and escapes of printable ASCII octets but %2F (isPlainEscapeAt),
// none empty or starting with ".", a "/" perhaps at the end.
const CH = "[A-Za-z0-9\\-_!*'()~+,&=]";
const ESCAPE = '%(?:2[0-9A-Ea-e]|[3-6][0-9A-Fa-f]|7[0-9A-Ea-e])';
const SEGMENT = `(?:${CH}|${ESCAPE})(?:${CH}|\\.|${ESCAPE})*`;
const PLAIN_PATH = new RegExp(`${SEGMENT}(?:/${SEGMENT})*/?$`, 'y');

/**
 * Whether value[from, end) is plain segments: no segment empty or starting with ".", none Windows reserves there;
 * a "/" may end them (a folder).
 * Escapes no rule reports on (plainEscapesEnd: %20, what the unescaped-space fix writes, %C3%BC, what the non-ascii
 * fix writes, ...) are plain too, except for Windows, which drops a name's trailing space (windows-reserved-name
 * reads names decoded).
 */
function isPlainPath(value: string, from: number, options: CheckOptions, end = value.length): boolean {
  if (from >= end || value.charCodeAt(from) === 0x2f) return false;
  const windows = options.platform === 'windows';
  if (!windows && end === value.length) {
    PLAIN_PATH.lastIndex = from;
    if (PLAIN_PATH.test(value)) return true;
    if (value.indexOf('%', from) === -1) return false; // else the loop says, escapes above 127 and all
  }
  let before = 0x2f;
  for (let i = from; i < end; i++) {
    const c = value.charCodeAt(i);
    if (c === 0x25 && !windows) {
      const after = plainEscapesEnd(value, i, end, isUtf8Label(options.charset));
      if (after === -1) return false;
      i = after - 1;
      before = 0x30;
      continue;
    }
    if (c >= 128 || PLAIN[c] === 0) return false;
    if (before === 0x2f && (c === 0x2e || c === 0x2f)) return false; // a segment empty or starting with "."
    before = c;
  }
  return !windows || !value.slice(from, end).split('/').some(isWindowsReservedName);
}

/**
 * A relative path of plain segments, checked as a URL against a base that is its own merge prefix (ends in "/",
 * no query or fragment; RFC 3986 5.2.3): no rule can fire, and the target is the base followed by the value.
 */
export function isPlainRelative(value: string, options: CheckOptions): boolean {
  if (options.base === undefined || (options.role ?? 'url') !== 'url' || value.length > MAX_URL_LENGTH) return false;
  if (!isPlainPath(value, 0, options)) return false;
  const prefix = mergePrefixOf(options.base);
  return prefix !== undefined && prefix === options.base && prefix.indexOf('@') === -1;
}

/**
 * Whether no rule can report on the value, checked as a URL: a plain relative path as above, file:///c:/path (a
 * drive letter, RFC 8089 E.2), or file://host/path or //host/path with a plain host (not localhost), with plain
 * segments, against any base.
 */
export function isQuiet(value: string, options: CheckOptions): boolean {
  if (isFileSchemeSlashes(value)) return quietFileUrlHost(value, options) !== -1;
  if (!value.startsWith('//')) return isPlainRelative(value, options);
  return (options.role ?? 'url') === 'url' && value.length <= MAX_URL_LENGTH && plainHostPathAt(value, 2, options) !== -1;
}

/** Whether the value starts with "file://", the scheme in any case (RFC 3986 3.1: schemes are case-insensitive). */
export function isFileSchemeSlashes(value: string): boolean {
  // The length first: reading past the end of a short value (NaN) deoptimises the compiled code.
  return value.length >= 7 && (value.charCodeAt(0) | 0x20) === 0x66 && (value.charCodeAt(1) | 0x20) === 0x69 && (value.charCodeAt(2) | 0x20) === 0x6c
    && (value.charCodeAt(3) | 0x20) === 0x65 && value.startsWith('://', 4);
}

/**
 * Where the host of a file URL no rule can report on ends (file:///c:/path or file://host/path, as isQuiet
 * says), or -1 when a rule might report on it: its authority is value[7, end).
 */
export function quietFileUrlHost(value: string, options: CheckOptions): number {
  if (!isQuietAbsoluteRole(value, options) || !isFileSchemeSlashes(value)) return -1;
  if (value.startsWith('/', 7) && isWindowsDriveAt(value, 8) && value.startsWith('/', 10)) return isPlainPath(value, 11, options) ? 7 : -1;
  return plainHostPathAt(value, 7, options);
}

/**
 * Whether no rule of the value's role, nor the length rule, can report on an absolute URL: any as a URL, one that
 * ends in "/" as a Directory (appendix 2.2; directory-not-absolute reads only relative references).
 */
const isQuietAbsoluteRole = (value: string, options: CheckOptions): boolean =>
  value.length <= MAX_URL_LENGTH && (options.role === 'directory' ? value.endsWith('/') : true);

/** The schemes whose URLs quietWebUrlHost knows, each with "://". */
const WEB_SCHEMES = ['http://', 'https://', 'ftp://'];

/**
 * Where the authority of an http, https or ftp URL no rule can report on ends: a plain host (RFC 3986 3.2.2
 * unreserved characters: a reg-name, never a drive letter or a UNC string), an optional port of digits, then an
 * empty path, "/" or plain segments, and perhaps a plain query (only file URLs may not have one); else -1. Its
 * scheme is one the rules know and its host is not empty (scheme-syntax).
 */
export function quietWebUrlHost(value: string, options: CheckOptions): number {
  if (!isQuietAbsoluteRole(value, options)) return -1;
  const scheme = WEB_SCHEMES.find((s) => value.startsWith(s));
  if (scheme === undefined) return -1;
  let i = scheme.length;
  while (i < value.length && value.charCodeAt(i) < 128 && HOST[value.charCodeAt(i)] === 1) i++;
  if (i === scheme.length) return -1;
  const hostEnd = i < value.length && value.charCodeAt(i) === 0x3a ? portEnd(value, i + 1) : i;
  if (hostEnd === -1) return -1;
  let query = value.indexOf('?', hostEnd);
  if (query === -1) query = value.length;
  else if (options.role === 'directory' || !isPlainQuery(value, query + 1)) return -1; // a Directory's path ends in "/"
  if (hostEnd === query) return hostEnd; // RFC 3986 3.3: an empty path
  if (value.charCodeAt(hostEnd) !== 0x2f) return -1;
  return hostEnd + 1 === query || isPlainPath(value, hostEnd + 1, options, query) ? hostEnd : -1;
}

/** Where a port of one or more digits starting at `from` ends, or -1. */
function portEnd(value: string, from: number): number {
  let i = from;
  while (i < value.length && isDigit(value.charCodeAt(i))) i++;
  return i === from ? -1 : i;
}

/** A query of the plain characters, "?" and plain escapes, no "." after a "/" (a dot segment's sign). */
function isPlainQuery(value: string, from: number): boolean {
  for (let i = from; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if (c === 0x25 && isPlainEscapeAt(value, i)) i += 2;
    else if (c >= 128 || (PLAIN[c] === 0 && c !== 0x3f) || (c === 0x2e && value.charCodeAt(i - 1) === 0x2f)) return false;
  }
  return true;
}

const isDigit = (c: number): boolean => c >= 0x30 && c <= 0x39;

/** Where a plain host (not localhost) starting at `start` ends, when plain segments follow it; else -1. */
function plainHostPathAt(value: string, start: number, options: CheckOptions): number {
  const slash = value.indexOf('/', start);
  if (slash <= start) return -1;
  for (let i = start; i < slash; i++) {
    const c = value.charCodeAt(i);
    if (c >= 128 || HOST[c] === 0) return -1;
  }
  if (slash - start === 9 && value.slice(start, slash).toLowerCase() === 'localhost') return -1;
  return isPlainPath(value, slash + 1, options) ? slash : -1;
}
