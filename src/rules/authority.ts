// The authority and its host: a file URL's '//' and host, user information, port, the host's syntax, a
// host without a path (the appendix section 2.1 and Table 4; RFC 8089 section 2 and E.1; RFC 3986 3.2).
import { SIGN } from './signs.js';
import { classifyHost } from '../fileurl/host.js';
import { userinfoPassword } from '../fileurl/redact.js';
import { hasDriveSegment, isDriveAuthority } from '../fileurl/drive.js';
import { isLocalRoot } from './local-roots.js';
import { KIND } from './facts.js';
import { examples, isDoubledScheme, isUncAuthority, sev, withPath } from './helpers.js';
import type { Rule } from './types.js';
import { boundedMemo } from '../util/bounded-memo.js';

export const emptySegmentAfterHost: Rule = {
  meta: {
    code: 'empty-segment-after-host',
    title: "'//' after the host",
    description: "file://host//share/a.pdf has an empty first segment after the host: on Windows it would be the UNC path \\\\host\\\\share\\a.pdf, which names no share, and on Unix a path starting '//', whose meaning is up to the system. It comes from joining a host and a path that both carry a '/'; the file meant is file://host/share/a.pdf.",
    spec: 'RFC 8089 2; RFC 3986 3.3',
    severity: sev('warning', 'warning', 'warning'),
    fixable: true,
    examples: examples([{ value: 'file://host//share/a.pdf', offset: 11, fix: 'file://host/share/a.pdf' }], [{ value: 'file://host/share/a.pdf' }, { value: 'file:////host/share/a.pdf', options: { profile: 'lenient' } }]),
  },
  message: (a) => `The path after the host '${a.host}' starts with '//', an empty segment; write file://${a.host}/... with one '/'.`,
  when: SIGN.fileScheme,
  check(ctx, report) {
    const host = ctx.authority?.host;
    if (ctx.scheme !== 'file' || host === undefined || host === '' || !ctx.ref.path.startsWith('//')) return;
    if (isDriveAuthority(ctx.ref.authority!) || isUncAuthority(ctx.ref.authority!) || isDoubledScheme(ctx)) return;
    report({ offset: ctx.pathStart, args: { host }, fix: withPath(ctx, ctx.ref.path.replace(/^\/+/, '/')) });
  },
};

export const fileWithoutAuthority: Rule = {
  meta: {
    code: 'file-without-authority',
    title: "'file:' without '//'",
    description: "The appendix's grammar is \"file://\" [host] \"/\" fpath: file:/c:/folder/a.pdf has no host part (Table 4, example 21). RFC 8089 accepts this minimal form, so only the jdf profile reports it.",
    spec: 'JDF appendix 2.1; JDF appendix 4.3, Table 4 example 21; RFC 8089 2',
    severity: sev('error', null, null),
    fixable: true,
    examples: examples([
      { value: 'file:/c:/folder/a.pdf', offset: 5, fix: 'file:///c:/folder/a.pdf' },
      { value: 'file:/Users/me/a.pdf', offset: 5, fix: 'file:///Users/me/a.pdf' },
      { value: 'file:/host/share/x.pdf', offset: 5, fix: null, suggestions: ['file:///host/share/x.pdf', 'file://host/share/x.pdf'] },
    ], [{ value: 'file:///c:/folder/a.pdf' }, { value: 'file:/path/to/file', options: { profile: 'rfc8089' } }]),
  },
  message: (a) => a.server !== undefined
    ? `The host part is missing: '${a.server}' may be a server (file://${a.server}/...) or a folder on this machine (file:///${a.server}/...); only the ticket's author knows which, so both are suggested and neither is fixed.`
    : "The host part is missing: a file URL starts with 'file://'; write file:/// (empty host) or file://localhost/.",
  when: SIGN.fileScheme,
  check(ctx, report) {
    if (ctx.scheme !== 'file' || ctx.ref.authority !== undefined || !ctx.ref.path.startsWith('/')) return;
    if (ctx.ref.path.startsWith('//')) return;
    const local = withPath(ctx, '//' + ctx.ref.path);
    const server = twoMeanings(ctx.ref.path);
    if (server === null) return report({ offset: ctx.pathStart, fix: local });
    // RFC 8089 2 reads file:/path as a path here; a missing "/" makes a UNC share (E.3.1) read so as well.
    report({ offset: ctx.pathStart, args: { server }, suggestions: [
      { desc: `the folder /${server} on this machine`, fix: local },
      { desc: `a UNC share on the server '${server}'`, fix: withPath(ctx, '/' + ctx.ref.path) },
    ] });
  },
};

