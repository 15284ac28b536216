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
  /** The consumer the ticket is read for (validate's --platform). */
  platform: Platform;
}

/** jdf-filespec relocate: 0 when done (1 when some references could not move with their file), 2 when nothing was done. */
export async function runRelocate(run: RelocateRun): Promise<number> {
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
    const manifest = await relocate(run.ticket, { to: run.to, mode: run.mode, ...(run.root !== undefined ? { root: run.root } : {}), ...(views ? { views } : {}), ...(run.allowMissing ? { allowMissing: true } : {}), platform: run.platform });
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
