// HTTP authentication of `serve`: Basic (RFC 7617) and Bearer (RFC 6750) against the credentials
// (credentials.ts). Every comparison is timing-safe and runs
// over every credential, so neither a password nor which user exists shows in the time an answer takes.
import { createHash, timingSafeEqual } from 'node:crypto';
import type { Credentials } from './credentials.js';

/** Equal lengths for timingSafeEqual, whatever was sent: both sides hashed. */
function sameSecret(given: string, expected: string): boolean {
  const digest = (s: string) => createHash('sha256').update(s, 'utf8').digest();
  return timingSafeEqual(digest(given), digest(expected));
}

// RFC 7617 2: the credentials are base64 of user-id ":" password; the user-id has no colon.
function basicUser(encoded: string, credentials: Credentials): string | undefined {
  const decoded = Buffer.from(encoded, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return undefined;
  const user = decoded.slice(0, colon);
  const password = decoded.slice(colon + 1);
  let found: string | undefined;
  for (const entry of credentials.basic ?? []) {
    // Both compared every time (no short circuit), for every entry.
    const ok = Number(sameSecret(user, entry.user)) & Number(sameSecret(password, entry.password));
    if (ok && found === undefined) found = entry.user;
  }
  return found;
}

function bearerUser(token: string, credentials: Credentials): string | undefined {
  let found: string | undefined;
  for (const entry of credentials.bearer ?? []) {
    if (sameSecret(token, entry.token) && found === undefined) found = entry.name;
  }
  return found;
}

/** The user an Authorization header proves, or undefined when it proves none. */
export function authenticate(header: string | undefined, credentials: Credentials): string | undefined {
  // RFC 7235 2.1: auth-scheme, case-insensitive, then the credentials.
  const match = /^\s*(\S+)\s+(\S+)\s*$/.exec(header ?? '');
  if (!match) return undefined;
  const scheme = match[1]!.toLowerCase();
  if (scheme === 'basic' && credentials.basic?.length) return basicUser(match[2]!, credentials);
  if (scheme === 'bearer' && credentials.bearer?.length) return bearerUser(match[2]!, credentials);
  return undefined;
}

/** The WWW-Authenticate challenges for a 401 (RFC 7235 4.1), one per scheme configured. */
export function challenges(credentials: Credentials): string {
  const out: string[] = [];
  if (credentials.basic?.length) out.push('Basic realm="jdf-filespec", charset="UTF-8"');
  if (credentials.bearer?.length) out.push('Bearer realm="jdf-filespec"');
  return out.join(', ');
}