/**
 * The first segment of a "file:/" path that may name a UNC server as well as a folder here: a server and a share
 * before more (/host/share/x.pdf), no drive letter, no folder every POSIX or macOS root holds (isLocalRoot). Null
 * where the path has one meaning.
 */
function twoMeanings(path: string): string | null {
  const names = path.split('/');
  if (names.length < 4 || names[1] === '' || names[2] === '' || hasDriveSegment(path) || isLocalRoot(names[1]!)) return null;
  return names[1]!;
}

/** The WHATWG special schemes: "\\" is "/" in them and "//" is optional, so "ftp:\\u:p@h\\" has user information too. */
const SPECIAL = new Set(['file', 'ftp', 'http', 'https', 'ws', 'wss']);

export const passwordInUserinfo: Rule = {
  meta: {
    code: 'password-in-userinfo',
    title: 'Password in the URL',
    description: 'user:password@host puts a secret in the ticket; RFC 3986 3.2.1 deprecates it and RFC 8089 E.1 warns of the exposure. Found in every spelling some consumer reads as user information (file:////u:p@h/ and file:\\\\u:p@h\\ too), the same ones that are masked: the password is never repeated in any message, fix or report. The fix removes the password; in a file URL, which has no place for a user name either (userinfo-in-file-url), the whole user information.',
    spec: 'RFC 3986 3.2.1; RFC 8089 E.1',
    severity: sev('error', 'error', 'error'),
    fixable: true,
    examples: examples([
      { value: 'file://user:secret@host.example.com/path/to/file', offset: 7, fix: 'file://host.example.com/path/to/file' },
      { value: 'ftp://u:p@cip4.org/a.pdf', offset: 6, fix: 'ftp://u@cip4.org/a.pdf' },
      { value: 'file:////u:p@h/a.pdf', offset: 9, fix: 'file:////h/a.pdf', options: { profile: 'lenient' } },
      { value: 'file:\\\\u:p@h\\a.pdf', offset: 7, fix: 'file:\\\\h\\a.pdf', options: { profile: 'lenient' } },
      { value: 'ftp://host\\user:p@evil/', offset: 6, fix: null },
    ], [{ value: 'file://user@host.example.com/path/to/file' }, { value: 'cid:a:b@c' }]),
  },
  message: () => 'The URL carries a password in its user information (not shown here); remove it and give the credentials to the consumer another way.',
  when: SIGN.at,
  check(ctx, report) {
    if (!ctx.facts.has(KIND.at)) return; // user information ends at an '@'
    if (!ctx.authority?.userinfo?.includes(':') && !(ctx.scheme !== undefined && SPECIAL.has(ctx.scheme))) return;
    const found = userinfoPassword(ctx.core);
    if (found === null) {
      // RFC 3986 3.2: the authority runs to the first "/", so "ftp://host\user:p@evil/" sends the password to the
      // host "evil", where WHATWG reads "\" as "/" and a path: reported (it is masked), no fix (the two readings
      // do not even agree on the host).
      if (ctx.authority?.userinfo?.includes(':')) report({ offset: ctx.lead + ctx.core.indexOf('//') + 2 });
      return;
    }
    const from = ctx.scheme === 'file' ? found.user : found.colon;
    report({ offset: ctx.lead + found.user, fix: ctx.withCore(ctx.core.slice(0, from) + ctx.core.slice(ctx.scheme === 'file' ? found.at + 1 : found.at)) });
  },
};

export const userinfoInFileUrl: Rule = {
  meta: {
    code: 'userinfo-in-file-url',
    title: 'User name in a file URL',
    description: 'The file URL grammars (RFC 1738, RFC 8089 section 2) have no user information; RFC 8089 E.1 lists it as a nonstandard extension.',
    spec: 'RFC 8089 E.1; JDF appendix 2.1',
    severity: sev('error', 'error', 'warning'),
    fixable: false,
    examples: examples([{ value: 'file://user@host.example.com/path/to/file', offset: 7 }], [{ value: 'ftp://user@cip4.org/a.pdf' }, { value: 'file://host.example.com/path/to/file' }]),
  },
  message: () => 'A file URL has no place for a user name (RFC 8089 E.1); remove it and name only the host.',
  when: SIGN.fileScheme,
  check(ctx, report) {
    const userinfo = ctx.authority?.userinfo;
    if (ctx.scheme !== 'file' || userinfo === undefined || userinfo.indexOf(':') !== -1) return;
    report({ offset: ctx.authorityStart });
  },
};

