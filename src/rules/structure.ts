// The shape of the reference: scheme, authority, drive letters, UNC forms and dot segments
// (the appendix sections 2 and 4.3, RFC 8089 section 2 and appendix E, RFC 3986 sections 3 and 4.2).
import { decodeSegment } from '../escape/percent.js';
import { classifyHost } from '../fileurl/host.js';
import { removeDotSegmentsTraced } from '../uri/resolve.js';
import { drivePipeIndex } from './characters.js';
import { examples, sev } from './helpers.js';
import type { CheckContext, Rule } from './types.js';

/** Schemes a FileSpec/@URL may carry (JDF FileSpec; appendix 4.6: "ftp://...", "cid:pdl"). */
export const KNOWN_SCHEMES: ReadonlySet<string> = new Set(['file', 'http', 'https', 'ftp', 'cid', 'mailto']);

/** The schemas' limit: jdftyp:URL and jdftyp:URI restrict xs:anyURI to maxLength 4095 (JDF 1.3 and later). */
export const MAX_URL_LENGTH = 4095;

/** "file://file:/c:/..." : the scheme written twice, so that "file:" becomes a host with an empty port. */
const isDoubledScheme = (ctx: CheckContext): boolean => ctx.scheme === 'file' && ctx.ref.authority !== undefined && /^file:$/i.test(ctx.ref.authority);

const isDriveAuthority = (authority: string): boolean =>
  /^[A-Za-z][:|]/.test(authority) && (authority.length === 2 || authority[2] === '\\');

const isUncAuthority = (authority: string): boolean => authority.startsWith('\\');

/** The core with its path replaced. */
function withPath(ctx: CheckContext, path: string): string {
  const start = ctx.pathStart - ctx.lead;
  return ctx.withCore(ctx.core.slice(0, start) + path + ctx.core.slice(start + ctx.ref.path.length));
}

/** "c:" or "c|" (or escaped, "c%3a") as the first segment of an absolute path, however the separator after it is written. */
function hasDriveSegment(path: string): boolean {
  return /^\/[A-Za-z](:|\||%3[aA]|%7[cC])(\/|\\|%2[fF]|%5[cC]|$)/.test(path);
}

export const emptyUrl: Rule = {
  meta: {
    code: 'empty-url',
    title: 'Empty URL',
    description: 'An empty reference resolves to the base itself (RFC 3986 5.2.2), a folder rather than a file.',
    spec: 'JDF appendix 4.6',
    severity: sev('error', 'error', 'error'),
    fixable: false,
    examples: examples([{ value: '' }, { value: '   ' }], [{ value: 'a.pdf' }]),
  },
  message: () => 'The URL is empty; name the file it refers to.',
  check(ctx, report) {
    if (ctx.core === '') report({ offset: 0 });
  },
};

export const driveLetterAsScheme: Rule = {
  meta: {
    code: 'drive-letter-as-scheme',
    title: 'Windows path used as URL',
    description: "A value like c:\\folder\\a.pdf or c:/folder/a.pdf is a Windows path, not a URL: a URL parser reads 'c:' as a scheme (appendix Table 3: \"g:h\" is a URI with scheme g). Write it as file:///c:/folder/a.pdf.",
    spec: 'JDF appendix 4.2, Table 3; RFC 8089 E.2.1',
    severity: sev('error', 'error', 'error'),
    fixable: true,
    examples: examples([{ value: 'c:\\folder\\a.pdf' }, { value: 'C:/jobs/a.pdf' }], [{ value: 'file:///c:/folder/a.pdf' }, { value: 'cid:pdl' }]),
  },
  message: (a) => `'${a.drive}' is a drive letter, not a URL scheme: this is a Windows path; write it as a file URL (file:///${a.drive}/...).`,
  check(ctx, report) {
    if (ctx.scheme === undefined || ctx.scheme.length !== 1) return;
    report({ offset: ctx.lead, args: { drive: ctx.ref.scheme + ':' }, fix: ctx.withCore('file:///' + ctx.core) });
  },
};

