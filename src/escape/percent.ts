import { hexValue, isHexDigit } from '../uri/chars.js';
import { charsetForLabel, decodeBytes, isSingleByte, singleByteOctet, utf8Replacing, utf8Strict } from './charsets.js';
import { isSegmentChar } from './tables.js';

const HEX = '0123456789ABCDEF';
const utf8 = new TextEncoder();

const triplet = (b: number): string => '%' + HEX[b >> 4]! + HEX[b & 15]!;

/**
 * Percent-encodes one character (a whole code point) as its UTF-8 octets (appendix Table 1, RFC 3986 2.5); a
 * lone surrogate, which has no UTF-8 form, as U+FFFD (as TextEncoder does).
 */
export function escapeChar(ch: string): string {
  let cp = ch.codePointAt(0)!;
  if (cp >= 0xd800 && cp <= 0xdfff) cp = 0xfffd;
  if (cp < 0x80) return triplet(cp);
  if (cp < 0x800) return triplet(0xc0 | (cp >> 6)) + triplet(0x80 | (cp & 0x3f));
  if (cp < 0x10000) return triplet(0xe0 | (cp >> 12)) + triplet(0x80 | ((cp >> 6) & 0x3f)) + triplet(0x80 | (cp & 0x3f));
  return triplet(0xf0 | (cp >> 18)) + triplet(0x80 | ((cp >> 12) & 0x3f)) + triplet(0x80 | ((cp >> 6) & 0x3f)) + triplet(0x80 | (cp & 0x3f));
}

/**
 * Escapes a file or folder name for one path segment: everything but alphanumerics and the appendix's safe
 * specials, so "/" and "?" inside a name are escaped too (Table 1). Non-ASCII is UTF-8 (RFC 8089 section 4).
 */
export function escapeSegment(name: string): string {
  let out = '';
  for (const ch of name) {
    const c = ch.charCodeAt(0);
    out += c < 128 && isSegmentChar(c) ? ch : escapeChar(ch);
  }
  return out;
}

/** Escapes only what a URL may not hold raw: every character above 127, as UTF-8 octets (the IRI-to-URI step of RFC 3987 3.1). */
export function escapeNonAscii(value: string): string {
  let out = '';
  let copied = 0; // the ASCII characters before it are copied as one slice
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if (c < 128) continue;
    const pair = c >= 0xd800 && c <= 0xdbff && (value.charCodeAt(i + 1) & 0xfc00) === 0xdc00;
    out += value.slice(copied, i) + escapeChar(pair ? value.slice(i, i + 2) : value[i]!);
    i += pair ? 1 : 0;
    copied = i + 1;
  }
  return copied === 0 ? value : out + value.slice(copied);
}

/**
 * Escapes one character as its octets in the ticket's charset: "all encoded octets must use the encoding declared
 * on the XML document header's encoding attribute" (JDF appendix section 3). A single-byte charset (ISO-8859-1,
 * windows-1252, US-ASCII) writes it as its one octet, or undefined where it has none; any other charset (UTF-8, and
 * UTF-16, whose tickets' escapes are read as UTF-8) as UTF-8 octets.
 */
export function escapeCharIn(ch: string, charset = 'utf-8'): string | undefined {
  const single = charsetForLabel(charset);
  if (!isSingleByte(single)) return escapeChar(ch);
  const octet = singleByteOctet(ch.codePointAt(0)!, single);
  return octet === undefined ? undefined : triplet(octet);
}

/**
 * escapeNonAscii in the ticket's charset (escapeCharIn): every character above 127 as its octets there; undefined
 * when the charset has no octet for one of them.
 */
export function escapeNonAsciiIn(value: string, charset = 'utf-8'): string | undefined {
  if (!isSingleByte(charsetForLabel(charset))) return escapeNonAscii(value);
  let out = '';
  for (const ch of value) {
    if (ch.charCodeAt(0) < 128) {
      out += ch;
      continue;
    }
    const escaped = escapeCharIn(ch, charset);
    if (escaped === undefined) return undefined;
    out += escaped;
  }
  return out;
}

