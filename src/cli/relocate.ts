import { viewTable } from '../node/config-file.js';
import { parseMap } from '../node/local-files.js';
import { relocate, RelocateError } from '../node/relocate.js';
import { plural } from '../report/check-text.js';
import type { Platform } from '../rules/types.js';
import { readConfig } from './views.js';

export interface RelocateRun {
  ticket: string;
  to: string;
  mode: 'copy' | 'move';
  root?: string;
  config?: string;
  maps: string[];
  allowMissing?: boolean;
  /** --platform as given: taken as validate and pack take it, and without effect here (its notice says why). */
  platform?: Platform;
}

/**
 * Why --platform changes nothing in relocate. It names the consumer validate's rules judge the values for; relocate
 * reports no findings, reads every file on this machine (as this machine names it, other machines' names through
 * the view table: the consumer's platform does not say where its drive or share is here), and writes each moved
 * file's reference as a relative path of escaped names (RFC 3986 4.2; JDF file-URL appendix Table 2 #7), which
 * every consumer resolves against the ticket's own folder alike; what it keeps stays as written or RFC 3986 5.2
 * resolved against the ticket's old place, which is no platform's choice either.
 */
const PLATFORM_NO_EFFECT = 'the files are read on this machine (other machines\' names through the view table), and the references are written relative to the ticket, which every platform reads alike';

/** jdf-filespec relocate: 0 when done (1 when some references could not move with their file), 2 when nothing was done. */
export async function runRelocate(run: RelocateRun): Promise<number> {
  if (run.platform !== undefined) process.stderr.write(`jdf-filespec: relocate: --platform has no effect: ${PLATFORM_NO_EFFECT}\n`);
  let maps;
  try {
    maps = run.maps.map(parseMap);
  } catch (error) {
    process.stderr.write(`jdf-filespec: ${(error as Error).message}\n`);
    return 2;
  }
  const loaded = await readConfig(run.config);
  if (loaded === null) return 2;
  const views = viewTable(loaded, maps);
  try {
    const manifest = await relocate(run.ticket, { to: run.to, mode: run.mode, ...(run.root !== undefined ? { root: run.root } : {}), ...(views ? { views } : {}), ...(run.allowMissing ? { allowMissing: true } : {}) });
    const kept = manifest.leftInPlace?.length ?? 0;
    const verb = run.mode === 'copy' ? 'copied' : kept > 0 ? `copied, ${plural(kept, 'source')} not removed` : 'moved';
    process.stdout.write(`${manifest.ticket.to}: ticket and ${plural(manifest.files.length, 'file')} ${verb}; manifest ${manifest.ticket.to.replace(/[^/\\]*$/, '')}jdf-filespec-relocate.json\n`);
    for (const n of manifest.notMoved) process.stdout.write(`${run.ticket}:${n.reference}: not moved: ${n.value}: ${n.reason}\n`);
    for (const l of manifest.leftInPlace ?? []) process.stdout.write(`${l.path}: copied but not removed: ${l.reason}\n`);
    return manifest.notMoved.length > 0 || (manifest.leftInPlace?.length ?? 0) > 0 ? 1 : 0;
  } catch (error) {
    const message = error instanceof RelocateError ? error.message : `${(error as NodeJS.ErrnoException).code ?? ''} ${(error as Error).message}`.trim();
    process.stderr.write(`jdf-filespec: relocate: nothing was changed: ${message}\n`);
    return 2;
  }
}
