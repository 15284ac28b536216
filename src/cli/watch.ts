// watch on the command line: one JSON line per event on standard output, a line per event and a running count on
// a terminal (standard error; watch-terminal.ts), SIGINT/SIGTERM finish what is in flight and stop (a second one
// stops at once; what is claimed is taken up again at the next start). A watcher that stops by itself because
// its work folder is no longer safe exits 2, as it would have refused to start with that folder.
import { stat } from 'node:fs/promises';
import type { TimedEvent } from '../node/watch/events.js';
import { WatchSetupError } from '../node/watch/folders.js';
import type { WatchOptions } from '../node/watch/options.js';
import { startWatch, type HotFolder } from '../node/watch/watch.js';
import { parseUrlAttribute } from '../ticket/vocabulary.js';
import { withViews } from './views.js';
import { human, tallyLine, Terminal } from './watch-terminal.js';
import { packageVersion } from './version.js';

export type WatchRun = Omit<WatchOptions, 'toolVersion'> & { config?: string };

export async function runWatch(run: WatchRun): Promise<number> {
  if (run.local?.root !== undefined && !(await isFolder(run.local.root))) {
    process.stderr.write(`jdf-filespec: --root ${run.local.root} is not a folder\n`);
    return 2;
  }
  const settings = await withViews(run.config, run.local);
  if (settings === null) return 2;
  const local = settings.local;
  const { config: _config, ...options } = run;
  // The config's urlAttributes (checked when it was read) are read in every ticket the step takes.
  const extra = settings.urlAttributes.map((text) => parseUrlAttribute(text)!);
  if (extra.length > 0) options.validate = { ...options.validate, urlAttributes: [...(options.validate.urlAttributes ?? []), ...extra] };
  // The config's rules and vocabularies, as validate takes them.
  if (Object.keys(settings.rules).length > 0) options.validate = { ...options.validate, rules: { ...settings.rules, ...options.validate.rules } };
  if (settings.vocabularies.length > 0) options.validate = { ...options.validate, vocabularies: [...new Set([...settings.vocabularies, ...(options.validate.vocabularies ?? [])])] };
  const out = printer();
  let hot;
  try {
    hot = await startWatch({ ...options, ...(local ? { local } : {}), toolVersion: packageVersion() }, out.print);
  } catch (error) {
    if (!(error instanceof WatchSetupError)) throw error;
    process.stderr.write(`jdf-filespec: ${error.message}\n`);
    return 2;
  }
  const unfollow = out.follow(hot);
  const how = await Promise.race([stopped(() => hot.stop()), hot.ended]);
  unfollow();
  return how === 'unsafe' ? 2 : 0;
}

async function isFolder(p: string): Promise<boolean> {
  try {
    return (await stat(p)).isDirectory();
  } catch {
    return false;
  }
}

/** Each event as a JSON line on standard output; on a terminal, its line and the running count on standard error. */
function printer(): { print: (event: TimedEvent) => void; follow: (hot: HotFolder) => () => void } {
  const terminal = process.stderr.isTTY ? new Terminal(process.stderr) : undefined;
  return {
    print(event) {
      process.stdout.write(JSON.stringify(event) + '\n');
      const line = terminal ? human(event) : undefined;
      if (line) terminal!.line(line);
    },
    follow(hot) {
      if (!terminal) return () => {};
      const timer = setInterval(() => terminal.count(tallyLine(hot.tally())), 250);
      timer.unref();
      return () => {
        clearInterval(timer);
        terminal.count(tallyLine(hot.tally()));
        terminal.end();
      };
    },
  };
}

/** Resolves once SIGINT or SIGTERM has stopped the watcher; a second signal exits at once. */
function stopped(stop: () => Promise<void>): Promise<void> {
  return new Promise((resolve) => {
    let stopping = false;
    const onSignal = (signal: NodeJS.Signals) => {
      if (stopping) process.exit(signal === 'SIGINT' ? 130 : 143);
      stopping = true;
      void stop().then(() => {
        process.off('SIGINT', onSignal);
        process.off('SIGTERM', onSignal);
        resolve();
      });
    };
    process.on('SIGINT', onSignal);
    process.on('SIGTERM', onSignal);
  });
}
