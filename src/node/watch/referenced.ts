// Readiness, part two: the files a ticket references. With --check-exists and --wait-for-files, a ticket
// whose files are not there yet waits ("not yet" is not "broken"), and files that are there must settle too
// (a PDF still being copied is there, but not complete).
import path from 'node:path';
import { decodeSegment } from '../../escape/percent.js';
import { foldFileUrlDrive } from '../../fileurl/drive.js';
import { fileUrlToPath } from '../../paths/convert.js';
import { allFindings, type FileReport } from '../../report/report.js';
import type { TicketReference } from '../../ticket/validate.js';
import { normalize } from '../../uri/normalize.js';
import { parseAuthority, parseReference } from '../../uri/parse.js';
import type { LocalFileOptions } from '../local-files.js';
import type { RuleCode } from '../../rules/codes.js';

/** Findings that may go away by themselves while the job's files are still arriving. */
export const NOT_YET = new Set(['file-missing', 'not-a-directory', 'file-unreadable']);

/** Findings on a present file's content (integrity.ts): a file still being written may not match yet. */
const CONTENT = new Set(['file-size-mismatch', 'checksum-mismatch', 'mime-type-mismatch', 'page-count-mismatch']);

/** The code and words of a finding, as a routed ticket's reason names it. */
export interface FirstError {
  code: RuleCode;
  message: string;
}

/**
 * The first error no file arriving (or settling) can change: one of the ticket itself, a URL's syntax, a member
 * a package lacks, a file outside the root, ... A ticket with one goes to ERROR without waiting for its files.
 */
export function incurable(reports: readonly FileReport[]): FirstError | undefined {
  for (const file of reports) {
    for (const f of file.findings) if (f.severity === 'error') return pick(f);
    for (const ref of file.references) {
      const member = isMember(file, ref);
      const curable = (code: RuleCode) => !member && (NOT_YET.has(code) || CONTENT.has(code) || code === 'file-still-changing');
      for (const f of ref.findings) if (f.severity === 'error' && !curable(f.code)) return pick(f);
    }
  }
  return undefined;
}

/** The first error finding of the reports (the ticket's own, then its references' in document order). */
export function firstError(reports: readonly FileReport[]): FirstError | undefined {
  for (const file of reports) for (const f of allFindings(file)) if (f.severity === 'error') return pick(f);
  return undefined;
}

const pick = (f: { code: RuleCode; message: string }): FirstError => ({ code: f.code, message: f.message });

/** Every finding checkLocalFiles can add: a reference with none of them is a file that is there. */
const LOCAL_CODES = new Set([...NOT_YET, 'case-mismatch', 'not-a-file', 'outside-root', 'not-checked', 'not-a-local-path']);

export interface Missing {
  url: string;
  code: RuleCode;
  message: string;
}

export function missingOf(file: FileReport): Missing[] {
  const out: Missing[] = [];
  for (const ref of file.references) {
    if (isMember(file, ref)) continue; // what a package lacks, no file arriving beside it adds
    for (const f of ref.findings) if (NOT_YET.has(f.code)) out.push({ url: ref.resolved ?? ref.value, code: f.code, message: f.message });
  }
  return out;
}

/**
 * Whether a reference of a package's ticket names a member of the package (a part it names, a cid: URL, a
 * path inside the zip): that is in the package, complete when the package is (it settled as the job), and
 * never a file on disk to look for or wait for.
 */
export function isMember(file: FileReport, ref: TicketReference): boolean {
  if (file.part === undefined) return false;
  if (ref.packagePart !== undefined || ref.scheme?.toLowerCase() === 'cid') return true;
  return file.documentUri !== undefined && ref.resolved !== null && ref.resolved.startsWith(`${file.documentUri}/`);
}

/**
 * The local paths of the files a ticket references that checkLocalFiles found present (so inside --root when
 * one is given): these are the ones to watch settle. Where the view table placed a file, its path is taken from
 * there; else the URL is read as checkLocalFiles reads it (the longest --map prefix, else a file URL with no host
 * or localhost). Should the two ever differ, a file is not watched, never one outside the root.
 */
export function presentFiles(file: FileReport, local: LocalFileOptions): Array<{ ref: TicketReference; path: string }> {
  const maps = local.maps.map((m) => ({ key: comparable(m.prefix), folder: m.folder }));
  const out: Array<{ ref: TicketReference; path: string }> = [];
  for (const ref of file.references) {
    if (ref.role !== 'url' || ref.resolved === null || isMember(file, ref) || ref.findings.some((f) => LOCAL_CODES.has(f.code))) continue;
    const p = ref.mappedBy?.path ?? localPath(ref.resolved, maps); // where the view table found it, if it did
    if (p !== null && (local.root === undefined || inside(path.resolve(local.root), p))) out.push({ ref, path: p });
  }
  return out;
}

const comparable = (uri: string) => foldFileUrlDrive(normalize(uri));

function localPath(resolved: string, maps: ReadonlyArray<{ key: string; folder: string }>): string | null {
  const key = comparable(resolved);
  let best: { key: string; folder: string } | undefined;
  for (const m of maps) if (key.startsWith(m.key) && (!best || m.key.length > best.key.length)) best = m;
  if (best) return path.resolve(best.folder, ...key.slice(best.key.length).split('/').filter((s) => s !== '').map((s) => decodeSegment(s).text));
  const ref = parseReference(resolved);
  if (ref.scheme?.toLowerCase() !== 'file') return null;
  const host = ref.authority !== undefined ? parseAuthority(ref.authority).host.toLowerCase() : '';
  if (host !== '' && host !== 'localhost') return null;
  try {
    return path.resolve(fileUrlToPath(resolved, { platform: process.platform === 'win32' ? 'windows' : 'posix' }));
  } catch {
    return null;
  }
}

function inside(root: string, candidate: string): boolean {
  const rel = path.relative(root, candidate);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}
