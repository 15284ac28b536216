import type { UriComponents } from './components.js';
import { hexValue, isHexDigit, isUnreserved } from './chars.js';
import { parseAuthority, parseReference } from './parse.js';
import { recompose } from './recompose.js';
import { removeDotSegments } from './resolve.js';

const HEX = '0123456789ABCDEF';

// RFC 3986 6.2.2.1 and 6.2.2.2: uppercase the hex digits of every triplet and decode those of unreserved characters.
export function normalizePercentEncoding(component: string): string {
  if (component.indexOf('%') === -1) return component;
  let out = '';
  for (let i = 0; i < component.length; i++) {
    const c = component.charCodeAt(i);
    if (c === 0x25 && isHexDigit(component.charCodeAt(i + 1)) && isHexDigit(component.charCodeAt(i + 2))) {
      const octet = hexValue(component.charCodeAt(i + 1)) * 16 + hexValue(component.charCodeAt(i + 2));
      out += isUnreserved(octet) ? String.fromCharCode(octet) : '%' + HEX[octet >> 4] + HEX[octet & 15];
      i += 2;
    } else {
      out += component[i];
    }
  }
  return out;
}

// RFC 3986 6.2.2.1: the scheme and host are case-insensitive; userinfo, port and the rest keep their case.
function normalizeAuthority(authority: string): string {
  const parts = parseAuthority(authority);
  let result = '';
  if (parts.userinfo !== undefined) result += normalizePercentEncoding(parts.userinfo) + '@';
  result += normalizePercentEncoding(parts.host).toLowerCase();
  if (parts.port !== undefined) result += ':' + parts.port;
  return result;
}

// RFC 3986 6.2.2: syntax-based normalization (case, percent-encoding, path segments).
export function normalize(uri: string): string {
  const c: UriComponents = parseReference(uri);
  const t: UriComponents = { path: normalizePercentEncoding(c.path) };
  if (c.scheme !== undefined) t.scheme = c.scheme.toLowerCase();
  if (c.authority !== undefined) t.authority = normalizeAuthority(c.authority);
  // RFC 3986 6.2.2.3: dot segments are removed in absolute URIs and network-path references only
  if (c.scheme !== undefined || c.authority !== undefined) t.path = removeDotSegments(t.path);
  if (c.query !== undefined) t.query = normalizePercentEncoding(c.query);
  if (c.fragment !== undefined) t.fragment = normalizePercentEncoding(c.fragment);
  return recompose(t);
}

/** RFC 3986 6.2.2: two URIs are equivalent when their syntax-based normal forms are equal. */
export function equivalent(a: string, b: string): boolean {
  return a === b || normalize(a) === normalize(b);
}