export const uncPathAsUrl: Rule = {
  meta: {
    code: 'unc-path-as-url',
    title: 'UNC path used as URL',
    description: 'A value like \\\\server\\share\\a.pdf is a Windows UNC path, not a URL. RFC 8089 E.3.1 maps it to file://server/share/a.pdf.',
    spec: 'RFC 8089 E.3.1; JDF appendix Table 2 example 2',
    severity: sev('error', 'error', 'error'),
    fixable: true,
    examples: examples([{ value: '\\\\file_server\\folder\\a.pdf' }], [{ value: 'file://file_server/folder/a.pdf' }, { value: '//file_server/folder/a.pdf' }]),
  },
  message: (a) => `This is a UNC path, not a URL; write it as file://${a.host}/... (RFC 8089 E.3.1).`,
  check(ctx, report) {
    if (ctx.scheme !== undefined || !ctx.core.startsWith('\\\\')) return;
    const rest = ctx.core.slice(2).replace(/\\/g, '/');
    report({ offset: ctx.lead, args: { host: rest.split('/')[0]! }, fix: ctx.withCore('file://' + rest) });
  },
};

export const colonInFirstSegment: Rule = {
  meta: {
    code: 'colon-in-first-segment',
    title: "':' in the first segment of a relative path",
    description: "A relative path whose first segment holds ':' can be taken for a scheme; RFC 3986 4.2 forbids it and the appendix's Table 6 writes the Unix file 'foo:' as './foo:'.",
    spec: 'JDF appendix 4.5, Table 6; RFC 3986 4.2',
    severity: sev('error', 'error', 'error'),
    fixable: true,
    examples: examples([{ value: '1st:proof.pdf' }, { value: 'my file:a.pdf' }], [{ value: './foo:' }, { value: 'folder/a:b.pdf' }]),
  },
  message: () => "The first segment of this relative path holds ':', so it can be read as a scheme; write it as './' followed by the path (Table 6).",
  check(ctx, report) {
    if (ctx.scheme !== undefined || ctx.kind !== 'relative-path') return;
    const slash = ctx.core.indexOf('/');
    const first = slash === -1 ? ctx.core : ctx.core.slice(0, slash);
    const colon = first.indexOf(':');
    if (colon === -1 || ctx.core.startsWith('\\\\')) return;
    report({ offset: ctx.lead + colon, fix: ctx.withCore('./' + ctx.core) });
  },
};

export const unknownScheme: Rule = {
  meta: {
    code: 'unknown-scheme',
    title: 'Scheme a JDF consumer may not know',
    description: "A JDF URL is a file, http, https or ftp URL, a cid: MIME part or (for JMF endpoints and notifications) a mailto: address. Another scheme is passed through unresolved; if 'foo:' was meant as a file name, write './foo:' (Table 6). In a ticket, a URL other than FileSpec/@URL, Preview/@URL or a folder (a NodeInfo/@Route, a JMF endpoint) may use a vendor's own scheme (Prinect's pt://): there it is info.",
    spec: 'JDF appendix 4.6; JDF appendix 4.5, Table 6',
    severity: sev('warning', 'warning', 'warning'),
    fixable: false,
    examples: examples([{ value: 'foo:bar.pdf' }, { value: 'smb://server/share/a.pdf' }], [{ value: 'cid:pdl' }, { value: 'ftp://cip4.org/pub/a.pdf' }]),
  },
  message: (a) => (a.endpoint
    ? `'${a.scheme}:' is a scheme of its own, not file, http, https, ftp, cid or mailto: only a consumer that knows it can use this URL.`
    : `'${a.scheme}:' is not a scheme JDF consumers read (file, http, https, ftp, cid, mailto); if it is part of a file name, write './' before it.`),
  check(ctx, report) {
    if (ctx.scheme === undefined || ctx.scheme.length < 2 || KNOWN_SCHEMES.has(ctx.scheme)) return;
    report({ offset: ctx.lead, args: { scheme: ctx.ref.scheme! } });
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
    examples: examples([{ value: 'file:/c:/folder/a.pdf' }, { value: 'file:/path/to/file' }], [{ value: 'file:///c:/folder/a.pdf' }, { value: 'file:/path/to/file', options: { profile: 'rfc8089' } }]),
  },
  message: () => "The host part is missing: a file URL starts with 'file://'; write file:/// (empty host) or file://localhost/.",
  check(ctx, report) {
    if (ctx.scheme !== 'file' || ctx.ref.authority !== undefined || !ctx.ref.path.startsWith('/')) return;
    if (ctx.ref.path.startsWith('//')) return;
    report({ offset: ctx.pathStart, fix: withPath(ctx, '//' + ctx.ref.path) });
  },
};

