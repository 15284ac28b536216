// Byte decoding for the encodings JDF tickets declare. UTF-8 and UTF-16 go through TextDecoder; the single-byte
// ones are done here because Node's TextDecoder decodes "windows-1252" as ISO-8859-1 (0x80 is not the euro sign).

/** WHATWG Encoding's windows-1252 table for 0x80-0x9F (the rest equals ISO-8859-1). */
const WINDOWS_1252_HIGH = [
  0x20ac, 0x0081, 0x201a, 0x0192, 0x201e, 0x2026, 0x2020, 0x2021, 0x02c6, 0x2030, 0x0160, 0x2039, 0x0152, 0x008d, 0x017d, 0x008f,
  0x0090, 0x2018, 0x2019, 0x201c, 0x201d, 0x2022, 0x2013, 0x2014, 0x02dc, 0x2122, 0x0161, 0x203a, 0x0153, 0x009d, 0x017e, 0x0178,
];

export type Charset = 'utf-8' | 'utf-16le' | 'utf-16be' | 'iso-8859-1' | 'windows-1252' | 'us-ascii';

/** The charset a label names (XML declaration `encoding`), or undefined when we do not support it. */
export function charsetForLabel(label: string): Charset | undefined {
  const l = label.trim().toLowerCase();
  if (l === 'utf-8' || l === 'utf8') return 'utf-8';
  if (l === 'utf-16' || l === 'utf-16le' || l === 'ucs-2') return 'utf-16le';
  if (l === 'utf-16be') return 'utf-16be';
  if (l === 'iso-8859-1' || l === 'iso8859-1' || l === 'latin1' || l === 'l1' || l === 'iso_8859-1') return 'iso-8859-1';
  if (l === 'windows-1252' || l === 'cp1252' || l === 'x-cp1252') return 'windows-1252';
  if (l === 'us-ascii' || l === 'ascii') return 'us-ascii';
  return undefined;
}

/** The one-octet charsets: each character they hold is one octet, and an escaped octet is one character. */
export type SingleByteCharset = 'iso-8859-1' | 'windows-1252' | 'us-ascii';

export function isSingleByte(charset: Charset | undefined): charset is SingleByteCharset {
  return charset === 'iso-8859-1' || charset === 'windows-1252' || charset === 'us-ascii';
}

/** The charset as its registered name (IANA), for messages. */
export function charsetName(charset: Charset): string {
  return charset === 'windows-1252' ? 'windows-1252' : charset.toUpperCase();
}

/** The octet a single-byte charset writes the code point as, or undefined where it has none (the inverse of decodeBytes). */
export function singleByteOctet(cp: number, charset: SingleByteCharset): number | undefined {
  if (cp < 0x80) return cp;
  if (charset === 'us-ascii') return undefined;
  if (charset === 'iso-8859-1') return cp <= 0xff ? cp : undefined;
  const high = WINDOWS_1252_HIGH.indexOf(cp);
  if (high !== -1) return 0x80 + high;
  return cp >= 0xa0 && cp <= 0xff ? cp : undefined;
}

// Made once: a decode without { stream: true } keeps nothing from one call to the next. A name or a value may
// start with U+FEFF: it is a character there, not a byte-order mark, so none of these drops it.
const UTF8_FATAL = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
const UTF8_REPLACING = new TextDecoder('utf-8', { ignoreBOM: true });

/** The bytes as UTF-8 text, or undefined where they are not well-formed UTF-8. */
export function utf8Strict(bytes: Uint8Array): string | undefined {
  try {
    return UTF8_FATAL.decode(bytes);
  } catch {
    return undefined;
  }
}

/** The bytes as UTF-8 text, each ill-formed sequence as U+FFFD (WHATWG Encoding's decode). */
export function utf8Replacing(bytes: Uint8Array): string {
  return UTF8_REPLACING.decode(bytes);
}

export interface DecodeResult {
  text: string;
  /** Byte offset of the first byte that is not valid in the charset, or -1. */
  invalidAt: number;
}

/** Decodes bytes without ever throwing; an invalid sequence is reported by offset and replaced by U+FFFD. */
export function decodeBytes(bytes: Uint8Array, charset: Charset): DecodeResult {
  if (charset === 'iso-8859-1' || charset === 'windows-1252' || charset === 'us-ascii') {
    let text = '';
    let invalidAt = -1;
    const CHUNK = 8192;
    for (let start = 0; start < bytes.length; start += CHUNK) {
      const codes: number[] = [];
      const end = Math.min(bytes.length, start + CHUNK);
      for (let i = start; i < end; i++) {
        const b = bytes[i]!;
        if (charset === 'us-ascii' && b > 0x7f) {
          if (invalidAt === -1) invalidAt = i;
          codes.push(0xfffd);
        } else codes.push(charset === 'windows-1252' && b >= 0x80 && b <= 0x9f ? WINDOWS_1252_HIGH[b - 0x80]! : b);
      }
      text += String.fromCharCode(...codes);
    }
    return { text, invalidAt };
  }
  try {
    return { text: new TextDecoder(charset, { fatal: true, ignoreBOM: true }).decode(bytes), invalidAt: -1 };
  } catch {
    return { text: new TextDecoder(charset, { ignoreBOM: true }).decode(bytes), invalidAt: firstInvalidOffset(bytes, charset) };
  }
}

/** Where decoding first fails: found by decoding ever longer prefixes in halves (log n decodes). */
function firstInvalidOffset(bytes: Uint8Array, charset: Charset): number {
  const decoder = new TextDecoder(charset, { fatal: true, ignoreBOM: true });
  const ok = (n: number): boolean => {
    try {
      decoder.decode(bytes.subarray(0, n), { stream: true });
      decoder.decode(); // reset
      return true;
    } catch {
      return false;
    }
  };
  let lo = 0;
  let hi = bytes.length;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (ok(mid)) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}
