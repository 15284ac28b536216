// Byte helpers for the package readers: no Node Buffer, so they run in a browser.

export const encoder = new TextEncoder();

/** Bytes as ISO-8859-1 text: one character per byte, so offsets stay byte offsets (MIME headers are ASCII). */
export function latin1(bytes: Uint8Array, start = 0, end = bytes.length): string {
  let out = '';
  for (let i = start; i < end; i += 8192) out += String.fromCharCode(...bytes.subarray(i, Math.min(end, i + 8192)));
  return out;
}

/**
 * A Horspool search for one needle over many haystacks: the skip table is built once. Returns the index of
 * the first match at or after `from`, or -1.
 */
export class Needle {
  readonly bytes: Uint8Array;
  private readonly skip: Uint32Array;
  constructor(needle: Uint8Array) {
    this.bytes = needle;
    const m = needle.length;
    this.skip = new Uint32Array(256).fill(m);
    for (let k = 0; k < m - 1; k++) this.skip[needle[k]!] = m - 1 - k;
  }

  find(hay: Uint8Array, from = 0, to = hay.length): number {
    const n = this.bytes;
    const m = n.length;
    const last = n[m - 1]!;
    const skip = this.skip;
    let i = from + m - 1;
    while (i < to) {
      const c = hay[i]!;
      if (c === last) {
        let k = m - 2;
        let j = i - 1;
        while (k >= 0 && hay[j] === n[k]) { k--; j--; }
        if (k < 0) return j + 1;
      }
      i += skip[c]!;
    }
    return -1;
  }
}

/** Counts line feeds in bytes[start, end). */
export function countLines(bytes: Uint8Array, start: number, end: number): { lines: number; lastLineStart: number } {
  let lines = 0;
  let lastLineStart = -1;
  let i = bytes.indexOf(10, start);
  while (i !== -1 && i < end) {
    lines++;
    lastLineStart = i + 1;
    i = bytes.indexOf(10, i + 1);
  }
  return { lines, lastLineStart };
}

export function startsWith(bytes: Uint8Array, prefix: readonly number[], at = 0): boolean {
  if (bytes.length < at + prefix.length) return false;
  for (let k = 0; k < prefix.length; k++) if (bytes[at + k] !== prefix[k]) return false;
  return true;
}
