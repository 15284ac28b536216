import type { AuthorityParts, UriComponents } from './components.js';
import { isValidSchemeAt } from './chars.js';

// RFC 3986 appendix B, done as one left-to-right scan instead of the appendix's regular expression, so that
// no input can make it backtrack. Unlike appendix B, a scheme must match the grammar of 3.1: "1a:b" and
// "my file:x" are relative paths (whose colon the checker reports), not URIs with a strange scheme.
export function parseReference(reference: string): UriComponents {
  const b = referenceBounds(reference);
  const length = reference.length;
  const result: UriComponents = { path: reference.slice(b[PATH]!, b[PATH_END]!) };
  if (b[SCHEME_END]! !== -1) result.scheme = reference.slice(0, b[SCHEME_END]);
  if (b[AUTHORITY]! !== -1) result.authority = reference.slice(b[AUTHORITY], b[PATH]);
  const queryEnd = b[QUERY_END]!;
  if (queryEnd !== -1) result.query = reference.slice(b[PATH_END]! + 1, queryEnd);
  const hash = queryEnd === -1 ? b[PATH_END]! : queryEnd; // "#" fragment  -- the rest
  if (hash < length && reference.charCodeAt(hash) === 0x23) result.fragment = reference.slice(hash + 1);
  return result;
}

/** Indexes into referenceBounds' answer. */
export const SCHEME_END = 0;
export const AUTHORITY = 1;
export const PATH = 2;
export const PATH_END = 3;
export const QUERY_END = 4;
const bounds = new Int32Array(5);

/**
 * Where parseReference's components stand in `reference`, none of them made: the index of the scheme's ":" (-1:
 * none), where the authority starts after its "//" (-1: none; it ends where the path starts), where the path
 * starts and ends, and where the query ends (-1: none; else a "#" or the end). One array, shared and overwritten
 * by the next call: read it before calling again.
 */
export function referenceBounds(reference: string): Int32Array {
  const length = reference.length;
  let i = 0;
  bounds[SCHEME_END] = -1;
  bounds[AUTHORITY] = -1;
  bounds[QUERY_END] = -1;

  // scheme ":"  -- the first ":" before any "/", "?" or "#"
  let scanned = 0; // reference[0, scanned) holds no "?" or "#"
  for (; scanned < length; scanned++) {
    const c = reference.charCodeAt(scanned);
    if (c === 0x3a /* : */) {
      if (isValidSchemeAt(reference, scanned)) {
        bounds[SCHEME_END] = scanned;
        i = scanned + 1;
      }
      break;
    }
    if (c === 0x2f /* / */ || c === 0x3f /* ? */ || c === 0x23 /* # */) break;
  }
  if (scanned === length) { // none of ":/?#": a path alone
    bounds[PATH] = 0;
    bounds[PATH_END] = length;
    return bounds;
  }

  // "//" authority  -- up to the next "/", "?" or "#"
  // Every read is guarded by the length: charCodeAt past the end gives NaN, which deoptimises the compiled scan.
  if (i + 1 < length && reference.charCodeAt(i) === 0x2f && reference.charCodeAt(i + 1) === 0x2f) {
    let end = i + 2;
    while (end < length) {
      const c = reference.charCodeAt(end);
      if (c === 0x2f || c === 0x3f || c === 0x23) break;
      end++;
    }
    bounds[AUTHORITY] = i + 2;
    i = end;
  }

  // path  -- up to "?" or "#" (the engine's search for each: faster than a loop over a long path)
  let end = i > scanned ? i : scanned;
  const question = reference.indexOf('?', end);
  const hash = reference.indexOf('#', end);
  end = question === -1 ? (hash === -1 ? length : hash) : hash === -1 || question < hash ? question : hash;
  bounds[PATH] = i;
  bounds[PATH_END] = end;

  // "?" query  -- up to "#"
  if (end < length && reference.charCodeAt(end) === 0x3f) {
    const hash = reference.indexOf('#', end + 1);
    bounds[QUERY_END] = hash === -1 ? length : hash;
  }
  return bounds;
}

// RFC 3986 3.2: authority = [ userinfo "@" ] host [ ":" port ]. The userinfo ends at the last "@" so that a
// stray "@" in a password cannot move the host; the port is digits after the last ":" outside an IP-literal.
export function parseAuthority(authority: string): AuthorityParts {
  const at = authority.lastIndexOf('@');
  const userinfo = at === -1 ? undefined : authority.slice(0, at);
  const hostport = at === -1 ? authority : authority.slice(at + 1);
  let host = hostport;
  let port: string | undefined;
  const colon = hostport.lastIndexOf(':');
  const bracket = hostport.lastIndexOf(']');
  if (colon !== -1 && colon > bracket) {
    host = hostport.slice(0, colon);
    port = hostport.slice(colon + 1);
  }
  const parts: AuthorityParts = { host };
  if (userinfo !== undefined) parts.userinfo = userinfo;
  if (port !== undefined) parts.port = port;
  return parts;
}
