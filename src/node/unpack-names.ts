// unpack's names: each part written under a safe name of its own (no separator, no reserved Windows name, never
// twice in one folder, case aside), from what its headers say it is called (package-unpack.ts writes them).
import path from 'node:path';
import type { PartHead } from '../package/multipart.js';

const WINDOWS_RESERVED = /^(con|prn|aux|nul|com[1-9]|lpt[1-9])(\..*)?$/i;

/** One path segment, safe on every platform: no separators, controls or <>:"|?*, no reserved device name, no trailing dot or space. */
export function safeSegment(name: string, fallback: string): string {
  let s = name.normalize('NFC').replace(/[\u0000-\u001f\u007f<>:"/\\|?*]/g, '_').replace(/[. ]+$/, '').replace(/^\.+/, '');
  if (s === '' || s === '.' || s === '..') s = fallback;
  if (WINDOWS_RESERVED.test(s)) s = `_${s}`;
  if (s.length > 200) {
    const ext = path.extname(s).slice(0, 20);
    s = s.slice(0, 200 - ext.length) + ext;
  }
  return s;
}

const TYPE_EXTENSIONS: Record<string, string> = {
  'application/pdf': '.pdf', 'image/tiff': '.tif', 'image/jpeg': '.jpg', 'image/png': '.png',
  'application/vnd.cip4-jdf+xml': '.jdf', 'application/vnd.cip4-jmf+xml': '.jmf', 'application/vnd.cip4-xjdf+xml': '.xjdf', 'application/vnd.cip4-xjmf+xml': '.xjmf',
  'application/xml': '.xml', 'text/xml': '.xml', 'application/zip': '.zip',
};

/** The name a MIME part is written under: Content-Disposition filename, the last segment of Content-Location, the Content-ID's left side. */
export function mimeName(head: PartHead): string {
  const fallback = `part-${head.index + 1}`;
  const fromLocation = head.location?.replace(/[?#].*$/, '').split('/').pop();
  let decodedLocation: string | undefined;
  try {
    decodedLocation = fromLocation ? decodeURIComponent(fromLocation) : undefined;
  } catch {
    decodedLocation = fromLocation;
  }
  const raw = head.filename?.split(/[/\\]/).pop() ?? decodedLocation ?? head.contentId?.split('@')[0] ?? fallback;
  let name = safeSegment(raw, fallback);
  const ext = head.contentType ? TYPE_EXTENSIONS[head.contentType.type] : undefined;
  if (ext && path.extname(name) === '') name += ext;
  return name;
}

export class Names {
  private readonly taken = new Set<string>();
  /** Never the same name twice, compared without case (a case-insensitive disk would merge them). */
  unique(name: string): string {
    const ext = path.extname(name);
    const stem = name.slice(0, name.length - ext.length);
    let candidate = name;
    for (let k = 2; this.taken.has(candidate.toLowerCase()); k++) candidate = `${stem}-${k}${ext}`;
    this.taken.add(candidate.toLowerCase());
    return candidate;
  }
}
