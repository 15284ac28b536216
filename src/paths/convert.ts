// URL <-> local path for posix, windows, mac (HFS, appendix Table 5) and vms (the draft's example).
// Escaping follows the appendix's Table 1; names are NFC-normalized and UTF-8 percent-encoded (RFC 8089 section 4).
import { decodeSegment, escapeSegment } from '../escape/percent.js';
import { driveLetterAt, isDriveLetter, isWindowsDriveAt } from '../fileurl/drive.js';
import { parseAuthority, parseReference } from '../uri/parse.js';

export type PathPlatform = 'posix' | 'windows' | 'mac' | 'vms';
export type UrlForm = 'traditional' | 'minimal';

export type PathErrorCode =
  | 'not-a-file-url'
  | 'non-local-host'
  | 'nul-in-path'
  | 'escaped-separator'
  | 'no-drive'
  | 'no-volume'
  | 'relative-url'
  | 'win32-namespace'
  | 'drive-relative-path'
  | 'invalid-path'
  | 'empty-segment'
  | 'query-or-fragment';

/** Why a URL cannot be a path on that platform, or a path cannot be a URL: a typed error, never a guess. */
export class PathConversionError extends Error {
  constructor(readonly code: PathErrorCode, message: string) {
    super(message);
    this.name = 'PathConversionError';
  }
}

export const PATH_PLATFORMS: readonly PathPlatform[] = ['posix', 'windows', 'mac', 'vms'];

const fail = (code: PathErrorCode, message: string): never => {
  throw new PathConversionError(code, message);
};

/** Decodes one segment; NUL and the platform's separators inside a name cannot be a path. */
function decodeName(segment: string, forbidden: string, platform: string): string {
  const text = decodeSegment(segment).text;
  if (text.includes('\u0000')) fail('nul-in-path', `'${segment}' decodes to a NUL character, which no ${platform} file name can hold (appendix Table 6).`);
  for (const ch of forbidden) {
    if (text.includes(ch)) fail('escaped-separator', `'${segment}' decodes to a name with '${ch}', the ${platform} path separator, so it cannot be one path segment.`);
  }
  return text;
}

interface FileParts {
  host: string;
  segments: string[];
  query: string | undefined;
}

function fileParts(url: string): FileParts {
  const ref = parseReference(url.trim());
  if (ref.scheme === undefined) fail('relative-url', `'${url}' is a relative reference; resolve it against its base first.`);
  if (ref.scheme!.toLowerCase() !== 'file') fail('not-a-file-url', `'${url}' is not a file URL.`);
  if (ref.fragment !== undefined) fail('query-or-fragment', `'${url}' has a fragment ('#'), which is not part of any path; escape '#' as %23 if it belongs to the name.`);
  let host = ref.authority !== undefined ? parseAuthority(ref.authority).host : '';
  if (host.toLowerCase() === 'localhost') host = '';
  let path = ref.path;
  if (!path.startsWith('/')) {
    if (driveLetterAt(path, 0) === 2) path = '/' + path; // RFC 8089 E.2: file:c:/path
    else fail('invalid-path', `'${url}' has no absolute path.`);
  }
  const segments = path.slice(1).split('/');
  return { host, segments, query: ref.query };
}

/** A relative reference as a relative path (appendix Table 6: "foo/bar" and "./foo:" both ways). */
function relativeToPath(url: string, platform: PathPlatform): string {
  const ref = parseReference(url.trim());
  if (ref.query !== undefined || ref.fragment !== undefined) fail('query-or-fragment', `'${url}' has a query or fragment, which is not part of a path.`);
  let segments = ref.path.split('/');
  if (segments[0] === '.' && segments.length > 1 && segments[1]!.includes(':')) segments = segments.slice(1);
  switch (platform) {
    case 'posix': return segments.map((s) => decodeName(s, '/', 'POSIX')).join('/');
    case 'windows': return segments.map((s) => decodeName(s, '/\\', 'Windows')).join('\\');
    case 'mac': return ':' + segments.map((s) => decodeName(s, ':', 'Mac')).join(':');
    case 'vms': return fail('relative-url', `'${url}' is relative; a VMS file specification needs a device.`);
  }
}

