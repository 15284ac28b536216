// validate --check-exists / --map / --root: from resolved URLs to files on this machine, confined to a root.
import { utf8Escapes } from '../package/names.js';
import { constants } from 'node:fs';
import type { Stats } from 'node:fs';
import { access, lstat, readdir, realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import { decodeSegment } from '../escape/percent.js';
import { fileUrlDriveIndex, foldFileUrlDrive } from '../fileurl/drive.js';
import { fileUrlToPath, PathConversionError } from '../paths/convert.js';
import type { RuleCode } from '../rules/codes.js';
import { changedOutsideRoot, lookProblem, notLocal, outsideRootProblem } from '../rules/files.js';
import { createFinding } from '../rules/finding.js';
import type { Profile } from '../rules/types.js';
import type { LocatedFinding, TicketReference, TicketReport } from '../ticket/validate.js';
import { normalize } from '../uri/normalize.js';
import { parseAuthority, parseReference } from '../uri/parse.js';
import type { ViewTable } from '../views/types.js';
import { rememberCheckedFile, type CheckedFile } from './checked-file.js';
import { resolveInside, stillInside, type Root } from './confine.js';
import { lookThroughViews } from './view-paths.js';
import { explainMissing } from './locate.js';
import { kindOf } from './read-regular.js';
import { checkIntegrity } from './integrity.js';

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
  /** Compare FileSpec/@CheckSum with the MD5 of each file (reads every byte). */
  verifyChecksums?: boolean;
}

/** Parses "--map PREFIX=PATH". The split is at the first "=" after the URL's scheme, since a URL may hold "=". */
export function parseMap(spec: string): PrefixMap {
  const at = spec.indexOf('=', spec.indexOf(':') + 1);
  if (at <= 0 || at === spec.length - 1) throw new Error(`--map takes PREFIX=PATH (for example file://fileserver/Jobs/=/mnt/jobs/), not '${spec}'.`);
  return { prefix: spec.slice(0, at), folder: spec.slice(at + 1) };
}

/** A prefix comparison key: RFC 3986 6.2.2 normal form, with the drive letter folded (RFC 8089 E.2). */
function comparable(uri: string): string {
  return foldFileUrlDrive(normalize(uri));
}

const CASE_INSENSITIVE = process.platform === 'win32' || process.platform === 'darwin';

function finding(code: RuleCode, ref: TicketReference, args: Record<string, string>, profile: Profile): LocatedFinding {
  return createFinding(code, args, { profile, at: ref });
}

/** Whether `key` starts with `prefix` and the prefix ends at a segment boundary of `key`. */
function startsWithSegments(key: string, prefix: string): boolean {
  return key.startsWith(prefix) && (prefix.endsWith('/') || key.length === prefix.length || '/?#'.includes(key[prefix.length]!));
}

/** The local path a resolved URL stands for here, or why there is none. */
interface ComparableMap {
  key: string;
  folder: string;
}

const skipped = (f: LocatedFindingSpec) => ({ skip: f.code, args: f.args });

function localPathOf(resolved: string, maps: readonly ComparableMap[], isWindows: boolean): { path: string } | { skip: RuleCode; args: Record<string, string> } | null {
  const key = comparable(resolved);
  let best: ComparableMap | undefined;
  // On segment boundaries: file://fileserver/Jobs maps file://fileserver/Jobs/x, not file://fileserver/JobsSecret/x.
  for (const m of maps) if (startsWithSegments(key, m.key) && (!best || m.key.length > best.key.length)) best = m;
  if (best) {
    const rest = key.slice(best.key.length).split('/').filter((s) => s !== '').map((s) => decodeSegment(s).text);
    // Not normalized: a ".." decoded from %2E%2E is walked as the OS would walk it (see confine.ts).
    return { path: [path.resolve(best.folder), ...rest].join(path.sep) };
  }
  const ref = parseReference(resolved);
  if (ref.scheme?.toLowerCase() !== 'file') return null; // http, ftp, cid: not files on this disk
  const host = ref.authority !== undefined ? parseAuthority(ref.authority).host : '';
  if (host !== '' && host.toLowerCase() !== 'localhost') {
    return skipped(notLocal({ host, prefix: `${ref.scheme}://${ref.authority}/` }));
  }
  try {
    const local = fileUrlToPath(resolved, { platform: isWindows ? 'windows' : 'posix' });
    return { path: path.isAbsolute(local) ? local : path.resolve(local) };
  } catch (error) {
    if (!(error instanceof PathConversionError)) throw error;
    const drive = fileUrlDriveIndex(resolved);
    return skipped(notLocal({ why: error.message, isWindows, ...(drive !== -1 ? { drive: resolved[drive]! } : {}) }));
  }
}

