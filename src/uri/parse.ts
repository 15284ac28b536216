import type { AuthorityParts, UriComponents } from './components.js';
import { isValidScheme } from './chars.js';

// RFC 3986 appendix B, done as one left-to-right scan instead of the appendix's regular expression, so that
// no input can make it backtrack. Unlike appendix B, a scheme must match the grammar of 3.1: "1a:b" and
// "my file:x" are relative paths (whose colon the checker reports), not URIs with a strange scheme.
export function parseReference(reference: string): UriComponents {
  const length = reference.length;
  let i = 0;
  let scheme: string | undefined;

  // scheme ":"  -- the first ":" before any "/", "?" or "#"
  let scanned = 0; // reference[0, scanned) holds no "?" or "#"
  for (; scanned < length; scanned++) {
    const c = reference.charCodeAt(scanned);
    if (c === 0x3a /* : */) {
      const candidate = reference.slice(0, scanned);
      if (isValidScheme(candidate)) {
        scheme = candidate;
        i = scanned + 1;
      }
      break;
    }
    if (c === 0x2f /* / */ || c === 0x3f /* ? */ || c === 0x23 /* # */) break;
  }
  if (scanned === length) return { path: reference }; // none of ":/?#": a path alone

  // "//" authority  -- up to the next "/", "?" or "#"
  // Every read is guarded by the length: charCodeAt past the end gives NaN, which deoptimises the compiled scan.
  let authority: string | undefined;
  if (i + 1 < length && reference.charCodeAt(i) === 0x2f && reference.charCodeAt(i + 1) === 0x2f) {
    let end = i + 2;
    while (end < length) {
      const c = reference.charCodeAt(end);
      if (c === 0x2f || c === 0x3f || c === 0x23) break;
      end++;
    }
    authority = reference.slice(i + 2, end);
    i = end;
  }

  // path  -- up to "?" or "#" (the engine's search for each: faster than a loop over a long path)
  let end = i > scanned ? i : scanned;
  const question = reference.indexOf('?', end);
  const hash = reference.indexOf('#', end);
  end = question === -1 ? (hash === -1 ? length : hash) : hash === -1 || question < hash ? question : hash;
  const path = reference.slice(i, end);
  i = end;

  // "?" query  -- up to "#"
  let query: string | undefined;
  if (i < length && reference.charCodeAt(i) === 0x3f) {
    const hash = reference.indexOf('#', i + 1);
    end = hash === -1 ? length : hash;
    query = reference.slice(i + 1, end);
    i = end;
  }

  // "#" fragment  -- the rest
  let fragment: string | undefined;
  if (i < length && reference.charCodeAt(i) === 0x23) fragment = reference.slice(i + 1);

  const result: UriComponents = { path };
  if (scheme !== undefined) result.scheme = scheme;
  if (authority !== undefined) result.authority = authority;
  if (query !== undefined) result.query = query;
  if (fragment !== undefined) result.fragment = fragment;
  return result;
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
