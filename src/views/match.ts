// Which entry of the view table a URL falls under, compared segment by segment (never inside a segment), so
// that file://fileserver/Jobs/ does not take file://fileserver/JobsOld/. The rest of the URL is kept exactly
// as written, with its escaping, so that a rebased value changes only its prefix.
import { decodeSegment } from '../escape/percent.js';
import { isDriveLetter } from '../fileurl/drive.js';
import { parseAuthority, parseReference } from '../uri/parse.js';
import type { Storage, ViewEntry, ViewTable } from './types.js';

export interface ViewMatch {
  storage: Storage;
  entry: ViewEntry;
  /** The path segments after the prefix, joined by "/", as written in the URL. */
  rest: string;
  /** "?query" and "#fragment", as written. */
  suffix: string;
  /** The drive letter the URL had where the entry holds "*:", if any. */
  drive?: string;
}

interface SplitUrl {
  scheme: string;
  /** Host (and port) folded for comparison; "" for none or localhost. */
  host: string;
  segments: string[];
  suffix: string;
}

/** Scheme, host and path segments of an absolute URL, or null for a relative reference. */
export function splitUrl(url: string): SplitUrl | null {
  const ref = parseReference(url.trim());
  if (ref.scheme === undefined) return null;
  let host = '';
  if (ref.authority !== undefined) {
    const a = parseAuthority(ref.authority);
    host = a.host.toLowerCase() + (a.port ? `:${a.port}` : '');
    if (host === 'localhost') host = '';
  }
  // RFC 8089 E.2: file:c:/x has its drive in a path without "/"
  const path = ref.path.startsWith('/') ? ref.path.slice(1) : ref.path;
  const suffix = (ref.query !== undefined ? `?${ref.query}` : '') + (ref.fragment !== undefined ? `#${ref.fragment}` : '');
  return { scheme: ref.scheme.toLowerCase(), host, segments: path.split('/'), suffix };
}

/** Two names are one name: escaping decoded, Unicode NFC, drive letters and (where the view folds) case folded. */
function sameName(pattern: string, name: string, fold: boolean): boolean | string {
  if (pattern === '*:' || pattern === '*|') {
    return isDriveLetter(name) ? name[0]! : false;
  }
  const a = decodeSegment(pattern).text.normalize('NFC');
  const b = decodeSegment(name).text.normalize('NFC');
  if (isDriveLetter(a) && isDriveLetter(b)) return a[0]!.toLowerCase() === b[0]!.toLowerCase();
  return fold ? a.toLowerCase() === b.toLowerCase() : a === b;
}

function matchEntry(entry: ViewEntry, url: SplitUrl, fold: boolean): { rest: string; drive?: string } | null {
  const prefix = splitUrl(entry.url);
  if (!prefix || prefix.scheme !== url.scheme) return null;
  if (prefix.host !== url.host) return null; // RFC 3986 3.2.2: hosts compare without case
  // The prefix ends in "/", so its last segment is empty: every other one must match a whole URL segment.
  const names = prefix.segments.slice(0, -1);
  if (url.segments.length <= names.length) return null;
  let drive: string | undefined;
  for (let k = 0; k < names.length; k++) {
    const same = sameName(names[k]!, url.segments[k]!, fold);
    if (same === false) return null;
    if (typeof same === 'string') drive = same;
  }
  return { rest: url.segments.slice(names.length).join('/'), ...(drive !== undefined ? { drive } : {}) };
}

/**
 * The entry the URL falls under: the one with the most segments (the most specific), the first in table
 * order among equals. Relative entries ("./", the ticket's own folder) match nothing here.
 */
export function matchView(url: string, table: ViewTable): ViewMatch | null {
  const split = splitUrl(url);
  if (!split) return null;
  let best: (ViewMatch & { length: number }) | null = null;
  for (const storage of table.storages) {
    for (const entry of storage.entries) {
      if (entry.url.startsWith('./')) continue;
      const fold = table.views[entry.view]?.caseFolding ?? false;
      const found = matchEntry(entry, split, fold);
      if (!found) continue;
      const length = entry.url.split('/').length;
      if (best && best.length >= length) continue;
      best = { storage, entry, rest: found.rest, suffix: split.suffix, length, ...(found.drive !== undefined ? { drive: found.drive } : {}) };
    }
  }
  if (!best) return null;
  const { length: _length, ...match } = best;
  return match;
}
