// A reference through the view table: which view, storage row and entry it falls under (mappedBy), and where
// this machine may hold it, in fallback order. Pure: the caller says how a URL is a path here, and looks.
import { matchView } from './match.js';
import { machineCandidates } from './translate.js';
import { DEFAULT_MACHINE, type MappedBy, type ViewTable } from './types.js';

export interface MappedReference {
  /** The view, the row and the entry as written; no local path yet (the caller picks one of `local`). */
  mappedBy: MappedBy;
  /** This machine's view: the table's, else DEFAULT_MACHINE. */
  machine: string;
  /** The machine view's prefixes in the row, as paths here, in fallback order; those `toPath` cannot name are left out. */
  local: Array<{ path: string; entry: string }>;
}

/**
 * Maps a resolved URL through the table; null when no row maps it. `toPath` makes a candidate URL a local
 * path (null when it names none here); `documentUri`'s folder is what a "./" entry stands for.
 */
export function mapReference(resolved: string, table: ViewTable, toPath: (url: string) => string | null, documentUri?: string): MappedReference | null {
  const match = matchView(resolved, table);
  if (!match) return null;
  const machine = table.machine ?? DEFAULT_MACHINE;
  const folder = documentUri?.slice(0, documentUri.lastIndexOf('/') + 1);
  const local: MappedReference['local'] = [];
  for (const candidate of machineCandidates(match, table, machine, folder)) {
    const path = toPath(candidate.url);
    if (path !== null) local.push({ path, entry: candidate.entry.prefix });
  }
  return { mappedBy: { view: match.entry.view, storage: match.storage.name, entry: match.entry.prefix, index: match.entry.index }, machine, local };
}

/** mappedBy as validate reports it without --check-exists (nothing looked at): the first local candidate, if any. */
export function mappedByUnchecked(mapped: MappedReference): MappedBy {
  const first = mapped.local[0];
  return first ? { ...mapped.mappedBy, path: first.path, machineEntry: first.entry } : mapped.mappedBy;
}