/** The first character of `value` above 127 that the charset has no octet for, or undefined. */
export function unheldChar(value: string, charset = 'utf-8'): string | undefined {
  if (!isSingleByte(charsetForLabel(charset))) return undefined;
  for (const ch of value) if (ch.charCodeAt(0) >= 128 && escapeCharIn(ch, charset) === undefined) return ch;
  return undefined;
}

/** Whether `s` has a well-formed "%" HEXDIG HEXDIG at index i. */
export function isTripletAt(s: string, i: number): boolean {
  return s.charCodeAt(i) === 0x25 && isHexDigit(s.charCodeAt(i + 1)) && isHexDigit(s.charCodeAt(i + 2));
}

/**
 * The octets a path segment stands for: triplets become their octet, other characters their UTF-8 octets.
 * A "%" that starts no triplet stands for itself.
 */
export function percentDecodeToBytes(segment: string): Uint8Array {
  // Encoded natively (no per-character warm-up); a triplet stays three ASCII octets, then is folded in place.
  const bytes = utf8.encode(segment);
  let out = 0;
  let from = 0;
  for (let k = bytes.indexOf(0x25); k !== -1; k = bytes.indexOf(0x25, from)) {
    bytes.copyWithin(out, from, k);
    out += k - from;
    const hi = bytes[k + 1] ?? 0;
    const lo = bytes[k + 2] ?? 0;
    if (isHexDigit(hi) && isHexDigit(lo)) {
      bytes[out++] = hexValue(hi) * 16 + hexValue(lo);
      from = k + 3;
    } else {
      bytes[out++] = 0x25;
      from = k + 1;
    }
  }
  if (from === 0) return bytes;
  bytes.copyWithin(out, from);
  return bytes.subarray(0, out + bytes.length - from);
}

export interface DecodedSegment {
  text: string;
  /** False when the escaped octets are not valid in the charset (then `text` holds U+FFFD replacements). */
  valid: boolean;
}

/**
 * Decodes one path segment (the appendix, section 3: split into segments first, then decode). Escaped octets
 * are read in the charset of the ticket (its XML declaration), UTF-8 by default.
 */
export function decodeSegment(segment: string, charset = 'utf-8'): DecodedSegment {
  if (segment.indexOf('%') === -1) return { text: segment, valid: true };
  const bytes = percentDecodeToBytes(segment);
  const label = charset.toLowerCase();
  if (label === 'utf-8' || label === 'utf8') {
    const text = utf8Strict(bytes);
    return text !== undefined ? { text, valid: true } : { text: utf8Replacing(bytes), valid: false };
  }
  // Single-byte charsets: raw non-ASCII characters in the segment are the text itself; only triplets are octets.
  const single = charsetForLabel(label);
  if (single === undefined || single === 'utf-16le' || single === 'utf-16be') return decodeSegment(segment, 'utf-8');
  let text = '';
  for (let i = 0; i < segment.length; i++) {
    if (isTripletAt(segment, i)) {
      let j = i;
      const run: number[] = [];
      while (isTripletAt(segment, j)) {
        run.push(hexValue(segment.charCodeAt(j + 1)) * 16 + hexValue(segment.charCodeAt(j + 2)));
        j += 3;
      }
      const decoded = decodeBytes(Uint8Array.from(run), single);
      if (decoded.invalidAt !== -1) return { text: text + decoded.text, valid: false };
      text += decoded.text;
      i = j - 1;
    } else {
      text += segment[i];
    }
  }
  return { text, valid: true };
}

/** Splits a path into segments and decodes each one (appendix section 3). */
export function decodePath(path: string, charset = 'utf-8'): DecodedSegment[] {
  return path.split('/').map((segment) => decodeSegment(segment, charset));
}
