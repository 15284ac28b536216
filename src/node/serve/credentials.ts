// serve's credentials: Basic users and Bearer tokens, read from files (or, for a token, an environment variable),
// never from the command line. Checking a request against them is auth.ts.

export interface Credentials {
  /** user and password pairs for Basic. */
  basic?: ReadonlyArray<{ user: string; password: string }>;
  /** Tokens for Bearer, each with the name the access log and the handler see (never the token). */
  bearer?: ReadonlyArray<{ name: string; token: string }>;
}

/** Whether any credential is configured. */
export function hasCredentials(credentials: Credentials | undefined): boolean {
  return Boolean(credentials?.basic?.length || credentials?.bearer?.length);
}

/** Basic credentials from a file's text: one `user:password` a line; blank lines and `#` comments skipped. */
export function parseBasicFile(text: string): Array<{ user: string; password: string }> | string {
  const out: Array<{ user: string; password: string }> = [];
  for (const [i, raw] of text.split(/\r?\n/).entries()) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) continue;
    const colon = line.indexOf(':');
    if (colon <= 0 || colon === line.length - 1) return `line ${i + 1} is not user:password`;
    out.push({ user: line.slice(0, colon), password: line.slice(colon + 1) });
  }
  return out.length ? out : 'it holds no user:password line';
}

// RFC 6750 2.1: b64token = 1*( ALPHA / DIGIT / "-" / "." / "_" / "~" / "+" / "/" ) *"="
const B64TOKEN = /^[A-Za-z0-9\-._~+/]+=*$/;

/** Bearer tokens from a file's text (or a variable's): one `token` or `name:token` a line; `#` comments skipped. */
export function parseBearerText(text: string): Array<{ name: string; token: string }> | string {
  const out: Array<{ name: string; token: string }> = [];
  for (const [i, raw] of text.split(/\r?\n/).entries()) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) continue;
    const colon = line.indexOf(':');
    const name = colon > 0 ? line.slice(0, colon) : `token-${out.length + 1}`;
    const token = line.slice(colon + 1);
    if (!B64TOKEN.test(token)) return `line ${i + 1} is not a bearer token (RFC 6750 2.1: letters, digits and -._~+/)`;
    out.push({ name, token });
  }
  return out.length ? out : 'it holds no token';
}
