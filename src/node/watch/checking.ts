// Checking: the ticket (or each part of a package) checked as `validate` checks it, read from wherever it is
// now, with its base where it arrived; and whether its bytes are a whole document yet.
import { realpath } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { FileReport } from '../../report/report.js';
import { jobFolderProblem } from '../../rules/files.js';
import { createFinding } from '../../rules/finding.js';
import type { Profile } from '../../rules/types.js';
import { validateSources } from '../batch.js';
import type { LocalFileOptions } from '../local-files.js';
import type { Job } from './job.js';
import type { WatchOptions } from './options.js';

/** Findings that mean the bytes are not a whole XML document (or package: a zip without its directory, a MIME package without its closing delimiter) yet. */
const INCOMPLETE = new Set(['xml-empty', 'xml-malformed', 'invalid-encoding-bytes', 'zip-malformed', 'mime-unclosed']);

export type Checked = FileReport[] | { unreadable: string };

/** Whether any check of the referenced files was asked for. */
export function localChecks(local: LocalFileOptions | undefined): boolean {
  return !!local && (local.checkExists || local.root !== undefined || local.views !== undefined);
}

/** Where the ticket arrived (IN/name, or IN/FOLDER/TICKET for a job folder): its base and its name in the report. */
export const arrivedAs = (job: Job) => (job.folder && job.ticket !== undefined ? path.join(job.source, job.ticket) : job.source);

/**
 * A job folder's files are looked for in the folder only, wherever it is now (in IN, or claimed): it is the
 * root, and a map takes the URLs under IN/FOLDER/ there. The config's views are not consulted for it.
 */
export async function folderLocal(job: Job, local: LocalFileOptions): Promise<LocalFileOptions> {
  const now = await realpath(job.claim?.file ?? job.source);
  const { views: _views, ...rest } = local;
  return { ...rest, root: now, maps: [{ prefix: `${pathToFileURL(job.source).href}/`, folder: now }, ...local.maps] };
}

/** Without `withLocal`, no file the ticket references is looked at (that is for after the claim). */
export async function validateJob(job: Job, o: WatchOptions, withLocal: boolean): Promise<Checked> {
  const started = Date.now();
  const at = job.claim?.file ?? job.source;
  const read = job.folder ? path.join(at, job.ticket!) : at;
  const source = arrivedAs(job);
  let local = withLocal && localChecks(o.local) ? o.local : undefined;
  if (local && job.folder) local = await folderLocal(job, local);
  const results = await validateSources([{ path: read, documentUri: pathToFileURL(source).href, noFollow: true }], o.validate, { maxBytes: o.maxBytes, local });
  job.checkMs += Date.now() - started;
  const files: FileReport[] = [];
  for (const r of results) {
    if ('reason' in r) return { unreadable: r.reason };
    files.push({ ...r, path: source + r.path.slice(read.length) }); // a package part keeps its " [part NAME]"
  }
  if (local && job.folder && job.claim) for (const file of files) namedAsArrived(file, local.root!, job.source);
  return files.length > 0 ? files : { unreadable: 'nothing read' };
}

/** A claimed job folder's findings name its files where they arrived (IN/FOLDER/...), not in the work folder. */
function namedAsArrived(file: FileReport, now: string, arrived: string): void {
  const swap = (text: string) => text.split(now).join(arrived);
  for (const f of [...file.findings, ...file.references.flatMap((r) => r.findings)]) {
    // New args (equal findings may share one object); a finding made by its rule says its words from them, a plain
    // one carries its own.
    if (f.args) f.args = Object.fromEntries(Object.entries(f.args).map(([k, v]) => [k, typeof v === 'string' ? swap(v) : v]));
    if (Object.hasOwn(f, 'message')) f.message = swap(f.message);
  }
}

/** Not a whole document yet, and not still for long enough to be called broken: look again later. */
export function notYetWhole(job: Job, files: Checked, parseWaitMs: number): boolean {
  const incomplete = 'unreadable' in files || files.some((file) => file.findings.some((f) => INCOMPLETE.has(f.code)));
  if (!incomplete || Date.now() - job.settle.since >= parseWaitMs) return false;
  job.stage = 'settling';
  job.due = job.settle.since + parseWaitMs;
  return true;
}

/** A job folder without exactly one ticket (`found`: the ticket names at its top level): routed to ERROR with one finding that says so. */
export function noTicketReport(job: Job, found: readonly string[], profile: Profile | undefined): FileReport {
  const p = jobFolderProblem(job.source, found);
  return { path: job.source, encoding: 'unknown', references: [], findings: [createFinding(p.code, p.args, { profile: profile ?? 'jdf', at: { line: 1, column: 1 } })] };
}

/** A ticket that could not be read at all: routed to ERROR with one finding that says why. */
export function unreadableReport(job: Job, reason: string): FileReport {
  return {
    path: arrivedAs(job),
    encoding: 'unknown',
    references: [],
    findings: [{ code: 'file-unreadable', severity: 'error', message: `The ticket could not be read: ${reason}`, spec: 'JDF appendix 4.6', line: 1, column: 1 }],
  };
}
