// How different consumers would resolve the same reference, and whether they would open the same file.
import { decodeSegment } from '../escape/percent.js';
import { asciiDecoded, isUtf8 } from './ascii-escapes.js';
import { foldDriveSegment as foldDrive, isWindowsDriveAt } from '../fileurl/drive.js';
import { hostOf } from '../fileurl/locality.js';
import { AUTHORITY, PATH, PATH_END, referenceBounds, SCHEME_END } from '../uri/parse.js';
import { hasDotSegment } from '../uri/dot-segments.js';
import { removeDotSegments, resolveReference } from '../uri/resolve.js';
import type { Reading } from '../rules/ticket-view.js';
import type { ReadingsShelf } from './readings-shelf.js';
import { boundedMemo } from '../util/bounded-memo.js';
import { agreesAsNetworkPath } from './network-path-reading.js';
import { innerOfDoubledScheme } from './windows-reading.js';
import { whatwgHref } from './whatwg-reading.js';

export type { Reading };

/**
 * Cheap test first, so most references skip the work: sound, never false where the readings name different files
 * (the tests hold it to comparing every reading). A name of the shape every consumer reads alike (SAFE_NAME) can
 * only disagree where plain names under the base do (worked out once per base); any other value is resolved every
 * way.
 */
export function mayDisagree(value: string, base: string): boolean {
  if (!SAFE_NAME.test(value)) return true;
  return plainReadings[1]!(base)?.differ ?? true;
}

