// Windows paths written as URLs: drive letters where a scheme, a host or a path start is read, and UNC paths
// pasted whole (the appendix Tables 3 and 4; RFC 8089 appendices D.2 and E.2-E.4).
import { SIGN } from './signs.js';
import { hasDriveSegment, isDriveAuthority, isDriveScheme, isDriveSegmentAt } from '../fileurl/drive.js';
import { drivePipeIndex } from './drive-letter.js';
import { KIND } from './facts.js';
import { examples, isEscapedUncAuthority, isUncAuthority, sev, slashesFor, withPath } from './helpers.js';
import type { Rule } from './types.js';

export const driveLetterAsScheme: Rule = {
  meta: {
    code: 'drive-letter-as-scheme',
    title: 'Windows path used as URL',
    description: "A value like c:\\folder\\a.pdf or c:/folder/a.pdf is a Windows path, not a URL: a URL parser reads 'c:' as a scheme (appendix Table 3: \"g:h\" is a URI with scheme g). Write it as file:///c:/folder/a.pdf.",
    spec: 'JDF appendix 4.2, Table 3; RFC 8089 E.2.1',
    severity: sev('error', 'error', 'error'),
    fixable: true,
    examples: examples([{ value: 'c:\\folder\\a.pdf', offset: 0, fix: 'file:///c:\\folder\\a.pdf' }, { value: 'C:/jobs/a.pdf', offset: 0, fix: 'file:///C:/jobs/a.pdf' }], [{ value: 'file:///c:/folder/a.pdf' }, { value: 'cid:pdl' }]),
  },
  message: (a) => `'${a.drive}' is a drive letter, not a URL scheme: this is a Windows path; write it as a file URL (file:///${a.drive}/...).`,
  when: SIGN.driveScheme,
  check(ctx, report) {
    if (ctx.scheme === undefined || !isDriveScheme(ctx.scheme)) return;
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
    examples: examples([{ value: '\\\\file_server\\folder\\a.pdf', offset: 0, fix: 'file://file_server/folder/a.pdf' }], [{ value: 'file://file_server/folder/a.pdf' }, { value: '//file_server/folder/a.pdf' }]),
  },
  message: (a) => `This is a UNC path, not a URL; write it as file://${a.host}/... (RFC 8089 E.3.1).${a.readings ? ` Until then consumers open different files: ${a.readings}.` : ''}`,
  when: SIGN.backslash,
  check(ctx, report) {
    if (ctx.scheme !== undefined || !ctx.core.startsWith('\\\\')) return;
    const rest = slashesFor(ctx.core, 2);
    const slash = rest.indexOf('/');
    report({ offset: ctx.lead, args: { host: slash === -1 ? rest : rest.slice(0, slash) }, fix: ctx.withCore('file://' + rest) });
  },
};

export const uncInAuthority: Rule = {
  meta: {
    code: 'unc-in-authority',
    title: 'UNC path pasted after file://',
    description: 'file://\\\\server\\share\\a.pdf pastes a Windows UNC path into a URL (so does file://%5C%5Cserver%5Cshare%5Ca.pdf, its backslashes percent-escaped). The server is the host: file://server/share/a.pdf (RFC 8089 E.3.1).',
    spec: 'RFC 8089 E.3.1, E.4',
    severity: sev('error', 'error', 'warning'),
    fixable: true,
    examples: examples([
      { value: 'file://\\\\HOST\\share\\x.pdf', offset: 7, fix: 'file://HOST/share/x.pdf' },
      { value: 'file://%5C%5CKIE-WF12PRDY%5CTestArea%5Ca.jdf', offset: 7, fix: 'file://KIE-WF12PRDY/TestArea/a.jdf' },
    ], [{ value: 'file://HOST/share/x.pdf' }, { value: 'file:///c:/a%5Cb.pdf' }]),
  },
  message: (a) => `A UNC path is pasted after 'file://'; the server is the host: write file://${a.host}/... (RFC 8089 E.3.1).`,
  when: SIGN.authority,
  check(ctx, report) {
    const authority = ctx.ref.authority;
    if (authority === undefined || !isUncAuthority(authority)) return;
    // Escaped, the backslashes are escaped throughout: each %5C is a separator as each '\\' is.
    const separators = isEscapedUncAuthority(authority) ? /\\|%5c/gi : '\\';
    const rest = (authority.replaceAll(separators, '/').replace(/^\/+/, '') + ctx.ref.path).replaceAll(separators, '/');
    const start = ctx.authorityStart - ctx.lead;
    const fixed = ctx.core.slice(0, start) + rest + ctx.core.slice(ctx.pathStart - ctx.lead + ctx.ref.path.length);
    const slash = rest.indexOf('/');
    report({ offset: ctx.authorityStart, args: { host: slash === -1 ? rest : rest.slice(0, slash) }, fix: ctx.withCore(fixed) });
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
    examples: examples([{ value: 'file:////host.example.com/path/to/file', offset: 7, fix: 'file://host.example.com/path/to/file' }, { value: 'file://///host.example.com/path/to/file', offset: 7, fix: 'file://host.example.com/path/to/file' }], [{ value: 'file://host.example.com/path/to/file' }]),
  },
  message: (a) => `The server '${a.host}' is written in the path (RFC 8089 E.3.2); make it the host: file://${a.host}/... .`,
  when: SIGN.fileScheme | SIGN.noScheme,
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
    examples: examples([{ value: 'file://c:/folder/a.pdf', offset: 7, fix: 'file:///c:/folder/a.pdf' }, { value: 'file://H:\\docs\\a.pdf', offset: 7, fix: 'file:///H:\\docs\\a.pdf' }], [{ value: 'file:///c:/folder/a.pdf' }, { value: 'file://localhost/c:/folder/a.pdf' }]),
  },
  message: (a) => `'${a.drive}' is taken as the host name; a drive letter belongs in the path: write file:///${a.drive}/... .`,
  when: SIGN.authority,
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

