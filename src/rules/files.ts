// Findings about the files themselves (validate --check-exists, --root): reported by src/node/local-files.ts.
import type { RuleCode } from './codes.js';
import { examples, sev } from './helpers.js';
import type { CatalogRule, RuleMeta } from './types.js';

type FilesRule = CatalogRule & { meta: RuleMeta & { scope: 'files' } };

export function filesRule(meta: Omit<RuleMeta, 'scope' | 'examples' | 'fixable'> & { flagged: string; clean: string }, message: CatalogRule['message']): FilesRule {
  const { flagged, clean, ...rest } = meta;
  return { meta: { ...rest, scope: 'files', fixable: false, examples: examples([{ value: flagged }], [{ value: clean }]) }, message };
}

export const fileMissing = filesRule({
  code: 'file-missing', title: 'File not found', spec: 'JDF appendix 4.6',
  description: 'The reference resolves to a local path where there is no file. Checked with --check-exists. When one file nearby is the same name written another way (case in any component, NFC against NFD, a literal %20, Latin-1 bytes, the Directory\'s last segment dropped or doubled), the message names it and the URL that opens it is a suggestion (fix never looks at the file system, so it never writes it).',
  severity: sev('error', 'error', 'error'), flagged: 'pages/p1.pdf (no such file)', clean: 'pages/p1.pdf (present)',
}, (a) => (a.found ? `No file at ${a.path}, but there is ${a.found} (${a.how}); correct the URL or the name.` : `No file at ${a.path}; put the file there or correct the URL.`));

export const caseMismatch = filesRule({
  code: 'case-mismatch', title: 'File exists only with other case', spec: 'RFC 8089 2, 5',
  description: 'On a case-sensitive file system the file exists, but only under a name that differs in case; a case-insensitive consumer (Windows, macOS) would open it, this machine will not.',
  severity: sev('error', 'error', 'error'), flagged: 'Cover.PDF (the file is cover.pdf)', clean: 'cover.pdf',
}, (a) => `No file at ${a.path}, but '${a.actual}' differs only in case; correct the URL's case.`);

export const notAFile = filesRule({
  code: 'not-a-file', title: 'Folder or special file where a file was expected', spec: 'JDF appendix 4.6',
  description: 'The URL of a FileSpec names a folder, or a FIFO, socket or device, not a regular file. Such a file is never opened (opening a FIFO blocks), and its FileSize, MimeType and CheckSum are not checked.',
  severity: sev('error', 'error', 'error'), flagged: 'pages (a folder)', clean: 'pages/p1.pdf',
}, (a) => (a.what === undefined || a.what === 'a folder' ? `${a.path} is a folder, not a file; name the file in it.` : `${a.path} is ${a.what}, not a regular file; name a regular file.`));

export const notADirectory = filesRule({
  code: 'not-a-directory', title: 'Directory is not a folder', spec: 'JDF appendix 2',
  description: 'A Directory (base URI) names something that is missing or is not a folder.',
  severity: sev('error', 'error', 'error'), flagged: 'file:///srv/jobs/missing/', clean: 'file:///srv/jobs/',
}, (a) => `${a.path} is ${a.what}; a Directory must be an existing folder.`);

export const fileUnreadable = filesRule({
  code: 'file-unreadable', title: 'File cannot be read', spec: 'JDF appendix 4.6',
  description: 'The file exists but this process may not read it.',
  severity: sev('error', 'error', 'error'), flagged: 'pages/p1.pdf (mode 000)', clean: 'pages/p1.pdf (readable)',
}, (a) => `${a.path} exists but cannot be read (${a.reason}); fix its permissions.`);

export const fileStillChanging = filesRule({
  code: 'file-still-changing', title: 'File still being written', spec: 'JDF appendix 4.6',
  description: 'The hot folder (watch --check-exists --wait-for-files): the file is there, but its size or modification time was still changing when the wait ran out, so it is taken as not complete (a PDF still being copied).',
  severity: sev('error', 'error', 'error'), flagged: 'pages/p1.pdf (growing when --wait-for-files ran out)', clean: 'pages/p1.pdf (unchanged for --settle)',
}, (a) => `${a.path} is still being written: its size or time changed within the last ${a.settleMs} ms when --wait-for-files (${a.waitMs} ms) ran out; drop the ticket again once the file is complete.`);

export const jobFolderTicket = filesRule({
  code: 'job-folder-ticket', title: 'Job folder without exactly one ticket', spec: 'jdf-filespec',
  description: 'The hot folder (watch) takes a folder dropped in IN as one job: its ticket is the one file at the folder\'s top level with a ticket\'s extension (.jdf, .xjdf, .jmf, .xjmf, .ptk). A folder with none, or with several, is not checked: it goes to ERROR as it is, with this finding naming what was found.',
  severity: sev('error', 'error', 'error'), flagged: 'job-4711/ holding job.jdf and job-old.jdf', clean: 'job-4711/ holding job.jdf and pages/',
}, (a) => (a.count === 0 ? `The job folder ${a.folder} holds no ticket at its top level (a .jdf, .xjdf, .jmf, .xjmf or .ptk file); put its ticket there.` : `The job folder ${a.folder} holds ${a.count} tickets at its top level (${a.names}); a job folder holds exactly one: move the others out, or drop each job in a folder of its own.`));

