// The zip entry a relative reference in a zip's ticket names: resolved (RFC 3986 5.2) against the ticket's own
// entry inside a stand-in base, so that ".." never climbs out of the package unnoticed: the package is a folder
// below the stand-in's root, since RFC 3986 5.2.4 drops a ".." at the root, which would keep "../x" inside.
import { decodeSegment } from '../escape/percent.js';
import { resolveReference } from '../uri/resolve.js';

const PKG = 'http://package.invalid/package/';

/**
 * The zip entry a relative reference from entry `from` names, or undefined when it leaves the package. Escaped
 * octets are read in the ticket's charset (JDF appendix section 3), as the rest of the validator reads them.
 */
export function entryFor(value: string, from: string, charset = 'utf-8'): string | undefined {
  const dir = from.includes('/') ? from.slice(0, from.lastIndexOf('/')).split('/') : [];
  const escapedDir = dir.map((s) => encodeURIComponent(s));
  let resolved: string;
  try {
    resolved = resolveReference(value, PKG + escapedDir.map((s) => `${s}/`).join(''));
  } catch {
    return undefined;
  }
  if (!resolved.startsWith(PKG)) return undefined;
  const segments = resolved.slice(PKG.length).replace(/[?#].*$/, '').split('/');
  // The ticket's own folders, where the result keeps them, are its entry's names; the rest is the reference's.
  let kept = 0;
  while (kept < escapedDir.length && kept < segments.length - 1 && segments[kept] === escapedDir[kept]) kept++;
  return [...dir.slice(0, kept), ...segments.slice(kept).map((s) => decodeSegment(s, charset).text)].join('/');
}

/** The entry name a relative reference names inside a zip, as looked up (for messages). */
export function insideName(value: string, from: string, charset?: string): string {
  return entryFor(value.trim(), from, charset) ?? value.trim();
}
