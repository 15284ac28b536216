import { parseAuthority, parseReference } from '../uri/parse.js';

const MASK = '****';

/** Where the password of a "user:password@" authority sits in `uri`, or null when there is none. */
function passwordSpan(uri: string): { start: number; end: number } | null {
  if (uri.indexOf('@') === -1) return null;
  const ref = parseReference(uri.trim());
  if (ref.authority === undefined) return null;
  const userinfo = parseAuthority(ref.authority).userinfo;
  if (userinfo === undefined) return null;
  const colon = userinfo.indexOf(':');
  if (colon === -1) return null;
  const authorityStart = uri.indexOf('//' + ref.authority) + 2;
  return { start: authorityStart + colon, end: authorityStart + userinfo.length };
}

/** "ftp://u:secret@h/x" becomes "ftp://u:****@h/x": for showing a value that carried a password. */
export function redactPassword(uri: string): string {
  const span = passwordSpan(uri);
  return span ? uri.slice(0, span.start) + ':' + MASK + uri.slice(span.end) : uri;
}

/** "ftp://u:secret@h/x" becomes "ftp://u@h/x": for fixes, which must never carry the password. */
export function stripPassword(uri: string): string {
  const span = passwordSpan(uri);
  return span ? uri.slice(0, span.start) + uri.slice(span.end) : uri;
}