export const outsideRoot = filesRule({
  code: 'outside-root', title: 'Reference escapes the root folder', spec: 'RFC 8089 5; RFC 3986 7',
  description: 'With --root, every local file must stay inside the root after dot segments, percent-decoding (%2E%2E), case folding and symbolic links. A reference that escapes is an error, and nothing outside the root is opened or stat-ed.',
  severity: sev('error', 'error', 'error'), flagged: '../../etc/passwd', clean: 'pages/p1.pdf',
}, (a) => `This reference leads outside the root folder${a.how}; nothing there was opened. Keep the files inside the root.`);

/** outside-root where the confined walk (src/node/confine.ts) left the root, `how` in its words ('' by dot segments). */
export const outsideRootProblem = (how: string): { code: RuleCode; args: Record<string, string> } => ({ code: 'outside-root', args: { how } });

/** outside-root where the path a link walk found changed while it was checked (a link swapped in): nothing opened. */
export const changedOutsideRoot = (): { code: RuleCode; args: Record<string, string> } => ({ code: 'outside-root', args: { how: ' through a symbolic link that changed during the check' } });

export const notChecked = filesRule({
  code: 'not-checked', title: 'File on another host, not checked', spec: 'RFC 8089 3',
  description: 'A file URL naming another host (a file server) is not local (RFC 8089 section 3) and is not looked for, unless a view of the config (jdf-filespec.config.json) or --map maps its prefix to a local folder.',
  severity: sev('info', 'info', 'info'), flagged: 'file://fileserver/Jobs/a.pdf', clean: 'file:///srv/jobs/a.pdf',
}, (a) => `Not checked: it is on the host '${a.host}', which no view of the config and no --map maps to this machine; add its prefix to a view, or --map ${a.prefix}=/local/folder/.`);

export const notALocalPath = filesRule({
  code: 'not-a-local-path', title: 'URL names no path on this machine', spec: 'RFC 8089 3; appendix Table 4 example 26',
  description: 'The URL cannot be turned into a path on this platform: a name that decodes to the path separator (%2F) or to NUL (%00), a fragment, or on Windows a path without a drive letter. (On Linux and macOS a drive letter is an ordinary folder name: file:///c:/jobs/a.pdf is the path /c:/jobs/a.pdf.)',
  severity: sev('warning', 'warning', 'warning'), flagged: 'file:///srv/jobs/a%2Fb.pdf (%2F decodes to the path separator)', clean: 'file:///srv/jobs/a.pdf (on Linux or macOS)',
}, (a) => `Not checked: ${a.why}${a.hint}`);

export const filesRules: FilesRule[] = [fileMissing, caseMismatch, notAFile, notADirectory, fileUnreadable, fileStillChanging, jobFolderTicket, outsideRoot, notChecked, notALocalPath];

type Found = { code: RuleCode; args: Record<string, string> };

/**
 * What the Node edge (src/node/local-files.ts) saw at a path: nothing there (and, for a file, a name in its
 * folder that differs only in case), or what is there ('a folder', 'a FIFO', ...; for a regular file, why it
 * cannot be read, if it cannot).
 */
export type LookFacts = { found: 'nothing'; otherCase?: string | undefined } | { found: 'directory' | 'other'; what?: string } | { found: 'file'; unreadable?: string };

/** What is wrong with the path `shown` for a reference of `role`, from what the look saw; null: nothing. */
export function lookProblem(role: 'url' | 'directory', shown: string, facts: LookFacts): Found | null {
  if (role === 'directory') {
    if (facts.found === 'directory') return null;
    return { code: 'not-a-directory', args: { path: shown, what: facts.found === 'nothing' ? 'missing' : 'not a folder' } };
  }
  switch (facts.found) {
    case 'nothing': return facts.otherCase !== undefined ? { code: 'case-mismatch', args: { path: shown, actual: facts.otherCase } } : { code: 'file-missing', args: { path: shown } };
    case 'file': return facts.unreadable !== undefined ? { code: 'file-unreadable', args: { path: shown, reason: facts.unreadable } } : null;
    default: return { code: 'not-a-file', args: { path: shown, what: facts.what! } };
  }
}

/** A URL no path here stands for: on another host (not-checked), or one that does not convert (not-a-local-path). */
export function notLocal(facts: { host: string; prefix: string } | { why: string; drive?: string; isWindows: boolean }): Found {
  if ('host' in facts) return { code: 'not-checked', args: { host: facts.host, prefix: facts.prefix } };
  const hint = facts.drive !== undefined && !facts.isWindows ? ` Map the drive with --map file:///${facts.drive}:/=/local/folder/.` : '';
  return { code: 'not-a-local-path', args: { why: facts.why, hint } };
}

/** The hot folder's wait ran out while the file at `path` still changed (--settle and --wait-for-files in ms). */
export function stillChanging(path: string, settleMs: number, waitMs: number): { code: RuleCode; args: Record<string, string | number> } {
  return { code: 'file-still-changing', args: { path, settleMs, waitMs } };
}

/** A job folder without exactly one ticket at its top level (`found`: their names). */
export function jobFolderProblem(folder: string, found: readonly string[]): { code: RuleCode; args: Record<string, string | number> } {
  return { code: 'job-folder-ticket', args: { folder, count: found.length, names: found.slice(0, 10).join(', ') + (found.length > 10 ? `, and ${found.length - 10} more` : '') } };
}

/** A reference into a zip the ticket sits in (JDF appendix 4.6): file-missing when the zip has no entry `member`. */
export function containerMemberProblem(member: string, container: string, present: boolean): { code: RuleCode; args: Record<string, string> } | null {
  return present ? null : { code: 'file-missing', args: { path: `'${member}' inside ${container}` } };
}
