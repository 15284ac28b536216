// Finding the tickets a command line names, as ESLint finds its files: named files as they are, folders
// searched (without node_modules and dot-folders), glob patterns matched, and .jdf-filespecignore (the nearest,
// found upward as the config is) and --ignore-pattern (gitignore syntax) applied. tinyglobby walks and matches, `ignore` reads gitignore syntax.
// Symbolic links met in the search are not followed, as ESLint 9 does not (since 9.13): a linked folder is not
// searched, so nothing outside the named tree is reached and a loop ("d/loop -> ..") finds nothing twice; a
// linked ticket (a dangling one too) is not read but reported as an unreadable path, with its target. A path
// named on the command line is taken as the operating system resolves it, links and all.
import fs, { type Dirent } from 'node:fs';
import { access, readFile, readlink, stat } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Ignore } from 'ignore';
import { FOLDER_EXTENSIONS, PACKAGE_EXTENSIONS } from './extensions.js';
import type { TicketSource, UnreadablePath } from './files.js';

export { FOLDER_EXTENSIONS, PACKAGE_EXTENSIONS };

/** Never searched, in folders or globs (a path named on the command line is still read). */
const ALWAYS_IGNORED = ['**/node_modules/**', '**/.*/**'];

export const IGNORE_FILE = '.jdf-filespecignore';

const globbing = () => import('tinyglobby');

export interface DiscoverOptions {
  /** Where relative paths, globs and ignore patterns are taken from, and .jdf-filespecignore looked for upward (default: process.cwd()). */
  cwd?: string;
  /** More gitignore-syntax patterns, relative to cwd (--ignore-pattern). */
  ignorePatterns?: readonly string[];
  /** Read the nearest .jdf-filespecignore in cwd or a folder above it (default true). */
  ignoreFile?: boolean;
  /** Skip a named file that an ignore pattern matches, listing it in `ignored` (ESLint's way); default false: read it. */
  ignoreNamedFiles?: boolean;
  /** The file standard input stands for: its folder is the base of "-" (--stdin-filename). */
  stdinFilename?: string;
  /** Take packages found in folders (MIME by extension, zips that are job packages); default true. A command that only works on tickets (fix) passes false. */
  packages?: boolean;
}

export interface Discovered {
  sources: TicketSource[];
  /** Paths that could not be read (a missing file, a folder without permission). */
  unreadable: UnreadablePath[];
  /** Folders and glob patterns that matched no ticket. */
  unmatched: string[];
  /** Files named on the command line that an ignore pattern matches: skipped, as ESLint skips them with a warning. */
  ignored: string[];
}

