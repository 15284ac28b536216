// Discovery: which tickets are in IN. File-system events (chokidar) tell us at once; a sweep of the folder
// every poll interval catches what events miss. On a network share (NFS, SMB, ...) events from other machines
// never arrive, so there chokidar polls instead: chosen from the file system type, with --poll, or when the
// sweep finds a ticket that no event announced.
import { statfs, readdir } from 'node:fs/promises';
import path from 'node:path';
import { watch as chokidarWatch, type FSWatcher } from 'chokidar';
import { TICKET_EXTENSIONS } from '../files.js';

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

export const isTicketName = (name: string) => !name.startsWith('.') && TICKET_EXTENSIONS.includes(path.extname(name).toLowerCase());

export interface DiscoveryHandlers {
  /** A ticket is in IN (new, changed, or seen again by the sweep). */
  seen(file: string): void;
  gone(file: string): void;
  /** Switched to polling, and why. */
  polling(reason: string): void;
  error(error: Error): void;
}

export interface Discovery {
  readonly mode: 'events' | 'polling';
  close(): Promise<void>;
}

/** A test can stand in for chokidar (to play a share whose events never arrive). */
export type WatcherFactory = (folder: string, polling: boolean, pollMs: number) => FSWatcher;

const defaultFactory: WatcherFactory = (folder, polling, pollMs) =>
  chokidarWatch(folder, {
    depth: 0,
    usePolling: polling,
    interval: pollMs,
    binaryInterval: pollMs,
    ignoreInitial: false,
    // Only the tickets directly in IN: not the work folder or any other folder in it, not hidden temporaries.
    ignored: (p: string, stats?: { isFile(): boolean; isDirectory(): boolean }) => {
      if (path.resolve(p) === folder) return false;
      if (stats?.isDirectory() || path.dirname(path.resolve(p)) !== folder) return true;
      return !isTicketName(path.basename(p));
    },
  });

export async function discover(folder: string, options: { poll?: boolean; pollMs: number; factory?: WatcherFactory }, on: DiscoveryHandlers): Promise<Discovery> {
  const factory = options.factory ?? defaultFactory;
  let mode: 'events' | 'polling' = 'events';
  let watcher: FSWatcher;
  let ready = false;
  const announced = new Set<string>();
  const unannounced = new Map<string, number>();

  const start = (polling: boolean) => {
    mode = polling ? 'polling' : 'events';
    ready = false;
    watcher = factory(folder, polling, options.pollMs);
    const announce = (p: string) => {
      const file = path.resolve(p);
      announced.add(file);
      unannounced.delete(file);
      on.seen(file);
    };
    watcher.on('add', announce);
    watcher.on('change', announce);
    watcher.on('unlink', (p) => { announced.delete(path.resolve(p)); on.gone(path.resolve(p)); });
    watcher.on('ready', () => { ready = true; });
    watcher.on('error', (e) => on.error(e as Error));
  };

  const fsType = options.poll === undefined ? await networkFileSystem(folder) : null;
  if (options.poll) start(true);
  else if (fsType) {
    start(true);
    on.polling(`IN is on a network file system (${fsType}), where events from other machines do not arrive`);
  } else start(false);

  const sweep = async () => {
    let names: string[];
    try {
      names = await readdir(folder);
    } catch (error) {
      on.error(error as Error);
      return;
    }
    const now = Date.now();
    const present = new Set<string>();
    for (const name of names) {
      if (!isTicketName(name)) continue;
      const file = path.join(folder, name);
      present.add(file);
      on.seen(file);
      if (mode === 'events' && ready && !announced.has(file) && !unannounced.has(file)) unannounced.set(file, now);
    }
    for (const f of announced) if (!present.has(f)) announced.delete(f);
    // A ticket the sweep found that no event announced within a poll interval (whether it is still there or has
    // been taken since): events do not arrive here.
    for (const [file, first] of unannounced) {
      if (now - first < options.pollMs) continue;
      await watcher.close();
      unannounced.clear();
      start(true);
      on.polling(`no file-system event announced ${path.basename(file)} within ${options.pollMs} ms`);
      break;
    }
  };
  let sweeping: Promise<void> = sweep();
  const timer = setInterval(() => {
    sweeping = sweeping.then(sweep);
  }, options.pollMs);
  timer.unref();

  return {
    get mode() {
      return mode;
    },
    async close() {
      clearInterval(timer);
      await sweeping;
      await watcher.close();
    },
  };
}
