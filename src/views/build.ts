// The view table from a config's plain data (already checked against schemas/config.schema.json), and the
// rows that --map adds. Problems come back with the JSON path they are at, so the loader can give line and column.
import { startsWithDrivePath } from '../fileurl/drive.js';
import { pathToFileUrl, PathConversionError } from '../paths/convert.js';
import { DEFAULT_MACHINE, type Storage, type ViewEntry, type ViewTable } from './types.js';

export interface ViewsConfig {
  machine?: string | Record<string, string>;
  views?: Record<string, { caseFolding?: boolean }>;
  storage?: Record<string, Record<string, string | string[]>>;
}

export interface TableProblem {
  /** JSON path of the offending value, e.g. ["storage", "jobs", "rip", 0]. */
  at: Array<string | number>;
  /** The problem is the property's name, not its value. */
  key?: boolean;
  message: string;
}

const SCHEME = /^[A-Za-z][A-Za-z0-9+.-]+:/;

/**
 * A prefix as a URL ending in "/": URLs as written, "./" for the ticket's folder, POSIX paths ("/mnt/jobs"),
 * Windows paths ("Z:\Jobs", "\\fileserver\Jobs", and "*:\Jobs" for any drive) through pathToFileUrl.
 */
export function prefixUrl(prefix: string): string {
  const slash = (u: string) => (u.endsWith('/') ? u : u + '/');
  if (prefix === '.' || prefix === './') return './';
  if (SCHEME.test(prefix)) return slash(prefix);
  // The wildcard travels through the conversion as a drive letter that cannot occur there ("*" is not one).
  const wild = prefix.startsWith('*');
  const asDrive = wild ? 'Z' + prefix.slice(1) : prefix;
  if (startsWithDrivePath(asDrive) || prefix.startsWith('\\\\')) {
    const url = pathToFileUrl(asDrive, { platform: 'windows' });
    return slash(wild ? url.replace(/^file:\/\/\/Z([:|])/, 'file:///*$1') : url);
  }
  if (prefix.startsWith('/')) return slash(pathToFileUrl(prefix, { platform: 'posix' }));
  throw new PathConversionError('invalid-path', `'${prefix}' is neither a URL, an absolute path, nor "./" (the ticket's folder).`);
}

/** The machine's view: a name, or host names to names ("*" for any other host). */
export function machineView(machine: ViewsConfig['machine'], hostname: string): string | undefined {
  if (machine === undefined || typeof machine === 'string') return machine;
  const host = hostname.toLowerCase();
  for (const [name, view] of Object.entries(machine)) if (name.toLowerCase() === host) return view;
  return machine['*'];
}

export function buildTable(config: ViewsConfig, hostname: string): { table: ViewTable; problems: TableProblem[] } {
  const problems: TableProblem[] = [];
  const views: ViewTable['views'] = {};
  for (const [name, options] of Object.entries(config.views ?? {})) views[name] = { caseFolding: options.caseFolding ?? false };
  const storages: Storage[] = [];
  for (const [name, row] of Object.entries(config.storage ?? {})) {
    const entries: ViewEntry[] = [];
    for (const [view, prefixes] of Object.entries(row)) {
      if (!(view in views)) problems.push({ at: ['storage', name, view], key: true, message: `view '${view}' is not declared under "views" (declared: ${Object.keys(views).join(', ') || 'none'})` });
      const list = Array.isArray(prefixes) ? prefixes : [prefixes];
      list.forEach((prefix, index) => {
        try {
          entries.push({ view, prefix, url: prefixUrl(prefix), index });
        } catch (error) {
          problems.push({ at: ['storage', name, view, ...(Array.isArray(prefixes) ? [index] : [])], message: (error as Error).message });
        }
      });
    }
    storages.push({ name, entries });
  }
  const machine = machineView(config.machine, hostname);
  if (typeof config.machine === 'string' && !(config.machine in views)) problems.push({ at: ['machine'], message: `view '${config.machine}' is not declared under "views"` });
  if (typeof config.machine === 'object') {
    for (const [host, view] of Object.entries(config.machine)) if (!(view in views)) problems.push({ at: ['machine', host], message: `view '${view}' is not declared under "views"` });
  }
  return { table: { ...(machine !== undefined ? { machine } : {}), views, storages }, problems };
}

/**
 * Adds one row per --map PREFIX=PATH: PREFIX in a view named "--map", the folder (as a file URL) in the
 * machine's view. A table without a machine gets the view "local" for them.
 */
export function withMaps(table: ViewTable, maps: ReadonlyArray<{ prefix: string; folderUrl: string }>): ViewTable {
  if (maps.length === 0) return table;
  const machine = table.machine ?? DEFAULT_MACHINE;
  const views: ViewTable['views'] = { ...table.views, '--map': { caseFolding: false } };
  if (!(machine in views)) views[machine] = { caseFolding: false };
  const rows: Storage[] = maps.map((m) => ({
    name: `--map ${m.prefix}`,
    entries: [
      { view: '--map', prefix: m.prefix, url: prefixUrl(m.prefix), index: 0 },
      { view: machine, prefix: m.folderUrl, url: prefixUrl(m.folderUrl), index: 0 },
    ],
  }));
  return { machine, views, storages: [...rows, ...table.storages] };
}