/** Expands files, folders and glob patterns into ticket sources, each folder's or pattern's in a stable order. */
export async function expandPaths(paths: readonly string[], options: DiscoverOptions = {}): Promise<Discovered> {
  const cwd = options.cwd ?? process.cwd();
  // The walker and the matcher load only for a folder or a pattern, the ignore rules only when there are any.
  let ignored: ((p: string) => boolean) | undefined;
  const found: Discovered = { sources: [], unreadable: [], unmatched: [], ignored: [] };
  const seen = new Set<string>();
  const add = (p: string, foundIn?: string) => found.sources.push({ path: p, documentUri: pathToFileURL(path.resolve(cwd, p)).href, ...(foundIn !== undefined ? { foundIn } : {}) });
  for (const p of paths) {
    if (p === '-') {
      found.sources.push(options.stdinFilename !== undefined ? { path: '-', documentUri: pathToFileURL(path.resolve(cwd, options.stdinFilename)).href } : { path: '-' });
      continue;
    }
    const kind = await kindOf(path.resolve(cwd, p));
    let matches: string[];
    const links = new Set<string>();
    if (kind === 'file') {
      if (options.ignoreNamedFiles === true && (ignored ??= await ignoreRules(cwd, options))(p)) {
        found.ignored.push(p);
        continue;
      }
      if (!seen.has(path.resolve(cwd, p))) add(p);
      seen.add(path.resolve(cwd, p));
      continue;
    } else if (kind === 'folder') {
      const extensions = options.packages === false ? FOLDER_EXTENSIONS.filter((e) => e !== '.zip' && !PACKAGE_EXTENSIONS.includes(e)) : FOLDER_EXTENSIONS;
      const pattern = `**/*.{${extensions.map((e) => e.slice(1)).join(',')}}`;
      matches = (await search([pattern], path.resolve(cwd, p), true, found.unreadable, cwd, links)).map((m) => path.join(p, m));
      matches = await jobZipsOnly(matches, cwd, links);
    } else if (kind === 'missing' && (await globbing()).isDynamicPattern(p)) {
      const { base, pattern } = splitPattern(p, (await globbing()).isDynamicPattern);
      matches = (await search([pattern], path.resolve(cwd, base), false, found.unreadable, cwd, links)).map((m) => path.join(base, m));
    } else {
      found.unreadable.push({ path: p, reason: kind === 'missing' ? 'no such file or folder' : kind.error });
      continue;
    }
    ignored ??= await ignoreRules(cwd, options);
    matches = matches.filter((m) => !ignored!(m));
    if (matches.length === 0) found.unmatched.push(p);
    for (const m of sortPaths(matches)) {
      const key = path.resolve(cwd, m);
      if (seen.has(key)) continue;
      seen.add(key);
      if (links.has(key)) found.unreadable.push({ path: m, reason: await linkReason(key) });
      else add(m, kind === 'folder' ? p : undefined);
    }
  }
  return found;
}

/**
 * A folder's matches without the zips that are not job packages: a zip is taken when its central directory (read
 * from its end, nothing inflated) names a ticket at its top level. One that cannot be read as a zip is left out
 * too; named on the command line, any file is read. Links are kept: they are reported, not read.
 */
async function jobZipsOnly(matches: string[], cwd: string, links: ReadonlySet<string>): Promise<string[]> {
  if (!matches.some((m) => /\.zip$/i.test(m))) return matches;
  // Loaded only when a folder holds a zip: the zip reader and fflate cost every other run nothing.
  const [{ fileAccess }, { isZip, readZipDirectory }, { isRootTicketName }] = await Promise.all([import('./package-read.js'), import('../package/zip.js'), import('../package/zip-package.js')]);
  const isJob = async (file: string): Promise<boolean> => {
    let access;
    try {
      access = await fileAccess(file, true);
    } catch {
      return false;
    }
    try {
      if (!isZip(await access.read(0, 4))) return false;
      return (await readZipDirectory(access)).entries.some((e) => isRootTicketName(e.name));
    } catch {
      return false;
    } finally {
      await access.close();
    }
  };
  const kept: string[] = [];
  for (const m of matches) {
    const file = path.resolve(cwd, m);
    if (!/\.zip$/i.test(m) || links.has(file) || (await isJob(file))) kept.push(m);
  }
  return kept;
}

/** The folder before the first segment with a wildcard, and the rest: `../jobs/x/*.jdf` is `../jobs/x` and `*.jdf`. */
function splitPattern(p: string, isDynamicPattern: (segment: string) => boolean): { base: string; pattern: string } {
  const segments = p.split('/');
  let k = 0;
  while (k < segments.length - 1 && !isDynamicPattern(segments[k]!)) k++;
  const base = segments.slice(0, k).join('/');
  return { base: base === '' && k > 0 ? '/' : base || '.', pattern: segments.slice(k).join('/') };
}

type Kind = 'file' | 'folder' | 'missing' | { error: string };

async function kindOf(p: string): Promise<Kind> {
  try {
    const info = await stat(p);
    return info.isDirectory() ? 'folder' : 'file';
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return code === 'ENOENT' || code === 'ENOTDIR' ? 'missing' : { error: (error as Error).message };
  }
}

/**
 * Files under `cwd` matching `patterns`; extensions in any case when `anyCase` (a folder's search). A folder
 * that cannot be listed is added to `unreadable` (the walker would skip it in silence). Symbolic links are not
 * followed: each is listed as a file, never entered, so one named like a ticket is matched and its absolute path
 * added to `links` (tinyglobby's followSymbolicLinks: false would drop it in silence).
 */
