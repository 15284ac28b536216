// Views of one storage: the same files as a MIS, a RIP, a Mac or a web server name them. Pure data, so the
// table crosses into worker threads as it is.

/** How one view's file system compares names. */
export interface ViewOptions {
  /** The file system folds case (Windows, macOS): "Jobs" and "JOBS" are one folder. */
  caseFolding: boolean;
}

/** One prefix of a view in one storage row, e.g. mis -> file://fileserver/Jobs/. */
export interface ViewEntry {
  view: string;
  /** As written in the config (a URL, a path, or "./"). */
  prefix: string;
  /** As a URL ending in "/"; "*:" as a path segment stands for any drive letter. "./" for the ticket's folder. */
  url: string;
  /** Position among this view's prefixes in this row: fallbacks are tried in this order. */
  index: number;
}

/** One row of the table: the prefixes under which every view sees the same folder. */
export interface Storage {
  name: string;
  entries: ViewEntry[];
}

export interface ViewTable {
  /** The view this machine is: its prefixes are where the files are found here. */
  machine?: string;
  views: Record<string, ViewOptions>;
  storages: Storage[];
}

/** Which view and which entry of the table a reference matched; `path` is the file chosen on this machine. */
export interface MappedBy {
  view: string;
  storage: string;
  /** The entry's prefix as written in the config (or on the command line). */
  entry: string;
  index: number;
  /** The local path it was looked for at (the first fallback that exists, else the first). */
  path?: string;
  /** The machine entry that path came from. */
  machineEntry?: string;
}

/** The name the table gives this machine's view when no config names one (for --map rows). */
export const DEFAULT_MACHINE = 'local';