export const driveWithoutSlash: Rule = {
  meta: {
    code: 'drive-without-slash',
    title: "'file:c:/' minimal drive form",
    description: 'file:c:/path/to/file is the nonstandard minimal DOS form of RFC 8089 E.2; the standard form is file:///c:/path/to/file.',
    spec: 'RFC 8089 E.2; JDF appendix 2.1',
    severity: sev('error', 'error', 'warning'),
    fixable: true,
    examples: examples([{ value: 'file:c:/path/to/file', offset: 5, fix: 'file:///c:/path/to/file' }, { value: 'file:c|/path/to/file', offset: 5, fix: 'file:///c|/path/to/file' }], [{ value: 'file:///c:/path/to/file' }]),
  },
  message: () => "A drive letter straight after 'file:' is a nonstandard form (RFC 8089 E.2); write file:///c:/... .",
  when: SIGN.fileScheme,
  check(ctx, report) {
    if (ctx.scheme !== 'file' || ctx.ref.authority !== undefined) return;
    if (!isDriveSegmentAt(ctx.ref.path, 0)) return;
    report({ offset: ctx.pathStart, fix: withPath(ctx, '///' + ctx.ref.path) });
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
    examples: examples([{ value: 'file:///c|/path/to/file', offset: 9, fix: 'file:///c:/path/to/file' }, { value: 'file:/c|/path/to/file', offset: 7, fix: 'file:/c:/path/to/file' }], [{ value: 'file:///c:/path/to/file' }, { value: 'file:///c%7C/a.pdf' }]),
  },
  message: () => "The drive letter is followed by '|'; write ':' instead (RFC 8089 E.2.2).",
  when: SIGN.pipe,
  check(ctx, report) {
    if ((ctx.scheme !== 'file' && ctx.scheme !== undefined) || !ctx.facts.has(KIND.pipe)) return;
    const i = drivePipeIndex(ctx);
    if (i === -1) return;
    report({ offset: ctx.lead + i, fix: ctx.withCore(ctx.core.slice(0, i) + ':' + ctx.core.slice(i + 1)) });
  },
};

export const rootWithoutDrive: Rule = {
  meta: {
    code: 'root-without-drive',
    title: 'Local path without drive or volume',
    description: 'file:///a.pdf has no well-defined meaning on Windows or Mac OS: which drive, which disk? On Unix it is /a.pdf (appendix Table 4, example 26). An error for the windows platform (no drive letter) and mac (no volume), a warning for any (a consumer not known, which may be Windows), silent for unix (--platform unix: a POSIX consumer); the profile does not change it.',
    spec: 'JDF appendix 4.3, Table 4 example 26; RFC 8089 D.2',
    severity: sev('warning', 'warning', 'warning'),
    fixable: false,
    examples: examples(
      [{ value: 'file:///a.pdf', offset: 7 }, { value: 'file:///a.pdf', options: { platform: 'windows' }, offset: 7 }, { value: 'file:///pub/a.pdf', options: { platform: 'windows' }, offset: 7 }],
      [{ value: 'file:///a.pdf', options: { platform: 'unix' } }, { value: 'file:///c:/a.pdf', options: { platform: 'windows' } }, { value: 'file:///HD1/bar', options: { platform: 'mac' } }],
    ),
  },
  message: (a) => (a.unknown
    ? `This local path has no ${a.what}: ${a.who} cannot tell where the file is (appendix Table 4 #26), and which consumer opens it is not known. Start the path with ${a.example}; if the consumer is Unix, where it names this path, say so with --platform unix.`
    : `This local path has no ${a.what}, so ${a.who} cannot tell where the file is (appendix Table 4 #26); start the path with ${a.example}.`),
  when: SIGN.fileScheme,
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
    const who = platform === 'windows' ? 'Windows' : platform === 'mac' ? 'Mac OS' : 'a Windows or Mac OS consumer';
    const example = platform === 'mac' ? 'the volume (file:///HD1/...)' : 'the drive (file:///c:/...)';
    report({ offset: ctx.pathStart, severity, args: { what, who, example, unknown: platform === 'any' ? 1 : '' } });
  },
};
