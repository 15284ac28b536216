// Discovery: which tickets are in IN. A file-system event on the folder tells us at once; a sweep of the folder
// (names only) every poll interval catches what events miss. On a network share (NFS, SMB, ...) events from
// other machines never arrive, so there the sweep alone polls: chosen from the file system type, with --poll,
// or when the sweep finds a ticket that no event announced.
//
// Why fs.watch on the folder and not chokidar: chokidar (tried first, version 5) reads the whole folder again,
// with an lstat per entry, on every event in it. With thousands of tickets dropped at once that is quadratic:
// measured here, 36% of the process in lstat at 600 tickets, and throughput fell from 103 tickets/s (300 at once)
// to 34/s (600 at once). Its polling mode does the same on each change of the folder, which is worse over NFS.
// One watch on the folder and a names-only sweep need neither, and the settle step stats only the tickets
// that are settling.
import { EventEmitter } from 'node:events';
import { watch as fsWatch, type Dirent } from 'node:fs';
import { readdir, statfs } from 'node:fs/promises';
import path from 'node:path';
import { PACKAGE_EXTENSIONS } from '../discover.js';
import { TICKET_EXTENSIONS } from '../files.js';
import { isClaimFileName } from './claim.js';

/** statfs f_type of file systems where another machine's writes raise no local events (Linux magic numbers). */
const NETWORK_FS = new Map<number, string>([
  [0x6969, 'nfs'], [0x517b, 'smb'], [0xff534d42, 'cifs'], [0xfe534d42, 'smb2'], [0x73757245, 'coda'],
  [0x5346414f, 'afs'], [0x01021997, '9p'], [0x65735546, 'fuse'], [0x00c36400, 'ceph'], [0x564c, 'ncp'],
]);

export async function networkFileSystem(folder: string): Promise<string | null> {
  if (process.platform !== 'linux') return null;
  try {
    return NETWORK_FS.get((await statfs(folder)).type >>> 0) ?? null;
  } catch {
    return null;
  }
}

/**
 * What the step takes: tickets, and job packages (MIME .mjm, .mjd and .mim; zip), each read as `validate` reads
 * it (a package is told by its bytes). A zip is taken here, though a folder search of `validate` passes it by:
 * what is dropped in a hot folder is meant to be a job.
 */
const JOB_EXTENSIONS = new Set([...TICKET_EXTENSIONS, ...PACKAGE_EXTENSIONS, '.mim', '.zip']);

export const isTicketName = (name: string) => !name.startsWith('.') && JOB_EXTENSIONS.has(path.extname(name).toLowerCase());

export interface DiscoveryHandlers {
  /** A ticket may have arrived or changed in IN (an event, or the sweep saw it); the watcher looks. `folder`: a job folder (the sweep saw a folder, not a link to one). */
  seen(file: string, folder?: boolean): void;
  /** The names in IN at a sweep that are not taken (neither tickets, packages nor job folders, nor hidden): none is silently ignored. */
  others(files: string[]): Promise<void> | void;
  /** Switched to polling, and why. */
  polling(reason: string): void;
  error(error: Error): void;
}

export interface Discovery {
  readonly mode: 'events' | 'polling';
  close(): Promise<void>;
}

/** Events on one folder: emits 'name' with the name of an entry that changed, and 'error'. */
export type FolderEvents = EventEmitter & { close(): void };

/** A test can stand in for the file-system watch (to play a share whose events never arrive). */
export type WatcherFactory = (folder: string) => FolderEvents;

const nativeFactory: WatcherFactory = (folder) => {
  const events = new EventEmitter() as FolderEvents;
  const watcher = fsWatch(folder, { persistent: true }, (_type, name) => {
    if (name) events.emit('name', name.toString());
  });
  watcher.on('error', (error) => events.emit('error', error));
  events.close = () => watcher.close();
  return events;
};

