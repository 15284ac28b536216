// What a drive letter is, in one place (RFC 8089 appendix E.2): one ALPHA, then ':' or, in the old form of
// E.2.2, '|'. Escaped (%3A, %7C) it still names a drive to consumers that decode before they look. Whoever asks
// "is there a drive letter here" (a rule, the readings, path conversion, the views, a zip entry's name, the Node
// edge) asks these functions, never a regular expression of its own. No imports: any layer may call it.

/** ALPHA (RFC 5234 B.1), either case. */
const isAlpha = (c: number): boolean => (c | 0x20) >= 0x61 && (c | 0x20) <= 0x7a;

/** The length of the drive letter at `i` ("c:" and "c|" are 2; with `escaped`, "c%3a" and "c%7C" are 4), or 0. */
export function driveLetterAt(s: string, i: number, escaped = false): number {
  if (!isAlpha(s.charCodeAt(i))) return 0;
  const next = s.charCodeAt(i + 1);
  if (next === 0x3a || next === 0x7c) return 2;
  if (escaped && next === 0x25 && /^%(3a|7c)/i.test(s.slice(i + 1, i + 4))) return 4;
  return 0;
}

/**
 * A drive letter at `i` standing as a whole segment: followed by the end or '/'. With `escaped`, also by '\'
 * (a Windows separator), %2F or %5C, as a consumer that decodes first would read it.
 */
export function isDriveSegmentAt(s: string, i: number, escaped = false): boolean {
  const n = driveLetterAt(s, i, escaped);
  if (n === 0) return false;
  const j = i + n;
  if (j === s.length || s[j] === '/') return true;
  return escaped && (s[j] === '\\' || /^%(2f|5c)/i.test(s.slice(j, j + 3)));
}

/** `s` is a drive letter and nothing else: "c:" or "C|" (a path segment, a decoded name). */
export const isDriveLetter = (s: string): boolean => s.length === 2 && driveLetterAt(s, 0) === 2;

/** A Windows path's drive at `i`: a letter and ":" ("C:\x", a zip entry named "c:x"); "|" is only a URL's old form. */
export const isWindowsDriveAt = (s: string, i = 0): boolean => driveLetterAt(s, i) === 2 && s.charCodeAt(i + 1) === 0x3a;

/** A one-letter scheme is a drive letter: "c:\x" and "c:/x" parse with the scheme "c" (appendix Table 3). */
export const isDriveScheme = (scheme: string): boolean => scheme.length === 1;

/** An authority that is a drive letter ("file://c:/x", "file://H:\docs"): the drive taken as host (Table 4, example 22). */
export const isDriveAuthority = (authority: string): boolean =>
  driveLetterAt(authority, 0) === 2 && (authority.length === 2 || authority[2] === '\\');

/** A host that is a drive letter: "c" (the host of "c:", its ":" read as the port's), "c:" or "c|" (Table 4, example 22). */
export const isDriveHost = (host: string): boolean => (host.length === 1 && isAlpha(host.charCodeAt(0))) || isDriveLetter(host);

/** "c:" or "c|" (or escaped) as the first segment of an absolute path, however the separator after it is written. */
export const hasDriveSegment = (path: string): boolean => path[0] === '/' && isDriveSegmentAt(path, 1, true);

/** "/C:/x" and "/c|/x" are the same path as "/c:/x" (RFC 8089 E.2, E.2.2): the drive letter in lower case, with ":". */
export function foldDriveSegment(path: string): string {
  if (path.charCodeAt(0) !== 0x2f || !isDriveSegmentAt(path, 1)) return path;
  return `/${path[1]!.toLowerCase()}:${path.slice(3)}`;
}

/** The index of the drive letter that starts the path of a file URL with an authority ("file://host/c:..."), or -1. */
export function fileUrlDriveIndex(uri: string): number {
  if (uri.length < 9 || uri.slice(0, 7).toLowerCase() !== 'file://') return -1;
  const slash = uri.indexOf('/', 7);
  return slash !== -1 && driveLetterAt(uri, slash + 1) === 2 ? slash + 1 : -1;
}

/** A file URL with its drive letter folded ("file:///C|x" as "file:///c:x"): two spellings of one drive compare equal. */
export function foldFileUrlDrive(uri: string): string {
  const i = fileUrlDriveIndex(uri);
  return i === -1 ? uri : `${uri.slice(0, i)}${uri[i]!.toLowerCase()}:${uri.slice(i + 2)}`;
}