// A relative name that each consumer takes as its own reading of the base's folder followed by the name, up to
// escapes that a file system decodes: segments of one or more characters that none of them treats as special,
// apart only by single "/", none starting with "." or "%2e" (no dot segment, written or escaped), no space at
// either end (WHATWG strips it). Left out, so worked out every way: ":" (a scheme, JDFLibJ's test for one), "?"
// and "#" (JDFLibJ keeps them in the path), "\" and "|" (WHATWG's separator and drive letter), control
// characters (WHATWG drops tabs and line breaks), surrogates (WHATWG writes a lone one as U+FFFD), an empty segment
// or a trailing "/" (JDFLibJ drops them).
const SAFE_SEGMENT = /(?!\.|%2e)[-\w.~!$&'()*+,;=@%"<>^`{}[\] \u0080-\ud7ff\ue000-\uffff]+/.source;
const SAFE_NAME = new RegExp(`^(?! )${SAFE_SEGMENT}(?:/${SAFE_SEGMENT})*(?<! )$`, 'i');

/**
 * The "string join" reading: what CIP4's JDF library for Java does with RunList/@Directory and FileSpec/@URL
 * (JDFLibJ, UrlUtil.getURLWithDirectory and cleanDots, used by JDFRunList.getFileURL). Not RFC 3986:
 * - a URL with a scheme (a ':' before any '/') is taken as it is;
 * - a URL starting with '/' keeps only the Directory's scheme: "/abs/x.pdf" becomes "file:" + "//abs/x.pdf",
 *   so its first segment turns into a host (against file://host/dir, file://abs/x.pdf), and "//h/x" becomes
 *   "file://h/x";
 * - otherwise Directory + '/' + URL, the '/' added only when the Directory lacks it;
 * - then, after the "//" (or "///") that ends the scheme part, empty and '.' segments are dropped and each '..'
 *   removes the nearest segment before it that is not '..', the host included; a trailing '/' is lost.
 */
export function stringJoin(base: string, value: string): string {
  let directory = base;
  let url = value;
  if (directory === '') return url;
  const colon = url.indexOf(':');
  const slash = url.indexOf('/');
  if (colon > 0 && (slash < 0 || slash > colon)) return url;
  if (url.startsWith('/')) {
    // java.net.URI: a directory it cannot parse (a space, a backslash) is left whole.
    const scheme = /^([A-Za-z][A-Za-z0-9+.-]*):/.exec(directory);
    if (scheme !== null && !/[\s\\"<>{}|^`\u0000-\u001f]/.test(directory)) {
      directory = scheme[1] + ':';
      if (!url.startsWith('//')) url = '/' + url;
    }
  }
  if (!directory.endsWith('/') && !url.startsWith('/')) directory += '/';
  return cleanDots(directory + url);
}

/** JDFLibJ's UrlUtil.cleanDots, step for step (see stringJoin), in linear time. */
function cleanDots(input: string): string {
  let start = 0;
  while (input.length - start > 2 && input.startsWith('./', start)) start += 2;
  let url = input.slice(start);
  const posDouble = url.indexOf('//');
  const prefixLength = posDouble === url.indexOf('///') ? 3 : 2;
  let prefix = url.startsWith('/') ? '/' : '';
  if (posDouble >= 0) {
    prefix = url.slice(0, posDouble + prefixLength);
    url = url.slice(posDouble + prefixLength);
  }
  // Tokens all non-empty and none "." or "..": they are kept as they are, joined as they were.
  if (url !== '' && url.indexOf('//') === -1 && url.charCodeAt(0) !== 0x2f && url.charCodeAt(url.length - 1) !== 0x2f && !hasDotSegment(url)) return prefix + url;
  // java.util.StringTokenizer: consecutive '/' are one delimiter, no empty tokens. JDFLibJ then drops every
  // '.' but the first token.
  const vs: string[] = [];
  for (const t of url.split('/')) if (t !== '' && (vs.length === 0 || t !== '.')) vs.push(t);
  // Each '..', from the right, removes the nearest token before it that is not '..'. Scanning from the right
  // with a count of the '..' still open gives the same tokens: a token survives when no '..' is open, and
  // the '..' left open stand before every survivor.
  let kept = '';
  let open = 0;
  for (let i = vs.length - 1; i >= 0; i--) {
    const v = vs[i]!;
    if (v === '..') open++;
    else if (open > 0) open--;
    else kept = kept === '' ? v : `${v}/${kept}`;
  }
  const climbs = open === 0 ? '' : '../'.repeat(open).slice(0, -1);
  const out = climbs === '' || kept === '' ? climbs + kept : `${climbs}/${kept}`;
  return prefix + (out === '' ? '.' : out);
}

/**
 * What a file system would open: case-folded scheme and host, localhost as empty, decoded path segments, dots
 * removed, drive letter folded. Escaped octets are read in `charset`, the ticket's encoding (JDF appendix section 3).
 */
export function fileIdentity(uri: string, charset = 'utf-8'): string {
  identityParts(uri, charset);
  return `${IDENTITY[0]}://${IDENTITY[1]}${IDENTITY[2]}`;
}

/**
 * fileIdentity's three parts, scheme (lowercased, "" for none), host and path, left in IDENTITY (one table for
 * every call, as referenceBounds's) and not joined: names() (use-readings.ts) compares them as they are.
 */
export const IDENTITY: [scheme: string, host: string, path: string] = ['', '', ''];

export function identityParts(uri: string, charset: string): void {
  // The components' bounds, not parseReference's object: only the scheme, host and path are wanted.
  const b = referenceBounds(uri);
  const schemeEnd = b[SCHEME_END]!;
  const authority = b[AUTHORITY]!;
  let rawPath = uri.slice(b[PATH], b[PATH_END]);
  let host = authority !== -1 && authority < b[PATH]! ? hostOf(uri.slice(authority, b[PATH])) : '';
  if (host === 'localhost') host = '';
  const unc = host === '' && rawPath.startsWith('//') ? /^\/\/+([^/]+)(\/.*)?$/.exec(rawPath) : null;
  if (unc) {
    // RFC 8089 E.3.2: a UNC string in the path names that server
    host = unc[1]!.toLowerCase();
    rawPath = unc[2] ?? '';
  }
  let path = removeDotSegments(rawPath);
  // A segment without "%" decodes to itself, and holds no "/" to escape.
  if (path.indexOf('%') !== -1) path = (isUtf8(charset) ? asciiDecoded(path, true) : undefined) ?? path.split('/').map((segment) => decodedName(segment, charset)).join('/');
  // A drive already written "/c:" is its own fold.
  const lowerDrive = path.length > 2 && path.charCodeAt(2) === 0x3a && path.charCodeAt(1) >= 0x61 && path.charCodeAt(1) <= 0x7a; // no read out of bounds: a deopt
  IDENTITY[0] = schemeEnd === -1 ? '' : uri.slice(0, schemeEnd).toLowerCase();
  IDENTITY[1] = host;
  IDENTITY[2] = lowerDrive ? path : foldDrive(path);
}

/** A segment as the name it decodes to, a "/" in it escaped again (so it stays one segment). */
function decodedName(segment: string, charset: string): string {
  const text = (isUtf8(charset) ? asciiDecoded(segment, false) : undefined) ?? decodeSegment(segment, charset).text;
  return text.indexOf('/') === -1 ? text : text.replace(/\//g, '%2F');
}

/** Percent-decodes a URL's path whole, so that %2F becomes a separator: what a naive consumer opens. */
function decodedWhole(uri: string): string | null {
  try {
    const b = referenceBounds(uri);
    const schemeEnd = b[SCHEME_END]!;
    const authority = b[AUTHORITY]!;
    const raw = uri.slice(b[PATH], b[PATH_END]);
    // With a scheme, no query or fragment, and a path without "%" or " ", the reading is the URI itself: the same
    // string, so that names() (use-readings.ts) finds it alike the strict reading without comparing their text.
    if (schemeEnd !== -1 && b[PATH_END] === uri.length && raw.indexOf('%') === -1 && raw.indexOf(' ') === -1) return uri;
    const head = `${schemeEnd === -1 ? '' : uri.slice(0, schemeEnd)}:${authority !== -1 ? '//' + uri.slice(authority, b[PATH]) : ''}`;
    // Without "%" the path decodes to itself and holds no "%" to escape again.
    const path = raw.indexOf('%') === -1 ? raw : decodeURIComponent(raw).replace(/%/g, '%25');
    return `${head}${path.indexOf(' ') === -1 ? path : path.replace(/ /g, '%20')}`;
  } catch {
    return null;
  }
}

/**
 * A Windows path pasted as a URL ("c:\\x", "\\\\server\\share"), read as the path it is. None for a name no URL
 * can write (an unpaired surrogate, which encodeURIComponent refuses: a ticket given as a string may hold one).
 */
function windowsPathReading(value: string): string | null {
  try {
    return windowsPathUrl(value);
  } catch {
    return null;
  }
}

function windowsPathUrl(value: string): string | null {
  // A drive path holding a line break is not read (as the regular expression before drive.ts had it).
  const onDrive = isWindowsDriveAt(value) && (value[2] === '\\' || value[2] === '/') && !/[\n\r\u2028\u2029]/.test(value);
  if (onDrive) return `file:///${value[0]}:/${encode(value.slice(3))}`;
  const m = /^\\\\([^\\]+)\\(.*)$/.exec(value);
  return m ? `file://${m[1]}/${encode(m[2]!)}` : null;
}

/**
 * A Windows path's rest after its drive or share, each name escaped, "/" between them: escaped whole, then each
 * escaped separator ("%2F", "%5C") written "/" again (a "%" of the path is escaped to "%25", so none is one).
 */
const encode = (rest: string): string => (KEPT_BY_ENCODE.test(rest) ? rest.replace(/\\/g, '/') : encodeURIComponent(rest).replace(ESCAPED_SEPARATOR, '/'));
const ESCAPED_SEPARATOR = /%2F|%5C/g;

/** Names and separators only of characters encodeURIComponent leaves as they are (ECMA-262 uriUnreserved): each name is itself. */
const KEPT_BY_ENCODE = /^[A-Za-z0-9\-_.!~*'()\\/]*$/;

/** How many consumer readings there are (consumerHref), the first FILE_READINGS of them the files a fix may yield. */
export const CONSUMER_READINGS = 6;
export const FILE_READINGS = 5;

/**
 * Reading `k` of the URLs consumers would read `value` as: 0 strict RFC 3986 (`strict`, the value resolved), 1 a
 * naive decode of it, 2 WHATWG, 3 a Windows path, 4 a Directory string join (the files a fix may yield,
 * use-readings.ts); 5 the inner URL of a scheme written twice (for windowsAgreement, src/ticket/windows-reading.ts).
 * Null where that consumer reads none. Each is worked out alone, so a caller stops at the first it needs.
 */
export function consumerHref(k: number, value: string, base: string | null, withJoin: boolean, strict: string): string | null {
  switch (k) {
    case 0: return strict;
    case 1: return decodedWhole(strict);
    case 2: return base !== null ? whatwgHref(value, base) : whatwgHref(value, 'file:///');
    case 3: return windowsPathReading(value.trim());
    case 4: return withJoin && base !== null ? stringJoin(base, value) : null;
    default: return innerOfDoubledScheme(value.trim());
  }
}

/**
 * The charset the escapes of reading `k` are in: the ticket's, `charset` (JDF appendix section 3), but for the
 * WHATWG parser, which writes a raw character's as UTF-8, and whose reader (Node's fileURLToPath among them)
 * reads them so.
 */
export const consumerCharset = (k: number, charset: string): string => (k === 2 ? 'utf-8' : charset);

const DRIVE_PRESERVING = { drivePreserving: true } as const;

export function readings(value: string, base: string, withJoin: boolean): Reading[] {
  const strict = { consumer: 'strict RFC 3986', href: resolveReference(value, base) };
  const preserving = { consumer: 'RFC 8089 E.2.1', href: resolveReference(value, base, DRIVE_PRESERVING) };
  const parsed = { consumer: 'WHATWG URL', href: whatwgHref(value, base) };
  // One literal or the other, as long as it is: a pushed-to array holds room for 17.
  return withJoin ? [strict, preserving, parsed, { consumer: 'string join', href: stringJoin(base, value) }] : [strict, preserving, parsed];
}

/**
 * The readings, when at least two of them name different files; otherwise null. Equal hrefs are one file, so an
 * identity is worked out only for an href not seen yet, and the first that differs settles it.
 */
export function disagreement(value: string, base: string, withJoin: boolean, shelf?: ReadingsShelf): Reading[] | null {
  if (!mayDisagree(value, base)) return null;
  const list = readings(value, base, withJoin);
  shelf?.keep(value, base, withJoin, list);
  return splitsAtBackslash(value, list) ? list : differing(list);
}

const SPECIAL = /^(?:file|https?|ftp|wss?):/i;
/** A segment that starts with a dot, written or escaped, after "/", "\" or at the start: it may climb out of a name. */
const DOT_SEGMENT = /(?:^|[\\/])(?:\.|%2e)/i;

/**
 * A "\" in the path of the value: strict RFC 3986 keeps it in a name, the WHATWG parser of a special scheme
 * (file, http, ...) takes it for "/", so those two readings name different files, unless a dot segment removes
 * the name again (the tests hold this to differing's answer).
 */
function splitsAtBackslash(value: string, list: readonly Reading[]): boolean {
  const backslash = value.indexOf('\\');
  if (backslash === -1 || DOT_SEGMENT.test(value)) return false;
  const end = value.search(/[?#]/);
  if (end !== -1 && end < backslash) return false;
  const parsed = list[2]!.href;
  return parsed !== null && SPECIAL.test(parsed);
}

/** The list, when two of its readings name different files; otherwise null. */
export function differing(list: Reading[]): Reading[] | null {
  let first: string | undefined;
  let identity = '';
  const seen: string[] = [];
  for (const { href } of list) {
    if (href === null || seen.includes(href)) continue;
    seen.push(href);
    if (first === undefined) {
      first = href;
      identity = fileIdentity(href);
    } else if (fileIdentity(href) !== identity) {
      return list;
    }
  }
  return null;
}

// A plain name: RFC 3986 2.3 unreserved characters and "/", no segment empty or starting with "." (so no dot
// segment), not starting with "/". No consumer escapes, decodes, folds or drops anything of it: each reads it as
// its reading of the base's folder followed by the name.
const UNRESERVED_OR_SLASH = /^[A-Za-z0-9_~-][A-Za-z0-9._~-]*(?:\/[A-Za-z0-9_~-][A-Za-z0-9._~-]*)*$/;

/** What every plain name under one base comes to: each consumer's reading is its prefix followed by the name. */
interface PlainReadings {
  /** Each reading of a plain name, its href without the name (null: that consumer fails on every one). */
  prefixes: Reading[];
  /** Whether the readings of a plain name name different files. */
  differ: boolean;
}

/** Two unlike plain names; a base whose readings of both are not prefix + name gets no template. */
const PROBES = ['x', 'y-z/w~0.v'] as const;
/**
 * Names that must come to one file wherever the probes do, or the base gets no template: a SAFE_NAME with a
 * character of each kind WHATWG escapes and the others keep (a space, "{", non-ASCII, an escape), and names that
 * mean something as a host. Both tell a base that puts the name in the host (file://localhost/..// and its like),
 * where no consumer decodes and "localhost" is no name.
 */
const ALIKE_PROBES = ['a b{\u00fc%41/c', 'localhost', '1.2'] as const;

function plainReadingsOf(base: string, withJoin: boolean): PlainReadings | null {
  const [one, two] = PROBES.map((probe) => readings(probe, base, withJoin));
  const prefixes: Reading[] = [];
  for (let k = 0; k < one!.length; k++) {
    const a = one![k]!.href;
    const b = two![k]!.href;
    const prefix = a === null ? null : a.slice(0, -PROBES[0].length);
    if (a === null ? b !== null : !a.endsWith(PROBES[0]) || b !== prefix + PROBES[1]) return null;
    prefixes.push({ consumer: one![k]!.consumer, href: prefix });
  }
  const differ = differing(one!) !== null;
  if (differ !== (differing(two!) !== null)) return null;
  if (!differ && ALIKE_PROBES.some((probe) => differing(readings(probe, base, withJoin)) !== null)) return null;
  return { prefixes, differ };
}

const plainReadings = [false, true].map((withJoin) => boundedMemo((base: string) => plainReadingsOf(base, withJoin)));

/**
 * disagreement, with what it says of plain names worked out once per base: a ticket whose Directory lacks its
 * trailing "/" has every reference under it disagree, and each would be resolved four ways. A UNC path written
 * with "/" is known to agree under a file base (network-path-reading.ts). The tests hold the two equal.
 */
export function disagreementOf(value: string, base: string, withJoin: boolean, shelf?: ReadingsShelf): Reading[] | null {
  const plain = UNRESERVED_OR_SLASH.test(value) ? plainReadings[withJoin ? 1 : 0]!(base) : null;
  if (plain === null) return agreesAsNetworkPath(value, base, withJoin, disagreement) ? null : disagreement(value, base, withJoin, shelf);
  if (!plain.differ) return null;
  return plain.prefixes.map(({ consumer, href }) => ({ consumer, href: href === null ? null : href + value }));
}
