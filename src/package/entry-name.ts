// The zip entry a relative reference in a zip's ticket names: resolved (RFC 3986 5.2) against the ticket's own
// entry inside a stand-in base, so that ".." never climbs out of the package unnoticed: the package is a folder
// below the stand-in's root, since RFC 3986 5.2.4 drops a ".." at the root, which would keep "../x" inside.
import { decodeSegment } from '../escape/percent.js';
import { resolveReference } from '../uri/resolve.js';

const PKG = 'http://package.invalid/package/';

/** The zip entry a relative reference from entry `from` names, or undefined when it leaves the package. */
export function entryFor(value: string, from: string): string | undefined {
  const dir = from.includes('/') ? from.slice(0, from.lastIndexOf('/') + 1) : '';
  let resolved: string;
  try {
    resolved = resolveReference(value, PKG + dir.split('/').map((s) => encodeURIComponent(s)).join('/'));
  } catch {
    return undefined;
  }
  if (!resolved.startsWith(PKG)) return undefined;
  const path = resolved.slice(PKG.length).replace(/[?#].*$/, '');
  return path.split('/').map((s) => decodeSegment(s).text).join('/');
}

/** The entry name a relative reference names inside a zip, as looked up (for messages). */
export function insideName(value: string, from: string): string {
  return entryFor(value.trim(), from) ?? value.trim();
}
