// A file name as a relative URL segment in a given ticket: escaped octets are read in the ticket's declared
// encoding (JDF appendix section 3), so a Latin-1 ticket gets Latin-1 octets, a UTF-8 (or UTF-16) one UTF-8.
import { escapeSegment } from '../escape/percent.js';

const SINGLE_BYTE = new Set(['ISO-8859-1', 'LATIN1', 'WINDOWS-1252', 'US-ASCII']);

export function segmentFor(name: string, charset: string): string {
  if (!SINGLE_BYTE.has(charset.toUpperCase())) return escapeSegment(name);
  let out = '';
  for (const ch of name) {
    const c = ch.codePointAt(0)!;
    // Windows-1252 reads 0x80-0x9F as other characters: only Latin-1's own range is written as one octet.
    out += c >= 0xa0 && c <= 0xff ? `%${c.toString(16).toUpperCase()}` : escapeSegment(ch);
  }
  return out;
}

/** A "/"-separated relative path, each segment escaped for the ticket's charset. */
export function pathFor(relative: string, charset: string): string {
  return relative.split('/').map((s) => segmentFor(s, charset)).join('/');
}