/** Adds the file-system findings to the references of one ticket. Stats run concurrently, findings land in reference order. */
export async function checkLocalFiles(ticket: TicketReport, options: LocalFileOptions): Promise<void> {
  const profile = options.profile ?? 'jdf';
  const isWindows = process.platform === 'win32';
  let root: Root | undefined;
  if (options.root !== undefined) {
    const named = path.resolve(options.root);
    root = { named, real: await realpath(named) };
  }
  const maps: ComparableMap[] = options.maps.map((m) => ({ key: comparable(m.prefix), folder: m.folder }));
  const statCache = new Map<string, Promise<Looked>>();

  /** What `target` is for `role`; a regular file found is recorded for the integrity checks (checked-file.ts). */
  const examine = (target: string, role: 'url' | 'directory'): Promise<Looked> => {
    const key = `${role}\u0000${target}`;
    let pending = statCache.get(key);
    if (!pending) {
      pending = (async (): Promise<Looked> => {
        if (root === undefined) return options.checkExists ? look(target, target, role, stat) : { problem: null };
        // Inside the root: the real path, walked as the OS walks it; every link on it followed already, so
        // the look is an lstat, and afterwards the path must still be what the walk found.
        const confined = await resolveInside(root, target);
        if ('outside' in confined) return { problem: outsideRootProblem(confined.outside) };
        if (!options.checkExists) return { problem: null };
        const found = await look(confined.path, target, role, lstat);
        if (found.problem === CHANGED || !(await stillInside(root, confined.path))) {
          return { problem: changedOutsideRoot() };
        }
        return found.file ? { ...found, file: { ...found.file, root } } : found;
      })();
      statCache.set(key, pending);
    }
    return pending;
  };

  const handle = async (ref: TicketReference): Promise<void> => {
    const role = ref.role;
    // A template (template-placeholder) names no file yet: nothing to look for.
    if (ref.resolved === null || role === 'identifier' || ref.findings.some((f) => f.code === 'template-placeholder')) return;
    const viewed = await lookThroughViews(ref, { ...options, charset: ticket.encoding }, async (target) => (await examine(target, role)).problem);
    if (viewed !== undefined) {
      if (viewed) ref.findings.push(finding(viewed.code, ref, viewed.args, profile));
      else if (ref.mappedBy?.path !== undefined) remember(ref, await examine(ref.mappedBy.path, role));
      return;
    }
    // JDF appendix section 3: in a Latin-1 ticket, %FC is the character ü, named on this disk as it names ü.
    const local = localPathOf(utf8Escapes(ref.resolved, ticket.encoding), maps, isWindows);
    if (local === null) return;
    if ('skip' in local) {
      if (options.checkExists) ref.findings.push(finding(local.skip, ref, local.args, profile));
      return;
    }
    const found = await examine(local.path, role);
    if (found.problem) ref.findings.push(finding(found.problem.code, ref, found.problem.args, profile));
    else remember(ref, found);
  };
  // At most 64 file-system look-ups in flight: enough to overlap their latency, few enough for any disk.
  const refs = ticket.references;
  let next = 0;
  const lane = async () => {
    while (next < refs.length) await handle(refs[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(64, refs.length) }, lane));
  if (options.checkExists) await explainMissing(ticket, options);
  if (options.checkExists) await checkIntegrity(ticket, options);
}

interface LocatedFindingSpec {
  code: RuleCode;
  args: Record<string, string>;
}

/** A problem, or none; and when the look found a regular file, which one it was. */
interface Looked {
  problem: LocatedFindingSpec | null;
  file?: CheckedFile;
}

function remember(ref: TicketReference, looked: Looked): void {
  if (looked.file) rememberCheckedFile(ref, looked.file);
}

/** A symbolic link where the walk to the real path found none: something changed under us. */
const CHANGED: LocatedFindingSpec = outsideRootProblem('');

/** Stats `file` (shown as `shown`) and gathers what lookProblem (rules/files.ts) needs to say what is wrong with it for `role`. */
async function look(file: string, shown: string, role: 'url' | 'directory', statOf: (p: string) => Promise<Stats>): Promise<Looked> {
  let info;
  try {
    info = await statOf(file);
  } catch {
    return { problem: lookProblem(role, shown, { found: 'nothing', otherCase: role === 'url' ? await sameNameOtherCase(file) : undefined }) };
  }
  if (info.isSymbolicLink()) return { problem: CHANGED };
  if (role === 'directory') return { problem: lookProblem(role, shown, { found: info.isDirectory() ? 'directory' : 'other' }) };
  // A FIFO, socket or device is not a file a printer can print, and is never opened: a FIFO's open blocks.
  if (!info.isFile()) return { problem: lookProblem(role, shown, { found: 'other', what: kindOf(info) }) };
  let unreadable: string | undefined;
  try {
    await access(file, constants.R_OK);
  } catch (error) {
    unreadable = (error as NodeJS.ErrnoException).code ?? 'no access';
  }
  const problem = lookProblem(role, shown, { found: 'file', ...(unreadable !== undefined ? { unreadable } : {}) });
  return problem !== null ? { problem } : { problem: null, file: { path: file, dev: info.dev, ino: info.ino } };
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
