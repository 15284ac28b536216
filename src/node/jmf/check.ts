// A submission checked as `validate` checks it: a MIME package whole (its JMF, its ticket, its parts), or a bare
// JMF and the ticket its URL names (file: on this machine, http: fetched up to maxBytes). `unreachable` says why
// the ticket itself could not be had.
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { cidToContentId } from '../../package/cid.js';
import type { FileReport } from '../../report/report.js';
import type { NoteOf } from '../../jmf/answer.js';
import { validateSources } from '../batch.js';
import { validatePackageSource } from '../package-read.js';
import { chunksOf, saveBody } from './body.js';
import type { JmfOptions } from './options.js';

export interface Checked {
  files: FileReport[];
  /** Why the ticket the URL names could not be read (JDF 1.x ReturnCode 120). */
  unreachable?: string;
}

/** The submission in `file` (the body as it came) with the ticket `url` names. */
export async function checkSubmission(url: string, file: string, contentType: string | undefined, multipart: boolean, o: JmfOptions): Promise<Checked> {
  const documentUri = pathToFileURL(file).href;
  let files: FileReport[];
  if (multipart) {
    files = await validatePackageSource(chunksOf(file), { path: 'submission', documentUri }, { ...o.validate, maxBytes: o.maxBytes, ...(contentType !== undefined ? { contentType } : {}), ...(o.limits ? { limits: o.limits } : {}) }, o.local);
  } else {
    files = reportsOf(await validateSources([{ path: file, documentUri }], o.validate, { maxBytes: o.maxBytes, local: o.local, isolate: false })).map((f) => ({ ...f, path: 'submission' }));
  }
  const id = cidToContentId(url);
  if (id !== undefined) {
    const parts = files[0]?.package?.parts ?? [];
    return parts.some((p) => p.contentId === id) ? { files } : { files, unreachable: multipart ? `no part of the package has the Content-ID <${id}> that ${url} names` : `${url} names a part of a MIME package, but the body is not one` };
  }
  // RFC 2557 / RFC 2387: a part may be named by its Content-Location as well.
  if (multipart && (files[0]?.package?.parts ?? []).some((p) => p.location === url)) return { files };
  const ticket = await checkTicketAt(url, o);
  return 'unreachable' in ticket ? { files, unreachable: ticket.unreachable } : { files: [...files, ...ticket.files] };
}

function reportsOf(results: Awaited<ReturnType<typeof validateSources>>): FileReport[] {
  return results.filter((r): r is FileReport => !('reason' in r));
}

/** The ticket a file: or http(s): URL names, checked with the run's options; or why it could not be read. */
async function checkTicketAt(url: string, o: JmfOptions): Promise<{ files: FileReport[] } | { unreachable: string }> {
  let scheme: string;
  try {
    scheme = new URL(url).protocol;
  } catch {
    return { unreachable: `${url} is not a URL this server can open` };
  }
  if (scheme === 'file:') {
    let where: string;
    try {
      where = fileURLToPath(url);
    } catch (error) {
      return { unreachable: `${url} is not a file on this machine (${(error as Error).message})` };
    }
    if (o.local?.root !== undefined && !isInside(where, o.local.root)) return { unreachable: `${url} is outside the folder this server may read` };
    return validated(where, url, o);
  }
  if (scheme === 'http:' || scheme === 'https:') {
    const refused = notAllowed(url, o.fetchFrom);
    return refused !== undefined ? { unreachable: refused } : fetched(url, o);
  }
  return { unreachable: `${url}: this server opens file:, http: and https: tickets (and cid: parts of a MIME package)` };
}

async function validated(where: string, url: string, o: JmfOptions): Promise<{ files: FileReport[] } | { unreachable: string }> {
  const results = await validateSources([{ path: where, documentUri: url }], o.validate, { maxBytes: o.maxBytes, local: o.local, isolate: false });
  const unreadable = results.find((r) => 'reason' in r);
  if (unreadable && 'reason' in unreadable) return { unreachable: `${url} could not be read: ${unreadable.reason}` };
  return { files: reportsOf(results).map((f) => ({ ...f, path: url })) };
}

/** Why `url` may not be fetched: it is under none of the allowed prefixes (compared as parsed URLs, so a
 * prefix's host is the URL's whole host). */
function notAllowed(url: string, prefixes: readonly string[] | undefined): string | undefined {
  if (prefixes === undefined || prefixes.length === 0) return `${url} is not fetched: this server fetches no http(s) tickets (serve --fetch-from PREFIX, or "serve": { "fetchFrom": [...] }, allows some)`;
  const href = new URL(url).href;
  return prefixes.some((p) => href.startsWith(new URL(p).href)) ? undefined : `${url} is not fetched: it is not under ${prefixes.join(' or ')}, where this server fetches tickets from`;
}

/** The most redirects followed for a ticket, each hop held to the allowed prefixes. */
const MAX_REDIRECTS = 5;

/** An http(s) ticket, up to maxBytes, into a temporary folder removed afterwards; its URL stays its base. */
async function fetched(url: string, o: JmfOptions): Promise<{ files: FileReport[] } | { unreachable: string }> {
  const folder = await mkdtemp(path.join(os.tmpdir(), 'jdf-filespec-jmf-'));
  try {
    let answer = await (o.fetch ?? fetch)(url, { redirect: 'manual' });
    for (let hop = 0; answer.status >= 300 && answer.status < 400 && answer.headers.get('location') !== null; hop += 1) {
      const next = new URL(answer.headers.get('location')!, answer.url || url).href;
      await answer.body?.cancel();
      const refused = hop >= MAX_REDIRECTS ? `${url} redirects more than ${MAX_REDIRECTS} times` : notAllowed(next, o.fetchFrom);
      if (refused !== undefined) return { unreachable: `${url} redirects to ${next}; ${refused}` };
      answer = await (o.fetch ?? fetch)(next, { redirect: 'manual' });
    }
    if (!answer.ok || !answer.body) return { unreachable: `${url} answered HTTP ${answer.status}` };
    const saved = await saveBody(answer.body as unknown as AsyncIterable<Uint8Array>, path.join(folder, 'ticket'), o.maxBytes);
    if ('over' in saved) return { unreachable: `${url} is larger than ${o.maxBytes} bytes` };
    return await validated(path.join(folder, 'ticket'), url, o);
  } catch (error) {
    return { unreachable: `${url} could not be fetched: ${(error as Error).message}` };
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}

function isInside(file: string, root: string): boolean {
  const relative = path.relative(path.resolve(root), path.resolve(file));
  return relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative));
}

/** One note per finding: the file's own, then each reference's with its element path. */
export function notesOf(files: readonly FileReport[]): NoteOf[] {
  const notes: NoteOf[] = [];
  for (const f of files) {
    const part = f.part !== undefined ? { part: f.part } : {};
    for (const x of f.findings) notes.push({ severity: x.severity, code: x.code, message: x.message, line: x.line, column: x.column, ...part });
    for (const r of f.references) {
      for (const x of r.findings) notes.push({ severity: x.severity, code: x.code, message: x.message, line: x.line, column: x.column, path: `${r.element}/@${r.attribute}`, ...part });
    }
  }
  return notes;
}
