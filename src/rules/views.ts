// Findings about the view table and references that are not on this machine's disks (validate --check-exists).
import type { RuleCode } from './codes.js';
import { filesRule } from './files.js';
import { sev } from './helpers.js';

export const notInMachineView = filesRule({
  code: 'not-in-machine-view', title: 'Mapped, but not to this machine', spec: 'RFC 8089 3',
  description: "The config's view table maps the reference (it names which view and entry), but gives the view of this machine no folder in that storage row, so there is no local path to look at.",
  severity: sev('info', 'info', 'info'), flagged: 'file:///Volumes/Jobs/a.pdf (storage "jobs" has no prefix for the view "rip")', clean: 'file:///Volumes/Jobs/a.pdf (storage "jobs" has "rip": "/mnt/jobs/")',
}, (a) => `Not checked: the view '${a.view}' names it (storage '${a.storage}', entry ${a.entry}), but this machine's view '${a.machine}' has no folder in that storage; add one to the config.`);

export const remoteNotChecked = filesRule({
  code: 'remote-not-checked', title: 'Network reference, never fetched', spec: 'RFC 8089 3; JDF appendix 4.6',
  description: 'An http, https or ftp reference names a file on a server. jdf-filespec never fetches anything, so it is not checked, unless the view table maps its prefix to a folder of this machine.',
  severity: sev('info', 'info', 'info'), flagged: 'https://files.example.com/jobs/a.pdf', clean: 'https://files.example.com/jobs/a.pdf (mapped by a view to /mnt/jobs/)',
}, (a) => `Not checked: jdf-filespec never fetches ${a.scheme} references; it is on the host '${a.host}'. A view with its prefix maps it to a local folder.`);

export const viewsRules = [notInMachineView, remoteNotChecked];

type Found = { code: RuleCode; args: Record<string, string> };

/** The schemes of files on the network, never fetched: remote-not-checked. */
const NETWORK: ReadonlySet<string> = new Set(['http', 'https', 'ftp', 'ftps', 'sftp']);

export const isNetworkScheme = (scheme: string): boolean => NETWORK.has(scheme);

/** A network reference (isNetworkScheme) is not checked, and says so. */
export const remoteProblem = (scheme: string, host: string): Found => ({ code: 'remote-not-checked', args: { scheme, host } });

/** No prefix of this machine's view holds the entry a reference falls under. */
export function notInViewProblem(at: { view: string; storage: string; entry: string }, machine: string): Found {
  return { code: 'not-in-machine-view', args: { view: at.view, storage: at.storage, entry: at.entry, machine } };
}
