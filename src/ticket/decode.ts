// Bytes to text: BOM, then the XML declaration's encoding (XML 1.0 section 4.3.3 and appendix F).
import { charsetForLabel, decodeBytes, type Charset } from '../escape/charsets.js';
import { readXmlDeclaration, type XmlDeclaration } from './xml/declaration.js';

export interface DecodedTicket {
  text: string;
  charset: Charset;
  bom: boolean;
  problems: DecodeProblem[];
  /** The XML declaration the text starts with, if any (offsets in `text`): the xml-declaration rule reads its problem. */
  declaration?: XmlDeclaration;
}

export interface DecodeProblem {
  code: 'invalid-encoding-bytes' | 'unsupported-encoding' | 'encoding-mismatch';
  /** Character offset in the decoded text where the problem is. */
  offset: number;
  args: Record<string, string>;
}

/** XML appendix F: the BOM, or the first bytes of "<?xml" in UTF-16 without one. */
function sniff(bytes: Uint8Array): { charset: Charset; bom: number } {
  const [b0, b1, b2, b3] = bytes;
  if (b0 === 0xef && b1 === 0xbb && b2 === 0xbf) return { charset: 'utf-8', bom: 3 };
  if (b0 === 0xff && b1 === 0xfe) return { charset: 'utf-16le', bom: 2 };
  if (b0 === 0xfe && b1 === 0xff) return { charset: 'utf-16be', bom: 2 };
  if (b0 === 0x3c && b1 === 0x00 && b2 === 0x3f && b3 === 0x00) return { charset: 'utf-16le', bom: 0 };
  if (b0 === 0x00 && b1 === 0x3c && b2 === 0x00 && b3 === 0x3f) return { charset: 'utf-16be', bom: 0 };
  return { charset: 'utf-8', bom: 0 };
}

/** The ticket's text, with its declaration when it starts with one. */
function decoded(text: string, charset: Charset, bom: boolean, problems: DecodeProblem[], declaration: XmlDeclaration | undefined): DecodedTicket {
  return declaration ? { text, charset, bom, problems, declaration } : { text, charset, bom, problems };
}

/**
 * The bytes of the declaration a body in an ASCII-compatible charset starts with (to its first "?>"), read as
 * Latin-1: its characters are ASCII, so they are the same characters in every such charset.
 */
function asciiHead(body: Uint8Array): string {
  if (body[0] !== 0x3c || body[1] !== 0x3f) return '';
  let close = body.indexOf(0x3f, 2);
  while (close !== -1 && body[close + 1] !== 0x3e) close = body.indexOf(0x3f, close + 1);
  return decodeBytes(body.subarray(0, close === -1 ? 4096 : close + 2), 'iso-8859-1').text;
}

const isAscii = (text: string) => !/[^\u0000-\u007f]/.test(text);

export function decodeTicket(input: string | Uint8Array): DecodedTicket {
  if (typeof input === 'string') {
    const text = input.charCodeAt(0) === 0xfeff ? input.slice(1) : input;
    return decoded(text, 'utf-8', text !== input, [], readXmlDeclaration(text));
  }
  const sniffed = sniff(input);
  const body = input.subarray(sniffed.bom);
  const problems: DecodeProblem[] = [];
  // XML 1.0 4.3.3 and appendix F: a byte order mark (or UTF-16's pattern) decides the charset; the declaration
  // then only has to agree. Without either, the declaration's encoding does.
  if (sniffed.bom > 0 || sniffed.charset !== 'utf-8') {
    const result = decodeAll(body, sniffed.charset, sniffed.bom, problems);
    const declaration = readXmlDeclaration(result.text);
    const named = declaration?.encoding !== undefined ? charsetForLabel(declaration.encoding) : undefined;
    if (declaration?.encoding !== undefined) {
      const family = (c: Charset) => (c.startsWith('utf-16') ? 'utf-16' : c);
      if (named === undefined) problems.unshift({ code: 'unsupported-encoding', offset: declaration.encodingAt!, args: { label: declaration.encoding } });
      else if (family(named) !== family(sniffed.charset) && !(named === 'utf-16le' && sniffed.charset.startsWith('utf-16'))) {
        problems.unshift({ code: 'encoding-mismatch', offset: declaration.encodingAt!, args: { label: declaration.encoding, actual: sniffed.charset.toUpperCase() } });
      }
    }
    return decoded(result.text, sniffed.charset, sniffed.bom > 0, problems, declaration);
  }
  const head = asciiHead(body);
  const fromHead = readXmlDeclaration(head);
  const named = fromHead?.encoding !== undefined ? charsetForLabel(fromHead.encoding) : undefined;
  const charset = named ?? 'utf-8';
  const result = decodeAll(body, charset, 0, problems);
  // The head's offsets are the text's while the head is ASCII and the text in a charset that keeps ASCII as it is;
  // otherwise the declaration is read again, from the text.
  const declaration = isAscii(head) && !charset.startsWith('utf-16') ? fromHead : readXmlDeclaration(result.text);
  if (fromHead?.encoding !== undefined && named === undefined) {
    problems.unshift({ code: 'unsupported-encoding', offset: declaration?.encodingAt ?? 0, args: { label: fromHead.encoding } });
  }
  return decoded(result.text, charset, false, problems, declaration);
}

/** The body decoded in `charset`, the first byte that is not valid in it reported. */
function decodeAll(body: Uint8Array, charset: Charset, bom: number, problems: DecodeProblem[]): { text: string } {
  const result = decodeBytes(body, charset);
  if (result.invalidAt !== -1) {
    const before = decodeBytes(body.subarray(0, result.invalidAt), charset).text;
    problems.push({ code: 'invalid-encoding-bytes', offset: before.length, args: { charset: charset.toUpperCase(), byte: String(result.invalidAt + bom) } });
  }
  return result;
}
