// What a drive letter is (RFC 8089 E.2): ALPHA, then ':' or (E.2.2) '|'; escaped (%3A, %7C) it still names a
// drive to a consumer that decodes first. Whoever asks "is there a drive letter here" asks this module.

const isAlpha = (c: number): boolean => (c | 0x20) >= 0x61 && (c | 0x20) <= 0x7a;

/** The length of the drive letter at `i`: "c:", "c|" 2; with `escaped`, "c%3a", "c%7C" 4; else 0. */
export function driveLetterAt(s: string, i: number, escaped = false): number {
  // Never a read past the end (NaN), which deoptimises the compiled code: a letter needs one more character.
  if (i + 1 >= s.length || !isAlpha(s.charCodeAt(i))) return 0;
  const next = s.charCodeAt(i + 1);
  if (next === 0x3a || next === 0x7c) return 2;
  if (escaped && next === 0x25 && /^%(3a|7c)/i.test(s.slice(i + 1, i + 4))) return 4;
  return 0;
}

/** A drive letter at `i` followed by the end or "/" (with `escaped`, also "\", %2F, %5C): a whole segment. */
export function isDriveSegmentAt(s: string, i: number, escaped = false): boolean {
  const n = driveLetterAt(s, i, escaped);
  if (n === 0) return false;
  const j = i + n;
  if (j === s.length || s.charCodeAt(j) === 0x2f) return true; // "/"
  return escaped && (s.charCodeAt(j) === 0x5c || /^%(2f|5c)/i.test(s.slice(j, j + 3))); // "\\", %2F, %5C
}

/** "c:" or "C|" and nothing else. */
export const isDriveLetter = (s: string): boolean => s.length === 2 && driveLetterAt(s, 0) === 2;

/** A Windows path's drive at `i`: a letter and ":" ("|" is only a URL's). */
export const isWindowsDriveAt = (s: string, i = 0): boolean => driveLetterAt(s, i) === 2 && s.charCodeAt(i + 1) === 0x3a;

/** A Windows path that starts on a drive: "c:", "c:\\x", "c:/x", and "c|" in the ":"'s place. */
export const startsWithDrivePath = (s: string): boolean => driveLetterAt(s, 0) === 2 && (s.length === 2 || s[2] === '\\' || s[2] === '/');

/** "c:\x" parses with the scheme "c" (appendix Table 3). */
export const isDriveScheme = (scheme: string): boolean => scheme.length === 1;

/** "file://c:/x", "file://H:\docs": the drive taken as the authority (Table 4, example 22). */
export const isDriveAuthority = (authority: string): boolean =>
  driveLetterAt(authority, 0) === 2 && (authority.length === 2 || authority[2] === '\\');

/** The drive as host: "c" (the ":" read as the port's), "c:" or "c|" (Table 4, example 22). */
export const isDriveHost = (host: string): boolean => (host.length === 1 && isAlpha(host.charCodeAt(0))) || isDriveLetter(host);

/** A drive letter (or escaped) as the first segment of an absolute path. */
export const hasDriveSegment = (path: string): boolean => path[0] === '/' && isDriveSegmentAt(path, 1, true);

/** "/C:/x" and "/c|/x" as "/c:/x" (E.2.2): one spelling of one drive. */
export function foldDriveSegment(path: string): string {
  if (!path.startsWith('/') || !isDriveSegmentAt(path, 1)) return path;
  return `/${path[1]!.toLowerCase()}:${path.slice(3)}`;
}

/** Where the drive letter of "file://host/c:..." is, or -1. */
export function fileUrlDriveIndex(uri: string): number {
  if (uri.length < 9 || uri.slice(0, 7).toLowerCase() !== 'file://') return -1;
  const slash = uri.indexOf('/', 7);
  return slash !== -1 && driveLetterAt(uri, slash + 1) === 2 ? slash + 1 : -1;
}

/** "file:///C|x" as "file:///c:x". */
export function foldFileUrlDrive(uri: string): string {
  const i = fileUrlDriveIndex(uri);
  return i === -1 ? uri : `${uri.slice(0, i)}${uri[i]!.toLowerCase()}:${uri.slice(i + 2)}`;
}
