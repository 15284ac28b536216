// Character classes of RFC 3986 section 2, as code-point tests (no regular expressions on the hot path).

export function isAlpha(c: number): boolean {
  return (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a);
}

export function isDigit(c: number): boolean {
  return c >= 0x30 && c <= 0x39;
}

export function isHexDigit(c: number): boolean {
  return isDigit(c) || (c >= 0x41 && c <= 0x46) || (c >= 0x61 && c <= 0x66);
}

/** RFC 3986 2.3: unreserved = ALPHA / DIGIT / "-" / "." / "_" / "~" */
export function isUnreserved(c: number): boolean {
  return isAlpha(c) || isDigit(c) || c === 0x2d || c === 0x2e || c === 0x5f || c === 0x7e;
}

/** RFC 3986 2.2: sub-delims = "!" / "$" / "&" / "'" / "(" / ")" / "*" / "+" / "," / ";" / "=" */
export function isSubDelim(c: number): boolean {
  return (
    c === 0x21 || c === 0x24 || c === 0x26 || c === 0x27 || c === 0x28 || c === 0x29
    || c === 0x2a || c === 0x2b || c === 0x2c || c === 0x3b || c === 0x3d
  );
}

export function hexValue(c: number): number {
  if (c >= 0x30 && c <= 0x39) return c - 0x30;
  if (c >= 0x41 && c <= 0x46) return c - 0x37;
  if (c >= 0x61 && c <= 0x66) return c - 0x57;
  return -1;
}

/** RFC 3986 3.1: scheme = ALPHA *( ALPHA / DIGIT / "+" / "-" / "." ), for `s.slice(0, end)` without making it. */
export function isValidSchemeAt(s: string, end: number): boolean {
  if (end === 0 || !isAlpha(s.charCodeAt(0))) return false;
  for (let i = 1; i < end; i++) {
    const c = s.charCodeAt(i);
    if (!(isAlpha(c) || isDigit(c) || c === 0x2b || c === 0x2d || c === 0x2e)) return false;
  }
  return true;
}
