// What a drive letter is, in one place (RFC 8089 appendix E.2): one ALPHA, then ':' or, in the old form of
// E.2.2, '|'. Escaped (%3A, %7C) it still names a drive to consumers that decode before they look. A rule that
// asks "is there a drive letter here" asks these functions, never a regular expression of its own.
import type { CheckContext } from './types.js';

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

/** A one-letter scheme is a drive letter: "c:\x" and "c:/x" parse with the scheme "c" (appendix Table 3). */
export const isDriveScheme = (scheme: string): boolean => scheme.length === 1;

/** An authority that is a drive letter ("file://c:/x", "file://H:\docs"): the drive taken as host (Table 4, example 22). */
export const isDriveAuthority = (authority: string): boolean =>
  driveLetterAt(authority, 0) === 2 && (authority.length === 2 || authority[2] === '\\');

/** "c:" or "c|" (or escaped) as the first segment of an absolute path, however the separator after it is written. */
export const hasDriveSegment = (path: string): boolean => path[0] === '/' && isDriveSegmentAt(path, 1, true);

/** Index in core of the "|" of a drive letter such as "c|" (RFC 8089 E.2.2), or -1. */
export function drivePipeIndex(ctx: CheckContext): number {
  const pathInCore = ctx.pathStart - ctx.lead;
  const p = ctx.ref.path;
  if (p[0] === '/' && driveLetterAt(p, 1) === 2 && p[2] === '|') return pathInCore + 2;
  if (ctx.scheme === 'file' && driveLetterAt(p, 0) === 2 && p[1] === '|') return pathInCore + 1;
  const host = ctx.ref.authority;
  if (host !== undefined && driveLetterAt(host, 0) === 2 && host[1] === '|') return ctx.authorityStart - ctx.lead + 1;
  return -1;
}