export const driveWithoutSlash: Rule = {
  meta: {
    code: 'drive-without-slash',
    title: "'file:c:/' minimal drive form",
    description: 'file:c:/path/to/file is the nonstandard minimal DOS form of RFC 8089 E.2; the standard form is file:///c:/path/to/file.',
    spec: 'RFC 8089 E.2; JDF appendix 2.1',
    severity: sev('error', 'error', 'warning'),
    fixable: true,
    examples: examples([{ value: 'file:c:/path/to/file' }, { value: 'file:c|/path/to/file' }], [{ value: 'file:///c:/path/to/file' }]),
  },
  message: () => "A drive letter straight after 'file:' is a nonstandard form (RFC 8089 E.2); write file:///c:/... .",
  check(ctx, report) {
    if (ctx.scheme !== 'file' || ctx.ref.authority !== undefined) return;
    if (!/^[A-Za-z][:|](\/|$)/.test(ctx.ref.path)) return;
    report({ offset: ctx.pathStart, fix: withPath(ctx, '///' + ctx.ref.path) });
  },
};

export const fileRelativePath: Rule = {
  meta: {
    code: 'file-url-relative-path',
    title: 'file: URL with a relative path',
    description: 'A URL with a scheme must have an absolute path (appendix 2.1); file:a.pdf is neither a file URL nor a relative reference. Drop the scheme to make it relative, or give the full path.',
    spec: 'JDF appendix 2.1; RFC 8089 2',
    severity: sev('error', 'error', 'error'),
    fixable: false,
    examples: examples([{ value: 'file:a.pdf' }, { value: 'file:' }], [{ value: 'a.pdf' }, { value: 'file:///a.pdf', options: { platform: 'unix' } }]),
  },
  message: () => "A file URL needs an absolute path; drop 'file:' to make the reference relative, or write the whole path.",
  check(ctx, report) {
    if (ctx.scheme !== 'file' || ctx.ref.authority !== undefined) return;
    const p = ctx.ref.path;
    if (p.startsWith('/') || /^[A-Za-z][:|](\/|$)/.test(p)) return;
    report({ offset: ctx.pathStart });
  },
};

export const uncInAuthority: Rule = {
  meta: {
    code: 'unc-in-authority',
    title: 'UNC path pasted after file://',
    description: 'file://\\\\server\\share\\a.pdf pastes a Windows UNC path into a URL. The server is the host: file://server/share/a.pdf (RFC 8089 E.3.1).',
    spec: 'RFC 8089 E.3.1, E.4',
    severity: sev('error', 'error', 'warning'),
    fixable: true,
    examples: examples([{ value: 'file://\\\\HOST\\share\\x.pdf' }], [{ value: 'file://HOST/share/x.pdf' }]),
  },
  message: (a) => `A UNC path is pasted after 'file://'; the server is the host: write file://${a.host}/... (RFC 8089 E.3.1).`,
  check(ctx, report) {
    const authority = ctx.ref.authority;
    if (authority === undefined || !isUncAuthority(authority)) return;
    const rest = (authority.replace(/^\\+/, '') + ctx.ref.path).replace(/\\/g, '/');
    const start = ctx.authorityStart - ctx.lead;
    const fixed = ctx.core.slice(0, start) + rest + ctx.core.slice(ctx.pathStart - ctx.lead + ctx.ref.path.length);
    report({ offset: ctx.authorityStart, args: { host: rest.split('/')[0]! }, fix: ctx.withCore(fixed) });
  },
};

