// validate --check-exists / --map / --root: from resolved URLs to files on this machine, confined to a root.
import { constants } from 'node:fs';
import { access, lstat, readdir, readlink, realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import { decodeSegment } from '../escape/percent.js';
import { fileUrlToPath, PathConversionError } from '../paths/convert.js';
import { rulesByCode } from '../rules/catalog.js';
import type { Profile } from '../rules/types.js';
import type { LocatedFinding, TicketReference, TicketReport } from '../ticket/validate.js';
import { normalize } from '../uri/normalize.js';
import { parseAuthority, parseReference } from '../uri/parse.js';
import type { ViewTable } from '../views/types.js';
import { lookThroughViews } from './view-paths.js';

export interface PrefixMap {
  /** A URL prefix, e.g. file://fileserver/Jobs/ */
  prefix: string;
  /** The local folder it stands for, e.g. /mnt/jobs/ */
  folder: string;
}

export interface LocalFileOptions {
  /** Stat every resolved local reference. */
  checkExists: boolean;
  maps: PrefixMap[];
  /** Every local path must stay inside this folder (already made absolute; its real path is taken here). */
  root?: string;
  profile?: Profile;
  /** The view table (config file and --map): tried before `maps`; see view-paths.ts. */
  views?: ViewTable;
  /** The ticket's own URL, for the table's "./" entries. */
  documentUri?: string;
}

/** Parses "--map PREFIX=PATH". The split is at the first "=" after the URL's scheme, since a URL may hold "=". */
export function parseMap(spec: string): PrefixMap {
  const at = spec.indexOf('=', spec.indexOf(':') + 1);
  if (at <= 0 || at === spec.length - 1) throw new Error(`--map takes PREFIX=PATH (for example file://fileserver/Jobs/=/mnt/jobs/), not '${spec}'.`);
  return { prefix: spec.slice(0, at), folder: spec.slice(at + 1) };
}

/** A prefix comparison key: RFC 3986 6.2.2 normal form, with the drive letter folded (RFC 8089 E.2). */
function comparable(uri: string): string {
  return normalize(uri).replace(/^(file:\/\/[^/]*\/)([A-Za-z])([:|])/i, (_, head: string, d: string) => `${head}${d.toLowerCase()}:`);
}

const CASE_INSENSITIVE = process.platform === 'win32' || process.platform === 'darwin';
const fold = (p: string) => (CASE_INSENSITIVE ? p.toLowerCase() : p);

function inside(root: string, candidate: string): boolean {
  const rel = path.relative(fold(root), fold(candidate));
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}

/**
 * Whether `target` stays inside `root` once every symbolic link on the way is followed. Links are read with
 * lstat/readlink one component at a time, and only while the path is still inside the root, so nothing
 * outside it is ever touched.
 */
async function staysInside(root: string, target: string): Promise<boolean> {
  let current = target;
  for (let hops = 0; hops < 40; hops++) {
    if (!inside(root, current)) return false;
    const parts = path.relative(root, current).split(path.sep).filter((p) => p !== '');
    let walked = root;
    let redirected = false;
    for (let k = 0; k < parts.length; k++) {
      walked = path.join(walked, parts[k]!);
      let info;
      try {
        info = await lstat(walked);
      } catch {
        return true; // the rest does not exist: nothing further to follow
      }
      if (info.isSymbolicLink()) {
        const link = await readlink(walked);
        current = path.resolve(path.dirname(walked), link, ...parts.slice(k + 1));
        redirected = true;
        break;
      }
    }
    if (!redirected) return true;
  }
  return false; // a loop of links
}

function finding(code: string, ref: TicketReference, args: Record<string, string>, profile: Profile): LocatedFinding {
  const rule = rulesByCode.get(code)!;
  return { code, severity: rule.meta.severity[profile] ?? 'error', message: rule.message(args), spec: rule.meta.spec, line: ref.line, column: ref.column };
}

/** The local path a resolved URL stands for here, or why there is none. */
interface ComparableMap {
  key: string;
  folder: string;
}

function localPathOf(resolved: string, maps: readonly ComparableMap[], isWindows: boolean): { path: string } | { skip: string; args: Record<string, string> } | null {
  const key = comparable(resolved);
  let best: ComparableMap | undefined;
  for (const m of maps) if (key.startsWith(m.key) && (!best || m.key.length > best.key.length)) best = m;
  if (best) {
    const rest = key.slice(best.key.length).split('/').filter((s) => s !== '').map((s) => decodeSegment(s).text);
    return { path: path.resolve(best.folder, ...rest) };
  }
  const ref = parseReference(resolved);
  if (ref.scheme?.toLowerCase() !== 'file') return null; // http, ftp, cid: not files on this disk
  const host = ref.authority !== undefined ? parseAuthority(ref.authority).host : '';
  if (host !== '' && host.toLowerCase() !== 'localhost') {
    const prefix = `${ref.scheme}://${ref.authority}/`;
    return { skip: 'not-checked', args: { host, prefix } };
  }
  try {
    return { path: path.resolve(fileUrlToPath(resolved, { platform: isWindows ? 'windows' : 'posix' })) };
  } catch (error) {
    if (!(error instanceof PathConversionError)) throw error;
    const drive = /^file:\/\/[^/]*\/([A-Za-z])[:|]/i.exec(resolved);
    const hint = drive && !isWindows ? ` Map the drive with --map file:///${drive[1]}:/=/local/folder/.` : '';
    return { skip: 'not-a-local-path', args: { why: error.message, hint } };
  }
}

/** Adds the file-system findings to the references of one ticket. Stats run concurrently, findings land in reference order. */
export async function checkLocalFiles(ticket: TicketReport, options: LocalFileOptions): Promise<void> {
  const profile = options.profile ?? 'jdf';
  const isWindows = process.platform === 'win32';
  let root: string | undefined;
  if (options.root !== undefined) root = await realpath(path.resolve(options.root));
  const maps: ComparableMap[] = options.maps.map((m) => ({ key: comparable(m.prefix), folder: m.folder }));
  const statCache = new Map<string, Promise<LocatedFindingSpec | null>>();

  const examine = (target: string, role: 'url' | 'directory'): Promise<LocatedFindingSpec | null> => {
    const key = `${role}\u0000${target}`;
    let pending = statCache.get(key);
    if (!pending) {
      pending = (async (): Promise<LocatedFindingSpec | null> => {
        if (root !== undefined) {
          if (!inside(root, target)) return { code: 'outside-root', args: { how: '' } };
          if (!(await staysInside(root, target))) return { code: 'outside-root', args: { how: ' through a symbolic link' } };
        }
        if (!options.checkExists) return null;
        let info;
        try {
          info = await stat(target);
        } catch (error) {
          if (role === 'directory') return { code: 'not-a-directory', args: { path: target, what: 'missing' } };
          const actual = await sameNameOtherCase(target);
          return actual ? { code: 'case-mismatch', args: { path: target, actual } } : { code: 'file-missing', args: { path: target } };
        }
        if (role === 'directory') return info.isDirectory() ? null : { code: 'not-a-directory', args: { path: target, what: 'not a folder' } };
        if (info.isDirectory()) return { code: 'not-a-file', args: { path: target } };
        try {
          await access(target, constants.R_OK);
        } catch (error) {
          return { code: 'file-unreadable', args: { path: target, reason: (error as NodeJS.ErrnoException).code ?? 'no access' } };
        }
        return null;
      })();
      statCache.set(key, pending);
    }
    return pending;
  };

  const handle = async (ref: TicketReference): Promise<void> => {
    const role = ref.role;
    if (ref.resolved === null || role === 'identifier') return;
    const viewed = await lookThroughViews(ref, options, (target) => examine(target, role));
    if (viewed !== undefined) {
      if (viewed) ref.findings.push(finding(viewed.code, ref, viewed.args, profile));
      return;
    }
    const local = localPathOf(ref.resolved, maps, isWindows);
    if (local === null) return;
    if ('skip' in local) {
      if (options.checkExists) ref.findings.push(finding(local.skip, ref, local.args, profile));
      return;
    }
    const found = await examine(local.path, role);
    if (found) ref.findings.push(finding(found.code, ref, found.args, profile));
  };
  // At most 64 file-system look-ups in flight: enough to overlap their latency, few enough for any disk.
  const refs = ticket.references;
  let next = 0;
  const lane = async () => {
    while (next < refs.length) await handle(refs[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(64, refs.length) }, lane));
}

interface LocatedFindingSpec {
  code: string;
  args: Record<string, string>;
}

/** On a case-sensitive file system: the name in the parent folder that differs from the wanted one only in case. */
async function sameNameOtherCase(target: string): Promise<string | undefined> {
  if (CASE_INSENSITIVE) return undefined;
  try {
    const wanted = path.basename(target).toLowerCase();
    const entries = await readdir(path.dirname(target));
    return entries.find((e) => e.toLowerCase() === wanted);
  } catch {
    return undefined;
  }
}
