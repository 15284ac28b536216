import type { UriComponents } from '../uri/components.js';
import { isDriveHost } from './drive.js';
import { parseAuthority, parseReference } from '../uri/parse.js';
import { boundedMemo } from '../util/bounded-memo.js';

export type Locality = boolean | 'unknown';

/**
 * RFC 8089 section 3: a file URI is local when it has no authority, the authority "localhost" (or empty), or
 * a host that resolves to this machine; we know only the hosts the caller names. Paths that carry a UNC string
 * (RFC 8089 E.3.2) are not local. Other schemes name no local file; unknown schemes are "unknown".
 */
export function localityOf(uri: string, localHosts: readonly string[] = []): Locality {
  return localityOfParts(parseReference(uri), localHosts);
}

/** localityOf for a URI already parsed. */
export function localityOfParts(ref: UriComponents, localHosts: readonly string[] = []): Locality {
  const scheme = ref.scheme?.toLowerCase();
  if (scheme === undefined) return 'unknown';
  if (scheme.length === 1) return true; // a Windows path "c:\..." read as a URL
  if (scheme === 'http' || scheme === 'https' || scheme === 'ftp' || scheme === 'cid') return false;
  if (scheme !== 'file') return 'unknown';
  if (ref.path.startsWith('//')) return false;
  if (ref.authority === undefined) return true;
  if (ref.authority.startsWith('\\')) return false;
  const host = hostOf(ref.authority);
  if (host === '' || host === 'localhost' || isDriveHost(host)) return true;
  return localHosts.some((h) => h.toLowerCase() === host);
}

/** The authority's host, in lower case (RFC 3986 3.2.2: hosts are case-insensitive), once per authority. */
export const hostOf = boundedMemo((authority: string): string => parseAuthority(authority).host.toLowerCase());
