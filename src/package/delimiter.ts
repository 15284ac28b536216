// MIME boundary scanning (RFC 2046 5.1.1): where a header block ends, where "--boundary" starts a line, and what
// follows it (the close delimiter, the end of a delimiter line, or more of an ordinary line).
import { encoder, Needle } from './bytes.js';

export const CR = 13;
export const LF = 10;
export const DASH = 45;

/** The end of a header block: the index just past its blank line, and the block's own end. */
export function headerEnd(p: Uint8Array): { blockEnd: number; next: number } | null {
  if (p[0] === LF) return { blockEnd: 0, next: 1 };
  if (p[0] === CR && p[1] === LF) return { blockEnd: 0, next: 2 };
  let i = p.indexOf(LF);
  while (i !== -1) {
    if (p[i + 1] === LF) return { blockEnd: i + 1, next: i + 2 };
    if (p[i + 1] === CR && p[i + 2] === LF) return { blockEnd: i + 1, next: i + 3 };
    if (i + 2 >= p.length) return null;
    i = p.indexOf(LF, i + 1);
  }
  return null;
}

export type AfterDelimiter = { kind: 'close' } | { kind: 'next'; next: number } | { kind: 'not' } | { kind: 'more' };

/**
 * What follows "--boundary" at index i: the close delimiter, the end of a delimiter line (transport padding
 * then a line break, RFC 2046 5.1.1), not a delimiter at all (the line goes on), or not known yet.
 */
export function afterDelimiter(p: Uint8Array, i: number, final: boolean): AfterDelimiter {
  if (i + 2 > p.length) return final ? (i === p.length ? { kind: 'next', next: p.length } : { kind: 'not' }) : { kind: 'more' };
  if (p[i] === DASH && p[i + 1] === DASH) return { kind: 'close' };
  let j = i;
  while (j < p.length && (p[j] === 32 || p[j] === 9)) j++;
  if (j === p.length) return final ? { kind: 'next', next: j } : { kind: 'more' };
  if (p[j] === LF) return { kind: 'next', next: j + 1 };
  if (p[j] === CR) {
    if (j + 1 === p.length) return final ? { kind: 'next', next: j + 1 } : { kind: 'more' };
    if (p[j + 1] === LF) return { kind: 'next', next: j + 2 };
  }
  return { kind: 'not' };
}

/** One boundary's delimiter, "--boundary" at the start of a line, searched for with its skip table built once. */
export class Delimiter {
  /** The length of "--boundary". */
  readonly length: number;
  private readonly needle: Needle;

  constructor(readonly boundary: string) {
    this.needle = new Needle(encoder.encode('\n--' + boundary));
    this.length = this.needle.bytes.length - 1;
  }

  /**
   * The index of the next "--boundary" at the start of a line, at or after `from`: -1 when there is none in
   * `p`, -2 when more input is needed to tell. `atBodyStart`: p[0] starts a line where a delimiter may stand
   * with no line break before it (the start of a body).
   */
  find(p: Uint8Array, from: number, final: boolean, atBodyStart: boolean): number {
    if (from === 0 && atBodyStart) {
      if (p.length < this.length && !final) return -2;
      if (this.startsWithDelimiter(p)) return 0;
    }
    const i = this.needle.find(p, Math.max(0, from - 1));
    return i === -1 ? -1 : i + 1;
  }

  private startsWithDelimiter(p: Uint8Array): boolean {
    const n = this.needle.bytes;
    for (let k = 1; k < n.length; k++) if (p[k - 1] !== n[k]) return false;
    return true;
  }
}
