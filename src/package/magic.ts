// What a part's first bytes say it is, and whether that agrees with what its Content-Type (or, in a zip, its
// name) declares. Only formats with a fixed signature are judged.
import { startsWith } from './bytes.js';

export type Sniffed = 'pdf' | 'tiff' | 'jpeg' | 'png' | 'zip' | 'xml';

/** How many leading bytes sniff() looks at. */
export const SNIFF_BYTES = 1024;

// ISO 32000-1 7.5.2 (%PDF-, within the first 1024 bytes as readers allow); TIFF 6.0 section 2; JPEG (SOI + marker);
// PNG 5.2; zip (APPNOTE 4.3.7 local header, 4.3.16 end record).
export function sniff(head: Uint8Array): Sniffed | undefined {
  if (startsWith(head, [0x25, 0x50, 0x44, 0x46, 0x2d])) return 'pdf';
  if (startsWith(head, [0x49, 0x49, 0x2a, 0x00]) || startsWith(head, [0x4d, 0x4d, 0x00, 0x2a])) return 'tiff';
  if (startsWith(head, [0xff, 0xd8, 0xff])) return 'jpeg';
  if (startsWith(head, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'png';
  if (startsWith(head, [0x50, 0x4b, 0x03, 0x04]) || startsWith(head, [0x50, 0x4b, 0x05, 0x06])) return 'zip';
  let i = 0;
  if (startsWith(head, [0xef, 0xbb, 0xbf])) i = 3;
  else if (startsWith(head, [0xff, 0xfe]) || startsWith(head, [0xfe, 0xff])) return head[2] === 0x3c || head[3] === 0x3c ? 'xml' : undefined;
  while (i < head.length && (head[i] === 0x20 || head[i] === 0x09 || head[i] === 0x0d || head[i] === 0x0a)) i++;
  if (head[i] === 0x3c && head[i + 1] !== undefined && /[?!A-Za-z_:]/.test(String.fromCharCode(head[i + 1]!))) return 'xml';
  // A PDF may have junk before %PDF- (ISO 32000-1 7.5.2 note; Acrobat looks in the first 1024 bytes).
  for (let k = 1; k + 5 <= head.length; k++) if (head[k] === 0x25 && startsWith(head, [0x25, 0x50, 0x44, 0x46, 0x2d], k)) return 'pdf';
  return undefined;
}

const BY_TYPE: Record<string, Sniffed> = {
  'application/pdf': 'pdf',
  'image/tiff': 'tiff',
  'image/jpeg': 'jpeg',
  'image/jpg': 'jpeg',
  'image/pjpeg': 'jpeg',
  'image/png': 'png',
};

const BY_EXTENSION: Record<string, Sniffed> = { pdf: 'pdf', tif: 'tiff', tiff: 'tiff', jpg: 'jpeg', jpeg: 'jpeg', png: 'png' };

export const TYPE_OF: Record<Sniffed, string> = { pdf: 'application/pdf', tiff: 'image/tiff', jpeg: 'image/jpeg', png: 'image/png', zip: 'application/zip', xml: 'application/xml' };

export function declaredByType(contentType: string | undefined): Sniffed | undefined {
  return contentType === undefined ? undefined : BY_TYPE[contentType];
}

export function declaredByName(name: string): Sniffed | undefined {
  const m = /\.([A-Za-z0-9]+)$/.exec(name);
  return m ? BY_EXTENSION[m[1]!.toLowerCase()] : undefined;
}
