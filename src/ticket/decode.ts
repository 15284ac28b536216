// Bytes to text: BOM, then the XML declaration's encoding (XML 1.0 section 4.3.3 and appendix F).
import { charsetForLabel, decodeBytes, type Charset } from '../escape/charsets.js';

export interface DecodedTicket {
  text: string;
  charset: Charset;
  bom: boolean;
  problems: DecodeProblem[];
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

/** The encoding pseudo-attribute of an XML declaration at the start of `head`. */
export function declaredEncoding(head: string): string | undefined {
  if (!head.startsWith('<?xml')) return undefined;
  const end = head.indexOf('?>');
  const decl = end === -1 ? head.slice(0, 200) : head.slice(0, end);
  const m = /\sencoding\s*=\s*(["'])([A-Za-z][A-Za-z0-9._-]*)\1/.exec(decl);
  return m ? m[2] : undefined;
}

export function decodeTicket(input: string | Uint8Array): DecodedTicket {
  if (typeof input === 'string') {
    const text = input.charCodeAt(0) === 0xfeff ? input.slice(1) : input;
    return { text, charset: 'utf-8', bom: text !== input, problems: [] };
  }
  const sniffed = sniff(input);
  const body = input.subarray(sniffed.bom);
  const problems: DecodeProblem[] = [];
  let charset = sniffed.charset;
  // The declaration is ASCII in every ASCII-compatible charset, so its first bytes can be read as Latin-1.
  const head = sniffed.charset === 'utf-8' ? decodeBytes(body.subarray(0, 256), 'iso-8859-1').text : decodeBytes(body.subarray(0, 512), sniffed.charset).text;
  const declared = declaredEncoding(head);
  if (declared !== undefined) {
    const named = charsetForLabel(declared);
    if (named === undefined) {
      problems.push({ code: 'unsupported-encoding', offset: head.indexOf(declared), args: { label: declared } });
    } else if (sniffed.bom > 0 || sniffed.charset !== 'utf-8') {
      const family = (c: Charset) => (c.startsWith('utf-16') ? 'utf-16' : c);
      if (family(named) !== family(sniffed.charset) && !(named === 'utf-16le' && sniffed.charset.startsWith('utf-16'))) {
        problems.push({ code: 'encoding-mismatch', offset: head.indexOf(declared), args: { label: declared, actual: sniffed.charset.toUpperCase() } });
      }
    } else {
      charset = named;
    }
  }
  const decoded = decodeBytes(body, charset);
  if (decoded.invalidAt !== -1) {
    const before = decodeBytes(body.subarray(0, decoded.invalidAt), charset).text;
    problems.push({ code: 'invalid-encoding-bytes', offset: before.length, args: { charset: charset.toUpperCase(), byte: String(decoded.invalidAt + sniffed.bom) } });
  }
  return { text: decoded.text, charset, bom: sniffed.bom > 0, problems };
}
