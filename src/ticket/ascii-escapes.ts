// Percent-decoding (RFC 3986 2.1) of the common case, without building octets: ASCII text whose escapes are all
// of ASCII octets decodes, in UTF-8, to each octet's character (what decodeSegment in src/escape/percent.ts gives
// there), so the readings of a file name (readings.ts, windows-reading.ts) need no decoder for it.
import { isTripletAt } from '../escape/percent.js';
import { hexValue } from '../uri/chars.js';

/** Whether `charset` is the label decodeSegment reads as UTF-8 here (any case). */
export const isUtf8 = (charset: string): boolean => charset === 'utf-8' || charset.toLowerCase() === 'utf-8';

/**
 * `text` decoded, each "%2F" written again as "%2F" where `slashKept` (a name that stays one segment); undefined
 * where it holds a character or an escaped octet above 0x7F. A "%" that starts no triplet stands for itself. A
 * triplet never holds a "/", so a path's triplets are those of its segments: decoding it whole is decoding each.
 */
export function asciiDecoded(text: string, slashKept: boolean): string | undefined {
  let out = '';
  let from = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0x80) return undefined;
    if (c !== 0x25 || !isTripletAt(text, i)) continue;
    const octet = hexValue(text.charCodeAt(i + 1)) * 16 + hexValue(text.charCodeAt(i + 2));
    if (octet >= 0x80) return undefined;
    out += text.slice(from, i) + (slashKept && octet === 0x2f ? '%2F' : String.fromCharCode(octet));
    i += 2;
    from = i + 1;
  }
  return out + text.slice(from);
}
