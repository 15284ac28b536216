// Content-Transfer-Encodings (RFC 2045 6): streaming decoders that take the encoded body a chunk at a time.

export interface TransferDecoder {
  /** Decoded bytes of this chunk (may be empty while a quantum is incomplete); valid until the next push. */
  push(chunk: Uint8Array): Uint8Array;
  /** Reads the chunk as push does, but only counts the octets it holds (nobody wants them). */
  count(chunk: Uint8Array): number;
  /** Whatever is left at the end, and what was wrong with the whole body. */
  end(): { rest: Uint8Array; problem?: 'truncated' | 'invalid-chars' };
}

const B64 = new Int16Array(256).fill(-1);
'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/'.split('').forEach((c, i) => { B64[c.charCodeAt(0)] = i; });
const EMPTY = new Uint8Array(0);
/** 1: a base64 letter; 2: white space, which RFC 2045 6.8 skips; 0: anything else. */
const KIND = new Uint8Array(256);
for (let c = 0; c < 256; c++) KIND[c] = B64[c]! >= 0 ? 1 : c === 13 || c === 10 || c === 32 || c === 9 ? 2 : 0;

/**
 * RFC 2045 6.8: 4 characters make 3 octets; line breaks and white space are ignored; "=" pads the last
 * quantum. Characters outside the alphabet must be ignored, and are reported; a body whose last quantum is
 * incomplete (no padding, or cut off) is reported as truncated.
 */
export class Base64Decoder implements TransferDecoder {
  private bits = 0;
  private quantum = 0;
  private padding = 0;
  private invalid = false;
  private done = false;

  /** Reused for every chunk's output: what push returns is valid until the next push. */
  private out = new Uint8Array(0);

  push(chunk: Uint8Array): Uint8Array {
    const need = Math.floor(((chunk.length + this.quantum) * 3) / 4) + 3;
    if (this.out.length < need) this.out = new Uint8Array(Math.max(need, 64 * 1024));
    const out = this.out;
    let o = 0;
    let bits = this.bits;
    let count = this.quantum;
    for (let i = 0; i < chunk.length; i++) {
      const c = chunk[i]!;
      const v = B64[c]!;
      if (v >= 0) {
        if (this.padding > 0 || this.done) { this.invalid = true; continue; }
        bits = (bits << 6) | v;
        if (++count === 4) {
          out[o++] = (bits >> 16) & 255;
          out[o++] = (bits >> 8) & 255;
          out[o++] = bits & 255;
          bits = 0;
          count = 0;
        }
      } else if (c === 61) { // "="
        this.padding++;
        if ((count === 2 && this.padding === 2) || (count === 3 && this.padding === 1)) {
          if (count === 2) out[o++] = (bits >> 4) & 255;
          else { out[o++] = (bits >> 10) & 255; out[o++] = (bits >> 2) & 255; }
          bits = 0;
          count = 0;
          this.done = true;
        } else if (count < 2 || this.padding > 2) {
          this.invalid = true;
        }
      } else if (c !== 13 && c !== 10 && c !== 32 && c !== 9) {
        this.invalid = true;
      }
    }
    this.bits = bits;
    this.quantum = count;
    return o === 0 ? EMPTY : out.subarray(0, o);
  }

  count(chunk: Uint8Array): number {
    // The body of a well-formed part is alphabet and line breaks up to its padding: counted in one tight loop;
    // from the first other byte on (padding, junk) push's rules apply.
    if (this.padding !== 0 || this.done) return this.push(chunk).length;
    const kind = KIND;
    const length = chunk.length;
    let letters = 0;
    let i = 0;
    for (; i < length; i++) {
      const k = kind[chunk[i]!]!;
      if (k === 1) letters++;
      else if (k !== 2) break;
    }
    const total = this.quantum + letters;
    let octets = Math.floor(total / 4) * 3;
    // The bits of an incomplete quantum only matter as a count when nobody reads the octets.
    this.quantum = total % 4;
    this.bits = 0;
    if (i < length) octets += this.push(chunk.subarray(i)).length;
    return octets;
  }

  end(): { rest: Uint8Array; problem?: 'truncated' | 'invalid-chars' } {
    if (this.quantum !== 0) {
      // A quantum cut off: keep what whole octets it holds (RFC 2045 6.8 says the data is damaged).
      const rest = this.quantum === 2 ? Uint8Array.of((this.bits >> 4) & 255) : this.quantum === 3 ? Uint8Array.of((this.bits >> 10) & 255, (this.bits >> 2) & 255) : EMPTY;
      return { rest, problem: 'truncated' };
    }
    return this.invalid ? { rest: EMPTY, problem: 'invalid-chars' } : { rest: EMPTY };
  }
}

const HEX = new Int8Array(256).fill(-1);
'0123456789ABCDEF'.split('').forEach((c, i) => { HEX[c.charCodeAt(0)] = i; HEX[c.toLowerCase().charCodeAt(0)] = i; });

/** RFC 2045 6.7: "=XX" is an octet, "=" at the end of a line is a soft line break; anything else stays as written. */
export class QuotedPrintableDecoder implements TransferDecoder {
  private carry: Uint8Array = EMPTY;

  push(chunk: Uint8Array): Uint8Array {
    let input = chunk;
    if (this.carry.length > 0) {
      input = new Uint8Array(this.carry.length + chunk.length);
      input.set(this.carry);
      input.set(chunk, this.carry.length);
      this.carry = EMPTY;
    }
    const out = new Uint8Array(input.length);
    let o = 0;
    for (let i = 0; i < input.length; i++) {
      const c = input[i]!;
      if (c !== 61) { out[o++] = c; continue; }
      // Rule (5): "=" then optional transport padding then a line break.
      let j = i + 1;
      while (j < input.length && (input[j] === 32 || input[j] === 9)) j++;
      if (j >= input.length || (input[j] === 13 && j + 1 >= input.length)) { this.carry = new Uint8Array(input.subarray(i)); break; }
      if (input[j] === 10) { i = j; continue; }
      if (input[j] === 13 && input[j + 1] === 10) { i = j + 1; continue; }
      if (i + 2 >= input.length) { this.carry = new Uint8Array(input.subarray(i)); break; }
      const hi = HEX[input[i + 1]!]!;
      const lo = HEX[input[i + 2]!]!;
      if (hi >= 0 && lo >= 0) { out[o++] = hi * 16 + lo; i += 2; } else out[o++] = c;
    }
    return out.subarray(0, o);
  }

  count(chunk: Uint8Array): number {
    return this.push(chunk).length;
  }

  end(): { rest: Uint8Array } {
    const rest = this.carry;
    this.carry = EMPTY;
    return { rest };
  }
}

/** 7bit, 8bit, binary (RFC 2045 6.2): the body is the content. */
export class IdentityDecoder implements TransferDecoder {
  push(chunk: Uint8Array): Uint8Array {
    return chunk;
  }

  count(chunk: Uint8Array): number {
    return chunk.length;
  }

  end(): { rest: Uint8Array } {
    return { rest: EMPTY };
  }
}

export const KNOWN_ENCODINGS = new Set(['7bit', '8bit', 'binary', 'base64', 'quoted-printable']);

export function decoderFor(encoding: string): TransferDecoder {
  if (encoding === 'base64') return new Base64Decoder();
  if (encoding === 'quoted-printable') return new QuotedPrintableDecoder();
  return new IdentityDecoder();
}
