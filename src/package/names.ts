// A file name as a relative URL segment in a given ticket: escaped octets are read in the ticket's declared
// encoding (JDF appendix section 3), so a Latin-1 ticket gets Latin-1 octets, a UTF-8 (or UTF-16) one UTF-8.
// And back: a URL from such a ticket with its escapes in UTF-8, the form a file system is looked up in.
import { charsetForLabel, decodeBytes } from '../escape/charsets.js';
import { escapeChar, escapeCharIn, escapeSegment, isTripletAt } from '../escape/percent.js';

const SINGLE_BYTE = new Set(['ISO-8859-1', 'LATIN1', 'WINDOWS-1252', 'US-ASCII']);

/**
 * A name as one path segment of a ticket in `charset`: "all encoded octets must use the encoding declared on the
 * XML document header's encoding attribute" (JDF appendix section 3), so in a single-byte ticket a character is
 * its one octet there (windows-1252's "€" is %80, its 0x80-0x9F range included); one the charset has no octet
 * for (ISO-8859-1's "€", any non-ASCII in US-ASCII) is written as UTF-8 octets, RFC 8089 section 4's form.
 */
export function segmentFor(name: string, charset: string): string {
  if (!SINGLE_BYTE.has(charset.toUpperCase())) return escapeSegment(name);
  let out = '';
  for (const ch of name) out += (ch.codePointAt(0)! >= 0x80 ? escapeCharIn(ch, charset) : undefined) ?? escapeSegment(ch);
  return out;
}

/** A "/"-separated relative path, each segment escaped for the ticket's charset. */
export function pathFor(relative: string, charset: string): string {
  return relative.split('/').map((s) => segmentFor(s, charset)).join('/');
}

/**
 * A URL from a ticket in `charset`, with its escaped octets as UTF-8 (RFC 8089 4): JDF appendix section 3 reads
 * escaped octets in the ticket's charset, so in a Latin-1 ticket "M%FCller.pdf" names the file "M\u00fcller.pdf",
 * which a file system (and fileUrlToPath) knows as "M%C3%BCller.pdf". Only octets 0x80-0xFF change, one at a time
 * (the single-byte charsets have no sequences): ASCII ones, "%2F" and "%25" too, stay as written, and so does
 * an octet the charset leaves undefined. A UTF-8 or UTF-16 ticket's URL comes back as it is.
 */
export function utf8Escapes(url: string, charset: string): string {
  const single = charsetForLabel(charset);
  if (single === undefined || single === 'utf-8' || single === 'utf-16le' || single === 'utf-16be' || !url.includes('%')) return url;
  let out = '';
  for (let i = 0; i < url.length; i++) {
    const octet = isTripletAt(url, i) ? parseInt(url.slice(i + 1, i + 3), 16) : -1;
    if (octet < 0x80) {
      out += url[i];
      continue;
    }
    const decoded = decodeBytes(Uint8Array.of(octet), single);
    out += decoded.invalidAt === -1 ? escapeChar(decoded.text) : url.slice(i, i + 3);
    i += 2;
  }
  return out;
}