/** The path a file URL names on `platform`. Throws PathConversionError when it cannot name one there. */
export function fileUrlToPath(url: string, options: { platform: PathPlatform }): string {
  const platform = options.platform;
  const ref = parseReference(url.trim());
  if (ref.scheme === undefined && ref.authority === undefined && !ref.path.startsWith('/')) return relativeToPath(url, platform);
  const { host, segments, query } = fileParts(url);
  if (query !== undefined && platform !== 'vms') fail('query-or-fragment', `'${url}' has a query ('?'), which is not part of a ${platform} path; escape '?' as %3F if it belongs to the name.`);
  switch (platform) {
    case 'posix': {
      if (host !== '') fail('non-local-host', `'${url}' names the host '${host}'; a POSIX path can only name a local file (RFC 8089 section 3). Map the host to a mounted folder.`);
      return '/' + segments.map((s) => decodeName(s, '/', 'POSIX')).join('/');
    }
    case 'windows': {
      const names = segments.map((s) => decodeName(s, '/\\', 'Windows'));
      if (host !== '') {
        // A UNC path \\host\share\... has no empty names: file://host//share/a.pdf is not \\host\\share\a.pdf.
        if (names.slice(0, -1).includes('')) fail('empty-segment', `'${url}' has an empty segment ('//') in its path, which a UNC path \\\\${host}\\share\\... cannot hold; write file://${host}/share/... with one '/'.`);
        return '\\\\' + host + '\\' + names.join('\\'); // RFC 8089 E.3.1, in reverse
      }
      const drive = isDriveLetter(names[0] ?? '') ? names[0]! : undefined;
      if (!drive) fail('no-drive', `'${url}' has no drive letter, so Windows cannot tell which drive it is on (appendix Table 4, example 26).`);
      const rest = names.slice(1);
      return `${drive![0]}:\\${rest.join('\\')}`;
    }
    case 'mac': {
      if (host !== '') fail('non-local-host', `'${url}' names the host '${host}'; mount the volume and name it instead.`);
      if (segments.length < 2) fail('no-volume', `'${url}' names no volume: there is no single root drive on a Mac (appendix Table 5).`);
      // Table 5: "/" and "." are name characters on HFS; only ":" separates.
      const names = segments.map((s) => decodeName(s, ':', 'Mac'));
      return names.join(':');
    }
    case 'vms': {
      // The last segment is name.type, the others device and directories (no "." there).
      const names = segments.map((s, k) => decodeName(s, k === segments.length - 1 ? '/[];:' : '/[].;:', 'VMS'));
      const file = names[names.length - 1]!;
      const device = names[0]!;
      const dirs = names.slice(1, -1);
      const version = query !== undefined ? ';' + query : '';
      return `${host}::${device}:${dirs.length ? `[${dirs.join('.')}]` : ''}${file}${version}`;
    }
  }
}

/** NFC, then the appendix's Table 1 escaping of one name (every character outside fsegment). */
function escapeName(name: string): string {
  return escapeSegment(name.normalize('NFC'));
}

/** "." and ".." are names on a Mac (Table 5) but dot segments in a URL: escape their dots. */
function escapeMacName(name: string): string {
  if (name === '.' || name === '..') return name.replace(/\./g, '%2E');
  return escapeName(name);
}

function prefix(form: UrlForm | undefined, host = ''): string {
  if (host !== '') return `file://${host}`;
  return form === 'minimal' ? 'file:' : 'file://';
}

/**
 * The file URL for a path on `platform` (`traditional` file:///... by default, or `minimal` file:/...).
 * A relative path gives a relative reference (Table 6), with "./" before a first segment holding ":".
 */
export function pathToFileUrl(path: string, options: { platform: PathPlatform; form?: UrlForm }): string {
  const { platform, form } = options;
  switch (platform) {
    case 'posix': {
      if (path.includes('\u0000')) fail('nul-in-path', 'A path cannot hold a NUL character.');
      const absolute = path.startsWith('/');
      const names = (absolute ? path.slice(1) : path).split('/');
      const body = names.map(escapeName).join('/');
      if (absolute) return prefix(form) + '/' + body;
      return names[0]!.includes(':') ? './' + body : body;
    }
    case 'windows': {
      if (path.startsWith('\\\\?\\') || path.startsWith('\\\\.\\') || path.startsWith('//?/') || path.startsWith('//./')) {
        fail('win32-namespace', `'${path}' is a Win32 namespace path (\\\\?\\ or \\\\.\\); RFC 8089 appendix C defines no file URL for it. Use the plain drive or UNC path.`);
      }
      const p = path.replace(/\//g, '\\');
      if (p.startsWith('\\\\')) {
        const [host, ...rest] = p.slice(2).split('\\');
        if (!host) fail('invalid-path', `'${path}' has no server name.`);
        return `file://${host}/${rest.map(escapeName).join('/')}`; // RFC 8089 E.3.1
      }
      // As before: a path holding a line break is not read as on a drive (it becomes a relative reference).
      if (isWindowsDriveAt(p) && !/[\n\r\u2028\u2029]/.test(p)) {
        const [letter, rest] = [p[0]!, p.slice(2)];
        if (!rest.startsWith('\\') && rest !== '') fail('drive-relative-path', `'${path}' is relative to the current folder of drive ${letter}:, which a URL cannot express.`);
        const names = rest === '' ? [''] : rest.slice(1).split('\\');
        return (form === 'minimal' ? 'file:' : 'file:///') + `${letter}:/` + names.map(escapeName).join('/');
      }
      if (p.startsWith('\\')) fail('no-drive', `'${path}' has no drive letter; a file URL for it would have no well-defined meaning (appendix Table 4, example 26).`);
      const names = p.split('\\');
      const body = names.map(escapeName).join('/');
      return names[0]!.includes(':') ? './' + body : body;
    }
    case 'mac': {
      // HFS: "Volume:folder:file"; a leading ":" makes it relative.
      if (path.startsWith(':')) return path.slice(1).split(':').map(escapeMacName).join('/');
      const names = path.split(':');
      if (names.length < 2) fail('no-volume', `'${path}' names no volume.`);
      return prefix(form) + '/' + names.map(escapeMacName).join('/');
    }
    case 'vms': {
      const m = /^(?:([A-Za-z0-9$_-]*)::)?([A-Za-z0-9$_-]+):(?:\[([^\]]*)\])?([^;\]]+?)(?:;(\d+))?$/.exec(path);
      if (!m) fail('invalid-path', `'${path}' is not a VMS file specification (node::device:[dir.dir]file;version).`);
      const [, node, device, dirs, file, version] = m!;
      const names = [device!, ...(dirs ? dirs.split('.') : []), file!].map(escapeName);
      return prefix(form, node ?? '') + '/' + names.join('/') + (version ? `?${version}` : '');
    }
  }
}