export const uncPathInPath: Rule = {
  meta: {
    code: 'unc-path-in-path',
    title: 'UNC string in the path (file:////server/...)',
    description: 'file:////server/share/a.pdf and file://///server/... carry a whole UNC string in the path (RFC 8089 E.3.2, the Firefox form). The standard form makes the server the host: file://server/share/a.pdf.',
    spec: 'RFC 8089 E.3.2',
    severity: sev('error', 'error', 'warning'),
    fixable: true,
    examples: examples([{ value: 'file:////host.example.com/path/to/file' }, { value: 'file://///host.example.com/path/to/file' }], [{ value: 'file://host.example.com/path/to/file' }]),
  },
  message: (a) => `The server '${a.host}' is written in the path (RFC 8089 E.3.2); make it the host: file://${a.host}/... .`,
  check(ctx, report) {
    if (ctx.scheme !== 'file' && ctx.scheme !== undefined) return;
    const inPath = ctx.ref.authority === '' ? ctx.ref.path : ctx.scheme === 'file' && ctx.ref.authority === undefined ? ctx.ref.path : undefined;
    if (inPath === undefined || !inPath.startsWith('//')) return;
    const rest = inPath.replace(/^\/+/, '');
    if (rest === '') return;
    const start = ctx.scheme ? ctx.ref.scheme!.length + 1 : 0;
    report({
      offset: ctx.pathStart,
      args: { host: rest.split('/')[0]! },
      fix: ctx.withCore(ctx.core.slice(0, start) + '//' + rest + ctx.core.slice(ctx.pathStart - ctx.lead + inPath.length)),
    });
  },
};

export const driveLetterAsHost: Rule = {
  meta: {
    code: 'drive-letter-as-host',
    title: 'Drive letter taken as host',
    description: "In file://c:/folder/a.pdf, 'c:' is taken as the host name (appendix Table 4, example 22). The drive belongs in the path: file:///c:/folder/a.pdf.",
    spec: 'JDF appendix 4.3, Table 4 example 22',
    severity: sev('error', 'error', 'error'),
    fixable: true,
    examples: examples([{ value: 'file://c:/folder/a.pdf' }, { value: 'file://H:\\docs\\a.pdf' }], [{ value: 'file:///c:/folder/a.pdf' }, { value: 'file://localhost/c:/folder/a.pdf' }]),
  },
  message: (a) => `'${a.drive}' is taken as the host name; a drive letter belongs in the path: write file:///${a.drive}/... .`,
  check(ctx, report) {
    const authority = ctx.ref.authority;
    if (authority === undefined || !isDriveAuthority(authority)) return;
    if (ctx.scheme !== 'file' && ctx.scheme !== undefined) return;
    const start = ctx.authorityStart - ctx.lead;
    report({
      offset: ctx.authorityStart,
      args: { drive: authority.slice(0, 2) },
      fix: ctx.withCore(ctx.core.slice(0, start) + '/' + ctx.core.slice(start)),
    });
  },
};

export const passwordInUserinfo: Rule = {
  meta: {
    code: 'password-in-userinfo',
    title: 'Password in the URL',
    description: 'user:password@host puts a secret in the ticket; RFC 3986 3.2.1 deprecates it and RFC 8089 E.1 warns of the exposure. The password is never repeated in any message, fix or report.',
    spec: 'RFC 3986 3.2.1; RFC 8089 E.1',
    severity: sev('error', 'error', 'error'),
    fixable: true,
    examples: examples([{ value: 'file://user:secret@host.example.com/path/to/file' }, { value: 'ftp://u:p@cip4.org/a.pdf' }], [{ value: 'file://user@host.example.com/path/to/file' }]),
  },
  message: () => 'The URL carries a password in its user information (not shown here); remove it and give the credentials to the consumer another way.',
  check(ctx, report) {
    const userinfo = ctx.authority?.userinfo;
    if (userinfo === undefined) return;
    const colon = userinfo.indexOf(':');
    if (colon === -1) return;
    const start = ctx.authorityStart - ctx.lead;
    report({
      offset: ctx.authorityStart,
      fix: ctx.withCore(ctx.core.slice(0, start + colon) + ctx.core.slice(start + userinfo.length)),
    });
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
    examples: examples([{ value: 'file://user@host.example.com/path/to/file' }], [{ value: 'ftp://user@cip4.org/a.pdf' }, { value: 'file://host.example.com/path/to/file' }]),
  },
  message: () => 'A file URL has no place for a user name (RFC 8089 E.1); remove it and name only the host.',
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
    examples: examples([{ value: 'file://server:445/share/a.pdf' }], [{ value: 'file://server/share/a.pdf' }, { value: 'http://a:8080/b.pdf' }]),
  },
  message: () => 'A file URL cannot name a port; remove the ":port" after the host.',
  check(ctx, report) {
    const authority = ctx.ref.authority;
    if (ctx.scheme !== 'file' || authority === undefined || ctx.authority?.port === undefined) return;
    if (isDriveAuthority(authority) || isUncAuthority(authority) || isDoubledScheme(ctx)) return;
    report({ offset: ctx.authorityStart + authority.lastIndexOf(':') });
  },
};

