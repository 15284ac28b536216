// Two file URLs that one consumer writes with a raw space and another with "%20" (a broken value's partial fix, the
// WHATWG reading of the value): the same file identity (readings.ts, identityParts), told without working out either.

/**
 * Whether `a` and `b` are "file://" URLs that differ only where one has a space in its path and the other "%20":
 * then their file identities are equal in an ASCII-compatible charset (the path decoded, %20 read as a space). The
 * same scheme and authority (the text before the path, character for character), no escape but "%20" (so decoding
 * does nothing else), no "?" or "#" (no query or fragment to bound the path), and a path not starting with "//" (a
 * UNC string in the path names a host, which is not decoded); dot segments are the same in both, as a space or
 * "%20" is in no "." or ".." segment. The tests hold this to identityParts on generated pairs and near misses.
 */
export function sameUpToSpaceEscapes(a: string, b: string): boolean {
  if (!a.startsWith('file://') || !b.startsWith('file://')) return false;
  const slash = a.indexOf('/', 7);
  if (slash === -1 || a.charCodeAt(slash + 1) === 0x2f) return false;
  let i = 7;
  let j = 7;
  for (;;) {
    if (i === a.length || j === b.length) return i === a.length && j === b.length;
    const c = a.charCodeAt(i);
    const d = b.charCodeAt(j);
    if (c === 0x3f || c === 0x23 || d === 0x3f || d === 0x23) return false; // "?" "#"
    if ((c === 0x25 && !isSpaceEscape(a, i)) || (d === 0x25 && !isSpaceEscape(b, j))) return false;
    if (c === d) {
      i += c === 0x25 ? 3 : 1;
      j += c === 0x25 ? 3 : 1;
    } else if (i < slash) {
      return false; // the authorities differ
    } else if (c === 0x20 && d === 0x25) {
      i++;
      j += 3;
    } else if (c === 0x25 && d === 0x20) {
      i += 3;
      j++;
    } else {
      return false;
    }
  }
}

const isSpaceEscape = (s: string, at: number): boolean => s.charCodeAt(at + 1) === 0x32 && s.charCodeAt(at + 2) === 0x30;