export const portInFileUrl: Rule = {
  meta: {
    code: 'port-in-file-url',
    title: 'Port in a file URL',
    description: 'A file URL names a host, never a port (RFC 8089 section 2: file-auth = "localhost" / host).',
    spec: 'RFC 8089 2; JDF appendix 2.1',
    severity: sev('error', 'error', 'error'),
    fixable: false,
    examples: examples([{ value: 'file://server:445/share/a.pdf', offset: 13 }], [{ value: 'file://server/share/a.pdf' }, { value: 'http://a:8080/b.pdf' }]),
  },
  message: () => 'A file URL cannot name a port; remove the ":port" after the host.',
  when: SIGN.fileScheme,
  check(ctx, report) {
    const authority = ctx.ref.authority;
    if (ctx.scheme !== 'file' || authority === undefined || ctx.authority?.port === undefined) return;
    if (isDriveAuthority(authority) || isUncAuthority(authority) || isDoubledScheme(ctx)) return;
    report({ offset: ctx.authorityStart + authority.lastIndexOf(':') });
  },
};

/** A host classified once per distinct host. */
const hostClass = boundedMemo(classifyHost);

export const invalidHost: Rule = {
  meta: {
    code: 'invalid-host',
    title: 'Host is not a valid host',
    description: 'The host must be a registered name, an IPv4 address or a bracketed IPv6 literal (RFC 3986 3.2.2).',
    spec: 'RFC 3986 3.2.2; JDF appendix 2.1',
    severity: sev('error', 'error', 'error'),
    fixable: false,
    examples: examples([{ value: 'file://[fe80::1/a.pdf', offset: 7 }, { value: 'file://ser ver/a.pdf', offset: 7 }], [{ value: 'file://[::1]/a.pdf' }, { value: 'file://file_server/folder/a.pdf' }, { value: 'File://212.34.55.66/folder/a.pdf' }]),
  },
  message: () => 'The host is not a valid host name, IPv4 address or [IPv6] literal (RFC 3986 3.2.2); correct it.',
  when: SIGN.authority,
  check(ctx, report) {
    const authority = ctx.ref.authority;
    if (authority === undefined || ctx.authority === undefined) return;
    if (isDriveAuthority(authority) || isUncAuthority(authority)) return;
    if (hostClass(ctx.authority.host) !== 'invalid') return;
    report({ offset: ctx.authorityStart + (ctx.authority.userinfo !== undefined ? ctx.authority.userinfo.length + 1 : 0) });
  },
};

export const authorityWithoutPath: Rule = {
  meta: {
    code: 'authority-without-path',
    title: 'Host without a path',
    description: "In file://a.pdf, 'a.pdf' is taken as the host and there is no path (appendix Table 4, example 27): no file is named. For a relative network-path reference (//host) this is a warning.",
    spec: 'JDF appendix 4.3, Table 4 example 27; RFC 8089 2',
    severity: sev('error', 'error', 'error'),
    fixable: false,
    examples: examples([{ value: 'file://a.pdf', offset: 7 }, { value: '//machine2', offset: 2 }], [{ value: 'file:///a.pdf', options: { platform: 'unix' } }, { value: '//machine2/folder2/file.pdf' }]),
  },
  message: (a) => `'${a.host}' is taken as the host name and there is no path, so no file is named; write file:///${a.host} for a local file, or add the path after the host.`,
  when: SIGN.authority,
  check(ctx, report) {
    const authority = ctx.ref.authority;
    if (authority === undefined || ctx.ref.path !== '' || ctx.core === '') return;
    if (isDriveAuthority(authority) || isUncAuthority(authority)) return;
    if (ctx.scheme !== 'file' && ctx.scheme !== undefined) return;
    report({
      offset: ctx.authorityStart,
      args: { host: ctx.authority?.host ?? authority },
      ...(ctx.scheme === undefined ? { severity: 'warning' as const } : {}),
    });
  },
};