async function search(patterns: string[], cwd: string, anyCase: boolean, unreadable: UnreadablePath[], base: string, links: Set<string>): Promise<string[]> {
  const { glob } = await globbing();
  const readdir = ((dir: string, options: object, callback: (error: NodeJS.ErrnoException | null, entries?: unknown) => void) =>
    fs.readdir(dir, options, (error, entries) => {
      if (error && error.code !== 'ENOENT') unreadable.push({ path: path.relative(base, dir) || '.', reason: error.message });
      for (const entry of (entries ?? []) as unknown as Dirent[]) {
        if (typeof entry === 'string' || !entry.isSymbolicLink()) continue;
        links.add(path.resolve(cwd, dir, entry.name));
        Object.assign(entry, { isFile: () => true, isDirectory: () => false, isSymbolicLink: () => false });
      }
      callback(error, entries);
    })) as unknown as typeof fs.readdir;
  return glob(patterns, { cwd, ignore: ALWAYS_IGNORED, dot: false, onlyFiles: true, caseSensitiveMatch: !anyCase, expandDirectories: false, followSymbolicLinks: false, fs: { ...fs, readdir } });
}

/** Why a symbolic link found in a search is not read: where it leads, and whether anything is there. */
async function linkReason(link: string): Promise<string> {
  const target = await readlink(link).catch(() => '?');
  const there = await stat(link).then(() => '', (error: NodeJS.ErrnoException) => `, which cannot be reached (${error.code ?? error.message})`);
  return `a symbolic link to ${target}${there}; links found in a folder or by a pattern are not followed: name the file it leads to`;
}

/** The nearest .jdf-filespecignore in `start` or a folder above it: found as jdf-filespec.config.json is. */
async function findIgnoreFile(start: string): Promise<string | undefined> {
  for (let folder = path.resolve(start); ; folder = path.dirname(folder)) {
    const candidate = path.join(folder, IGNORE_FILE);
    if (await access(candidate).then(() => true, () => false)) return candidate;
    if (path.dirname(folder) === folder) return undefined;
  }
}

/**
 * Whether a path (relative to cwd) is ignored: by the ignore file's patterns, relative to its folder as in
 * gitignore, or by --ignore-pattern's, relative to cwd. `ignore` is loaded only when there is a pattern.
 */
async function ignoreRules(cwd: string, options: DiscoverOptions): Promise<(p: string) => boolean> {
  const file = options.ignoreFile === false ? undefined : await findIgnoreFile(cwd);
  const patterns = options.ignorePatterns ?? [];
  if (file === undefined && patterns.length === 0) return () => false;
  const { default: ignore } = await import('ignore');
  const fromFile = file !== undefined ? ignore().add(await readFile(file, 'utf8')) : undefined;
  const given = ignore().add([...patterns]);
  return (p) => (fromFile !== undefined && isIgnored(fromFile, path.dirname(file!), path.resolve(cwd, p))) || isIgnored(given, cwd, path.resolve(cwd, p));
}

/** gitignore rules apply to paths inside their root; a path outside it is never ignored by them. */
function isIgnored(rules: Ignore, root: string, file: string): boolean {
  const relative = path.relative(root, file);
  if (relative === '' || relative.startsWith('..') || path.isAbsolute(relative)) return false;
  return rules.ignores(relative.split(path.sep).join('/'));
}

/** Folder by folder, names in code-unit order: the order a depth-first walk of sorted listings gives. */
function sortPaths(paths: string[]): string[] {
  const keyed = paths.map((p) => ({ p, parts: p.split(/[\\/]/) }));
  keyed.sort((a, b) => {
    for (let i = 0; i < Math.min(a.parts.length, b.parts.length); i++) {
      if (a.parts[i] !== b.parts[i]) return a.parts[i]! < b.parts[i]! ? -1 : 1;
    }
    return a.parts.length - b.parts.length;
  });
  return keyed.map((k) => k.p);
}