export const invalidHost: Rule = {
  meta: {
    code: 'invalid-host',
    title: 'Host is not a valid host',
    description: 'The host must be a registered name, an IPv4 address or a bracketed IPv6 literal (RFC 3986 3.2.2).',
    spec: 'RFC 3986 3.2.2; JDF appendix 2.1',
    severity: sev('error', 'error', 'error'),
    fixable: false,
    examples: examples([{ value: 'file://[fe80::1/a.pdf' }, { value: 'file://ser ver/a.pdf' }], [{ value: 'file://[::1]/a.pdf' }, { value: 'file://file_server/folder/a.pdf' }, { value: 'File://212.34.55.66/folder/a.pdf' }]),
  },
  message: () => 'The host is not a valid host name, IPv4 address or [IPv6] literal (RFC 3986 3.2.2); correct it.',
  check(ctx, report) {
    const authority = ctx.ref.authority;
    if (authority === undefined || ctx.authority === undefined) return;
    if (isDriveAuthority(authority) || isUncAuthority(authority)) return;
    if (classifyHost(ctx.authority.host) !== 'invalid') return;
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
    examples: examples([{ value: 'file://a.pdf' }, { value: '//machine2' }], [{ value: 'file:///a.pdf', options: { platform: 'unix' } }, { value: '//machine2/folder2/file.pdf' }]),
  },
  message: (a) => `'${a.host}' is taken as the host name and there is no path, so no file is named; write file:///${a.host} for a local file, or add the path after the host.`,
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

export const dotSegmentInAbsolute: Rule = {
  meta: {
    code: 'dot-segment-in-absolute-url',
    title: "'.' or '..' in an absolute URL",
    description: "An absolute URL must not contain '.' or '..' segments; they belong to relative references (appendix Table 4, example 25). The fix removes them (RFC 3986 5.2.4) when that does not climb above the root.",
    spec: 'JDF appendix 2.1; JDF appendix 4.3, Table 4 example 25; RFC 3986 5.2.4',
    severity: sev('error', 'warning', 'warning'),
    fixable: true,
    examples: examples([{ value: 'file:///../a.pdf' }, { value: 'file:///c:/a/./b/../c.pdf' }], [{ value: '../a.pdf' }, { value: 'File:///HD1/%2E%2E' }, { value: 'file:///c:/a..b/c.pdf' }]),
  },
  message: (a) => `An absolute URL must not contain '${a.segment}' segments; ${a.fixable ? 'write the path without them' : 'it climbs above the root, so name the file directly'}.`,
  check(ctx, report) {
    if (ctx.ref.authority === undefined && ctx.scheme === undefined) return;
    if (ctx.scheme !== undefined && ctx.scheme !== 'file') return;
    const path = ctx.ref.path;
    const segments = path.split('/');
    const index = segments.findIndex((s) => s === '.' || s === '..');
    if (index === -1) return;
    const result = removeDotSegmentsTraced(path);
    const fixable = result.aboveRoot === 0 && !result.removedDrive;
    const offset = ctx.pathStart + segments.slice(0, index).join('/').length + (index > 0 ? 1 : 0);
    report({
      offset,
      args: { segment: segments[index]!, fixable: fixable ? 1 : '' },
      ...(fixable ? { fix: withPath(ctx, result.path) } : {}),
    });
  },
};

export const escapedSlash: Rule = {
  meta: {
    code: 'escaped-slash',
    title: "Escaped '/' (%2F) in the path",
    description: "'/' must not be escaped when it is the separator (appendix Table 4, example 28): %2F turns the path into one segment. Only a Mac file name may hold '/' (Table 5), so for the mac platform this is a warning.",
    spec: 'JDF appendix 4.3, Table 4 example 28; JDF appendix 4.4, Table 5',
    severity: sev('error', 'warning', 'warning'),
    fixable: true,
    examples: examples([{ value: 'file:///c%3a%2ffolder%2fa%2epdf' }, { value: 'folder%2Fa.pdf' }], [{ value: 'file:///c%3a/folder/a%2epdf' }, { value: 'http://a/b%2Fc' }]),
  },
  message: () => "'/' is escaped as %2F, which makes the path one segment; write the separator as '/'.",
  check(ctx, report) {
    if (!ctx.isFileLike) return;
    const i = ctx.ref.path.search(/%2[fF]/);
    if (i === -1) return;
    report({
      offset: ctx.pathStart + i,
      fix: withPath(ctx, ctx.ref.path.replace(/%2[fF]/g, '/')),
      ...(ctx.platform === 'mac' && ctx.profile === 'jdf' ? { severity: 'warning' as const } : {}),
    });
  },
};

export const verticalLineDrive: Rule = {
  meta: {
    code: 'vertical-line-drive',
    title: "'|' instead of ':' after a drive letter",
    description: "file:///c|/path is an old form (RFC 8089 E.2.2) that RFC 3986 forbids. To update it, replace '|' with ':'.",
    spec: 'RFC 8089 E.2.2',
    severity: sev('error', 'error', 'warning'),
    fixable: true,
    examples: examples([{ value: 'file:///c|/path/to/file' }, { value: 'file:/c|/path/to/file' }], [{ value: 'file:///c:/path/to/file' }, { value: 'file:///c%7C/a.pdf' }]),
  },
  message: () => "The drive letter is followed by '|'; write ':' instead (RFC 8089 E.2.2).",
  check(ctx, report) {
    if (ctx.scheme !== 'file' && ctx.scheme !== undefined) return;
    const i = drivePipeIndex(ctx);
    if (i === -1) return;
    report({ offset: ctx.lead + i, fix: ctx.withCore(ctx.core.slice(0, i) + ':' + ctx.core.slice(i + 1)) });
  },
};

export const rootWithoutDrive: Rule = {
  meta: {
    code: 'root-without-drive',
    title: 'Local path without drive or volume',
    description: 'file:///a.pdf has no well-defined meaning on Windows or Mac OS: which drive, which disk? On Unix it is /a.pdf (appendix Table 4, example 26). An error for the windows platform (no drive letter) and mac (no volume), a warning for any, silent for unix; the profile does not change it.',
    spec: 'JDF appendix 4.3, Table 4 example 26; RFC 8089 D.2',
    severity: sev('warning', 'warning', 'warning'),
    fixable: false,
    examples: examples(
      [{ value: 'file:///a.pdf' }, { value: 'file:///a.pdf', options: { platform: 'windows' } }, { value: 'file:///pub/a.pdf', options: { platform: 'windows' } }],
      [{ value: 'file:///a.pdf', options: { platform: 'unix' } }, { value: 'file:///c:/a.pdf', options: { platform: 'windows' } }, { value: 'file:///HD1/bar', options: { platform: 'mac' } }],
    ),
  },
  message: (a) => `This local path has no ${a.what}, so ${a.who} cannot tell where the file is; start the path with ${a.example}.`,
  check(ctx, report) {
    if (ctx.scheme !== 'file') return;
    const host = ctx.authority?.host;
    if (ctx.ref.authority !== undefined && host !== '' && host?.toLowerCase() !== 'localhost') return;
    const path = ctx.ref.path;
    if (!path.startsWith('/') || path.startsWith('//') || hasDriveSegment(path)) return;
    const single = path.indexOf('/', 1) === -1;
    const platform = ctx.platform;
    if (platform === 'unix') return;
    if (platform === 'mac' && !single) return;
    const severity = platform === 'any' ? 'warning' : 'error';
    const what = platform === 'windows' ? 'drive letter' : platform === 'mac' ? 'volume name' : 'drive letter (or Mac volume)';
    const who = platform === 'windows' ? 'Windows' : platform === 'mac' ? 'Mac OS' : 'Windows and Mac OS';
    const example = platform === 'mac' ? 'the volume (file:///HD1/...)' : 'the drive (file:///c:/...)';
    report({ offset: ctx.pathStart, severity, args: { what, who, example } });
  },
};

const RESERVED_DEVICE = /^(CON|PRN|AUX|NUL|COM[1-9]|LPT[1-9])(\..*)?$/i;

/** A decoded name Windows reserves (a device) or changes (a trailing dot or space): RFC 8089 section 5. */
export function isWindowsReservedName(name: string): boolean {
  return RESERVED_DEVICE.test(name) || (name.length > 0 && name !== '.' && name !== '..' && /[. ]$/.test(name));
}

export const windowsReservedName: Rule = {
  meta: {
    code: 'windows-reserved-name',
    title: 'Name Windows reserves',
    description: 'Windows reserves the device names CON, PRN, AUX, NUL, COM1-COM9 and LPT1-LPT9 (with any extension) and drops a trailing dot or space from names; merely opening such a name can reach a device (RFC 8089 section 5). Reported for the windows platform.',
    spec: 'RFC 8089 5',
    severity: sev('error', 'error', 'error'),
    fixable: false,
    examples: examples(
      [{ value: 'file:///c:/jobs/CON.pdf', options: { platform: 'windows' } }, { value: 'art/lpt1', options: { platform: 'windows' } }, { value: 'file:///c:/jobs/final./a.pdf', options: { platform: 'windows' } }],
      [{ value: 'file:///c:/jobs/CON.pdf', options: { platform: 'unix' } }, { value: 'file:///c:/jobs/console.pdf', options: { platform: 'windows' } }],
    ),
  },
  message: (a) => `'${a.name}' ${a.why} on Windows; rename the file or folder.`,
  check(ctx, report) {
    if (ctx.platform !== 'windows' || !ctx.isFileLike) return;
    let offset = ctx.pathStart;
    for (const segment of ctx.ref.path.split('/')) {
      const name = decodeSegment(segment).text;
      if (isWindowsReservedName(name)) {
        report({ offset, args: { name, why: RESERVED_DEVICE.test(name) ? 'is a reserved device name' : 'ends in a dot or space, which Windows silently drops' } });
        return;
      }
      offset += segment.length + 1;
    }
  },
};

export const urlTooLong: Rule = {
  meta: {
    code: 'url-too-long',
    title: 'URL longer than 4095 characters',
    description: 'The JDF schemas (1.3 and later) restrict every URL and URI attribute to 4095 characters (jdftyp:URL, jdftyp:URI: maxLength 4095); consumers may cut longer values or refuse the ticket. The XJDF 2.x schema sets no limit, so for JDF version 2.x it is a warning.',
    spec: 'JDF 1.x schema JDFTypes.xsd jdftyp:URL maxLength',
    severity: sev('error', 'error', 'error'),
    fixable: false,
    examples: examples([{ value: 'file:///c:/' + 'a'.repeat(4090) + '.pdf' }], [{ value: 'file:///c:/' + 'a'.repeat(4080) + '.pdf' }]),
  },
  message: (a) => `The URL is ${a.length} characters long; the JDF schemas allow at most ${a.limit}. Shorten the path or the file name.`,
  check(ctx, report) {
    if (ctx.value.length <= MAX_URL_LENGTH) return;
    report({ offset: MAX_URL_LENGTH, args: { length: ctx.value.length, limit: MAX_URL_LENGTH }, ...(ctx.options.jdfVersion?.startsWith('2') ? { severity: 'warning' as const } : {}) });
  },
};

export const schemeSyntax: Rule = {
  meta: {
    code: 'scheme-syntax',
    title: "URL does not follow its scheme's syntax",
    description: "An http, https or ftp URL names a host after '//' (RFC 9110 4.2.1, RFC 1738 3.2): http:///www.example.org/jmf has an empty host and names no server. A mailto: URL needs an address (RFC 6068), a cid: URL a content ID (RFC 2392). These URLs are never resolved against a Directory, so nothing else repairs them.",
    spec: 'RFC 9110 4.2.1; RFC 1738 3.2; RFC 6068 2; RFC 2392 2',
    severity: sev('error', 'error', 'error'),
    fixable: false,
    examples: examples(
      [{ value: 'http:///www.example.org/jmf' }, { value: 'https:/host/a.pdf' }, { value: 'mailto:' }, { value: 'cid:' }],
      [{ value: 'http://www.example.org/jmf' }, { value: 'ftp://cip4.org/pub/a.pdf' }, { value: 'mailto:prepress@example.org' }, { value: 'cid:pdl' }],
    ),
  },
  message: (a) => `This ${a.scheme}: URL ${a.what}; ${a.advice}`,
  check(ctx, report) {
    const scheme = ctx.scheme;
    if (scheme === 'http' || scheme === 'https' || scheme === 'ftp') {
      if (ctx.ref.authority !== undefined && ctx.authority?.host !== '') return;
      report({ offset: ctx.ref.authority !== undefined ? ctx.authorityStart : ctx.pathStart, args: { scheme, what: 'names no host', advice: `write ${scheme}://host/path.` } });
    } else if ((scheme === 'mailto' || scheme === 'cid') && ctx.ref.path === '') {
      report({ offset: ctx.pathStart, args: { scheme, what: scheme === 'mailto' ? 'names no address' : 'names no content ID', advice: scheme === 'mailto' ? 'write mailto:name@host.' : 'write cid: followed by the MIME part\'s Content-ID.' } });
    }
  },
};

export const doubledScheme: Rule = {
  meta: {
    code: 'doubled-scheme',
    title: "'file:' written twice",
    description: "In file://file:/c:/jobs/a.pdf the scheme is written twice: a URL parser takes the second 'file:' for a host 'file' with an empty port. What was meant is file:///c:/jobs/a.pdf.",
    spec: 'RFC 8089 2; RFC 3986 3.2',
    severity: sev('error', 'error', 'error'),
    fixable: true,
    examples: examples([{ value: 'file://file:/c:/jobs/a.pdf' }, { value: 'FILE://file://server/share/a.pdf' }], [{ value: 'file:///c:/jobs/a.pdf' }, { value: 'file://fileserver/a.pdf' }]),
  },
  message: () => "The scheme 'file:' is written twice, so the second is read as a host with an empty port; write it once.",
  check(ctx, report) {
    if (!isDoubledScheme(ctx)) return;
    const path = ctx.ref.path;
    const fixed = ctx.core.slice(0, ctx.ref.scheme!.length + 1) + (path.startsWith('//') ? path : '///' + path.replace(/^\/+/, ''));
    report({ offset: ctx.authorityStart, fix: ctx.withCore(fixed + ctx.core.slice(ctx.pathStart - ctx.lead + path.length)) });
  },
};

export const emptySegmentAfterHost: Rule = {
  meta: {
    code: 'empty-segment-after-host',
    title: "'//' after the host",
    description: "file://host//share/a.pdf has an empty first segment after the host: on Windows it would be the UNC path \\\\host\\\\share\\a.pdf, which names no share, and on Unix a path starting '//', whose meaning is up to the system. It comes from joining a host and a path that both carry a '/'; the file meant is file://host/share/a.pdf.",
    spec: 'RFC 8089 2; RFC 3986 3.3',
    severity: sev('warning', 'warning', 'warning'),
    fixable: true,
    examples: examples([{ value: 'file://host//share/a.pdf' }], [{ value: 'file://host/share/a.pdf' }, { value: 'file:////host/share/a.pdf', options: { profile: 'lenient' } }]),
  },
  message: (a) => `The path after the host '${a.host}' starts with '//', an empty segment; write file://${a.host}/... with one '/'.`,
  check(ctx, report) {
    const host = ctx.authority?.host;
    if (ctx.scheme !== 'file' || host === undefined || host === '' || !ctx.ref.path.startsWith('//')) return;
    if (isDriveAuthority(ctx.ref.authority!) || isUncAuthority(ctx.ref.authority!) || isDoubledScheme(ctx)) return;
    report({ offset: ctx.pathStart, args: { host }, fix: withPath(ctx, ctx.ref.path.replace(/^\/+/, '/')) });
  },
};

export const structureRules: Rule[] = [
  urlTooLong,
  emptyUrl,
  driveLetterAsScheme,
  uncPathAsUrl,
  colonInFirstSegment,
  unknownScheme,
  schemeSyntax,
  doubledScheme,
  emptySegmentAfterHost,
  uncInAuthority,
  uncPathInPath,
  driveLetterAsHost,
  driveWithoutSlash,
  fileWithoutAuthority,
  fileRelativePath,
  passwordInUserinfo,
  userinfoInFileUrl,
  portInFileUrl,
  invalidHost,
  authorityWithoutPath,
  verticalLineDrive,
  dotSegmentInAbsolute,
  escapedSlash,
  rootWithoutDrive,
  windowsReservedName,
];
