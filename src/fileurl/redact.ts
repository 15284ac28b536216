// Passwords in user information (RFC 3986 3.2.1: "deprecated", 7.5) are masked wherever a value is shown, in
// every spelling some consumer reads as an authority: "ftp://u:p@h/", but also "file:////u:p@h/" (RFC 8089
// E.3.2), "file://\\u:p@h\" and "ftp:\\u:p@h\" (WHATWG reads "\" as "/" in special schemes), "ftp:/u:p@h/" and
// "ftp:u:p@h/" (WHATWG needs no "//" for them), and with the ":" or "@" written as XML character references.
// userinfoPassword is the one recogniser of those spellings: masking uses it, and so does the
// password-in-userinfo rule (src/rules/authority.ts), so what is masked is what is reported.

const MASK = '****';

interface Span {
  start: number;
  end: number;
}

/** Where a password stands in a value's user information: `user` starts it, `colon` ends the user, `at` ends the password. */
export interface UserinfoPassword {
  user: number;
  colon: number;
  at: number;
}

const SCHEME = /^[A-Za-z][A-Za-z0-9+.-]*:/;
const isDelimiter = (c: string) => c === '/' || c === '\\' || c === '?' || c === '#';

/**
 * The password in what a lenient consumer takes as the authority: after the scheme and any run of "/" or "\",
 * up to the next "/", "\", "?" or "#"; the user information runs to its last "@" (WHATWG), the password from
 * the first ":" in it. A value with neither scheme nor leading slashes has no authority.
 */
export function userinfoPassword(uri: string): UserinfoPassword | null {
  let i = 0;
  while (i < uri.length && (uri[i] === ' ' || uri[i] === '\t' || uri[i] === '\n' || uri[i] === '\r')) i++;
  const scheme = SCHEME.exec(uri.slice(i));
  if (scheme) i += scheme[0].length;
  const slashes = i;
  while (i < uri.length && (uri[i] === '/' || uri[i] === '\\')) i++;
  if (!scheme && i === slashes) return null;
  let end = i;
  while (end < uri.length && !isDelimiter(uri[end]!)) end++;
  const at = uri.lastIndexOf('@', end - 1);
  if (at < i) return null;
  const colon = uri.indexOf(':', i);
  if (colon === -1 || colon > at) return null;
  return { user: i, colon, at };
}

function authorityPassword(uri: string): Span | null {
  const found = userinfoPassword(uri);
  return found && { start: found.colon, end: found.at };
}

// Any other "user:password@" standing after a boundary, in free text (a message, a fix's wording, a host name).
const LOOSE = /(^|[\s'"(/\\:,;=])([^\s'"/\\?#@:]*):([^\s'"/\\?#]*)@/g;

/** Schemes whose "scheme:local@domain" holds no user information. */
const OPAQUE: ReadonlySet<string> = new Set(['cid', 'mid', 'mailto', 'news', 'urn', 'tel', 'sip', 'sips', 'im', 'pres', 'xmpp']);

function passwordSpans(text: string): Span[] {
  const spans: Span[] = [];
  const first = authorityPassword(text);
  let from = 0;
  if (first) {
    spans.push(first);
    from = first.end + 1;
  }
  LOOSE.lastIndex = 0;
  const rest = text.slice(from);
  for (let m = LOOSE.exec(rest); m !== null; m = LOOSE.exec(rest)) {
    if (OPAQUE.has(m[2]!.toLowerCase())) continue; // cid:part@host is a Content-ID (RFC 2392), not a user
    const start = from + m.index + m[1]!.length + m[2]!.length;
    spans.push({ start, end: start + 1 + m[3]!.length });
  }
  return spans;
}

const PREDEFINED: Record<string, string> = { lt: '<', gt: '>', amp: '&', apos: "'", quot: '"' };

/** The text with XML character and predefined entity references replaced, and where each character came from. */
function decodeReferences(raw: string): { text: string; from: number[]; to: number[] } {
  let text = '';
  const from: number[] = [];
  const to: number[] = [];
  const re = /&(#[xX][0-9A-Fa-f]{1,6}|#[0-9]{1,7}|lt|gt|amp|apos|quot);/y;
  for (let i = 0; i < raw.length; ) {
    re.lastIndex = i;
    const m = raw[i] === '&' ? re.exec(raw) : null;
    let ch = raw[i]!;
    let next = i + 1;
    if (m) {
      const ref = m[1]!;
      const cp = ref[0] !== '#' ? -1 : ref[1] === 'x' || ref[1] === 'X' ? parseInt(ref.slice(2), 16) : parseInt(ref.slice(1), 10);
      ch = ref[0] !== '#' ? PREDEFINED[ref]! : cp <= 0x10ffff ? String.fromCodePoint(cp) : raw.slice(i, i + m[0].length);
      next = i + m[0].length;
    }
    for (let k = 0; k < ch.length; k++) {
      text += ch[k];
      from.push(i);
      to.push(next);
    }
    i = next;
  }
  return { text, from, to };
}

/**
 * "ftp://u:secret@h/x" becomes "ftp://u:****@h/x": for showing a value, a resolved URI or a message that may
 * carry a password. Works on XML-escaped text too (a diff of the file's bytes).
 */
export function redactPassword(uri: string): string {
  if (uri.indexOf('@') === -1 && uri.indexOf('&') === -1) return uri;
  const escaped = uri.indexOf('&') !== -1;
  const view = escaped ? decodeReferences(uri) : undefined;
  const spans = passwordSpans(view ? view.text : uri);
  if (spans.length === 0) return uri;
  let out = '';
  let copied = 0;
  for (const span of spans) {
    // Map back to the written text: the ":" and the "@" may each be a reference.
    const start = view ? view.from[span.start]! : span.start;
    const end = view ? view.from[span.end]! : span.end;
    const colonEnd = view ? view.to[span.start]! : span.start + 1;
    if (start < copied) continue;
    out += uri.slice(copied, colonEnd) + MASK;
    copied = end;
  }
  return out + uri.slice(copied);
}

/** Redacts every password in a free text (a parser's error message quoting the ticket). */
export const redactText = redactPassword;

/**
 * "ftp://u:secret@h/x" becomes "ftp://u@h/x": what every fix passes through (findings' and the value's), since a
 * fix is shown as values are and must never carry the password. A password the fix still holds elsewhere is
 * masked as redactPassword masks it: the backslash fix moves the "u:p@evil" of "ftp://host\u:p@evil/a.pdf" out
 * of the authority an RFC 3986 reader sees, into the path. A masked fix is shown, never written (see holdsPassword).
 */
export function stripPassword(uri: string): string {
  const span = uri.indexOf('@') === -1 ? null : authorityPassword(uri);
  return redactPassword(span ? uri.slice(0, span.start) + uri.slice(span.end) : uri);
}

/** Whether a value holds what redactPassword takes for a password, masked already or not: a fix that does is never written. */
export function holdsPassword(uri: string): boolean {
  if (uri.indexOf('@') === -1 && uri.indexOf('&') === -1) return false;
  return passwordSpans(uri.indexOf('&') === -1 ? uri : decodeReferences(uri).text).length > 0;
}
