// From a matched URL to the same file in another view: the other view's prefix, then the rest as written.
import type { ViewMatch } from './match.js';
import type { ViewEntry, ViewTable } from './types.js';

/** The entry's URL with "*:" replaced by the drive the matched URL had; null when there is no drive to put. */
function concrete(entry: ViewEntry, drive: string | undefined): string | null {
  if (!/(^|\/)\*[:|]\//.test(entry.url)) return entry.url;
  if (drive === undefined) return null;
  return entry.url.replace(/(^|\/)\*([:|])\//, (_, lead: string, colon: string) => `${lead}${drive}${colon}/`);
}

/** The view's entries of the matched row, in fallback order. */
export function entriesOf(match: ViewMatch, view: string): ViewEntry[] {
  return match.storage.entries.filter((e) => e.view === view).sort((a, b) => a.index - b.index);
}

/**
 * The matched URL as `view` names it: its first entry that can name it (not the ticket's folder; a drive
 * wildcard only when the URL had a drive), then the rest as written. Null when the view has no such entry.
 */
export function inView(match: ViewMatch, view: string): { url: string; entry: ViewEntry } | null {
  for (const entry of entriesOf(match, view)) {
    if (entry.url.startsWith('./')) continue;
    const prefix = concrete(entry, match.drive);
    if (prefix !== null) return { url: prefix + match.rest + match.suffix, entry };
  }
  return null;
}

/**
 * Where this machine may hold the file, in fallback order: every entry of the machine's view in the matched
 * row, "./" standing for the ticket's folder (`ticketFolder`, a URL ending in "/").
 */
export function machineCandidates(match: ViewMatch, table: ViewTable, machine: string, ticketFolder?: string): Array<{ url: string; entry: ViewEntry }> {
  const out: Array<{ url: string; entry: ViewEntry }> = [];
  if (!(machine in table.views)) return out;
  for (const entry of entriesOf(match, machine)) {
    let prefix: string | null;
    if (entry.url.startsWith('./')) prefix = ticketFolder !== undefined ? ticketFolder + entry.url.slice(2) : null;
    else prefix = concrete(entry, match.drive);
    if (prefix !== null) out.push({ url: prefix + match.rest + match.suffix, entry });
  }
  return out;
}
