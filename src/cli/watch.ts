// watch on the command line: one JSON line per event on standard output, a summary line per ticket on a terminal
// (standard error), SIGINT/SIGTERM finish what is in flight and stop (a second one stops at once; what is claimed
// is taken up again at the next start). A watcher that stops by itself because its work folder is no longer safe
// exits 2, as it would have refused to start with that folder.
import { stat } from 'node:fs/promises';
import type { TimedEvent } from '../node/watch/events.js';
import { WatchSetupError } from '../node/watch/folders.js';
import type { WatchOptions } from '../node/watch/options.js';
import { startWatch } from '../node/watch/watch.js';
import { parseUrlAttribute } from '../ticket/vocabulary.js';
import { withViews } from './views.js';
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
  let hot;
  try {
    hot = await startWatch({ ...options, ...(local ? { local } : {}), toolVersion: packageVersion() }, print);
  } catch (error) {
    if (!(error instanceof WatchSetupError)) throw error;
    process.stderr.write(`jdf-filespec: ${error.message}\n`);
    return 2;
  }
  const how = await Promise.race([stopped(() => hot.stop()), hot.ended]);
  return how === 'unsafe' ? 2 : 0;
}

async function isFolder(p: string): Promise<boolean> {
  try {
    return (await stat(p)).isDirectory();
  } catch {
    return false;
  }
}

function print(event: TimedEvent): void {
  process.stdout.write(JSON.stringify(event) + '\n');
  if (process.stderr.isTTY) {
    const line = human(event);
    if (line) process.stderr.write(line + '\n');
  }
}

/** The terminal's line for an event, or nothing for the ones a person need not see. */
function human(e: TimedEvent): string | undefined {
  const clock = e.time.slice(11, 19);
  switch (e.event) {
    case 'started': return `${clock} watching ${e.in} (${e.mode}); OK ${e.ok}, ERROR ${e.error}`;
    case 'polling': return `${clock} polling: ${e.reason}`;
    case 'skipped': return `${clock} skipped  ${e.ticket}: ${e.reason}, left in place (not read)`;
    case 'waiting': return `${clock} waiting  ${e.ticket}: ${e.missing.length > 0 ? `${e.missing.length} file(s) not there yet` : `${e.unsettled?.length ?? 0} file(s) still being written`}`;
    case 'ok': case 'error': return `${clock} ${e.event === 'ok' ? 'ok   ' : 'ERROR'}    ${e.ticket} -> ${e.to} (${e.reason}; ${e.ms.total} ms)`;
    case 'hook': return e.code === 0 ? undefined : `${clock} hook ${e.program} for ${e.ticket}: ${e.error ?? `exit ${e.code ?? e.signal}`}`;
    case 'failed': return `${clock} failed   ${e.ticket}: ${e.message} (${e.final ? `attempt ${e.attempt}, the last` : `attempt ${e.attempt}, will try again`})`;
    case 'warning': return `${clock} warning: ${e.message}`;
    case 'untrusted': return `${clock} untrusted ${e.path}: ${e.reason}; left as it is`;
    case 'work-unsafe': return `${clock} STOPPING: the work folder ${e.work} is not safe any more: ${e.reason}`;
    case 'stopping': return `${clock} stopping: finishing ${e.inFlight} ticket(s) in flight`;
    case 'stopped': return `${clock} stopped: ${e.ok} ok, ${e.error} error, ${e.waiting} left claimed for the next start`;
    default: return undefined;
  }
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