/** What discovery knows between events and sweeps. */
interface State {
  readonly folder: string;
  readonly pollMs: number;
  readonly on: DiscoveryHandlers;
  mode: 'events' | 'polling';
  watcher: FolderEvents | undefined;
  swept: boolean;
  /** Tickets in IN that an event named, and tickets the sweep found that no event named (and when). */
  announced: Set<string>;
  unannounced: Map<string, number>;
}

export async function discover(folder: string, options: { poll?: boolean; pollMs: number; factory?: WatcherFactory }, on: DiscoveryHandlers): Promise<Discovery> {
  const state: State = { folder, pollMs: options.pollMs, on, mode: 'polling', watcher: undefined, swept: false, announced: new Set(), unannounced: new Map() };
  const fsType = options.poll === undefined ? await networkFileSystem(folder) : null;
  if (options.poll) state.mode = 'polling';
  else if (fsType) toPolling(state, `IN is on a network file system (${fsType}), where events from other machines do not arrive`);
  else watchEvents(state, options.factory ?? nativeFactory);

  let sweeping: Promise<void> = sweep(state);
  const timer = setInterval(() => {
    sweeping = sweeping.then(() => sweep(state));
  }, options.pollMs);

  return {
    get mode() {
      return state.mode;
    },
    async close() {
      clearInterval(timer);
      await sweeping;
      state.watcher?.close();
    },
  };
}

function toPolling(state: State, reason: string): void {
  state.watcher?.close();
  state.watcher = undefined;
  state.mode = 'polling';
  state.unannounced.clear();
  state.on.polling(reason);
}

/** Events on IN: each ticket an event names is seen at once (and owes the sweep nothing). */
function watchEvents(state: State, factory: WatcherFactory): void {
  try {
    state.watcher = factory(state.folder);
    state.mode = 'events';
    state.watcher.on('name', (name: string) => {
      if (!isTicketName(name)) return;
      const file = path.join(state.folder, name);
      state.announced.add(file);
      state.unannounced.delete(file);
      state.on.seen(file);
    });
    state.watcher.on('error', (error: Error) => toPolling(state, `file-system events failed: ${error.message}`));
  } catch (error) {
    toPolling(state, `file-system events are not available here: ${(error as Error).message}`);
  }
}

/**
 * The names in IN: each ticket is seen, and each job folder (a folder whose name is neither hidden nor a
 * ticket's, told by the entry's own type: a link to a folder is not one); in events mode, a ticket that no event
 * named within a poll interval means polling.
 */
async function sweep(state: State): Promise<void> {
  let entries: Dirent[];
  try {
    entries = await readdir(state.folder, { withFileTypes: true });
  } catch (error) {
    state.on.error(error as Error);
    return;
  }
  const now = Date.now();
  const present = new Set<string>();
  const others: string[] = [];
  for (const entry of entries) {
    const name = entry.name;
    if (!isTicketName(name)) {
      if (name.startsWith('.')) continue;
      if (entry.isDirectory() && !isClaimFileName(name)) state.on.seen(path.join(state.folder, name), true);
      else others.push(path.join(state.folder, name));
      continue;
    }
    const file = path.join(state.folder, name);
    present.add(file);
    state.on.seen(file);
    // Files there at the first sweep were there before the watch began: no event is owed for them.
    if (!state.swept) state.announced.add(file);
    else if (state.mode === 'events' && !state.announced.has(file) && !state.unannounced.has(file)) state.unannounced.set(file, now);
  }
  for (const f of state.announced) if (!present.has(f)) state.announced.delete(f);
  state.swept = true;
  await state.on.others(others);
  // A ticket the sweep found that no event named within a poll interval (whether it is still there or has
  // been taken since): events do not arrive here.
  for (const [file, first] of state.unannounced) {
    if (now - first < state.pollMs) continue;
    toPolling(state, `no file-system event named ${path.basename(file)} within ${state.pollMs} ms`);
    break;
  }
}
