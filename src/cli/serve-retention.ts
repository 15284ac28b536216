// serve's --keep: how long a finished queue entry (and its claim) stays in the outbox, and the sweeps that remove
// the older ones: one at start, then one every interval, on a timer that does not keep the process alive. The
// sweep itself is src/node/jmf/retention.ts; this file parses the option and runs it. A sweep cut short by a
// shutdown is safe (the next one finishes it); stop() waits for the one in progress to reach its next entry.
import { duration } from './numbers.js';
import { UsageError } from './define.js';

/** --keep's default: 30 days (README "Retention" says why). */
export const DEFAULT_KEEP = '30d';

/** The shortest --keep: a claim kept shorter would let a sender's late retry of a submission count as a new job
 * (checked and passed on again). */
const MIN_KEEP_MS = 3_600_000;

/** --keep's value: a duration as the other options take it (90m, 12h), or in days (30d), or "forever". */
export function keepDuration(value: unknown): number | 'forever' {
  const text = String(Array.isArray(value) ? value[value.length - 1] : value).trim();
  if (/^forever$/i.test(text)) return 'forever';
  const days = /^(\d+(?:\.\d+)?)\s*d$/i.exec(text);
  let ms = NaN;
  try {
    ms = days ? Math.round(Number(days[1]) * 86_400_000) : duration('keep')(text);
  } catch {
    // said below, with the days and "forever" this option takes too
  }
  if (!Number.isSafeInteger(ms) || ms < MIN_KEEP_MS) throw new UsageError(`--keep takes a duration of 1h or more such as 30d, 12h or 90m, or forever, not "${text}".`);
  return ms;
}

/** The sweep as src/node/jmf/retention.ts exports it. */
type Sweep = typeof import('../node/jmf/retention.js').sweepOutbox;

export interface Retention {
  /** Stops the timer; resolves when the sweep in progress (if any) has stopped. */
  stop(): Promise<void>;
}

/** How often the outbox is swept: an hour, or a quarter of keepMs when that is shorter (at least a minute). */
export function sweepEveryMs(keepMs: number): number {
  return Math.max(60_000, Math.min(3_600_000, Math.floor(keepMs / 4)));
}

/** Sweeps `outbox` now and every sweepEveryMs(keepMs); says what each sweep removed, and why one failed. */
export function startRetention(sweep: Sweep, outbox: string, keepMs: number, inProgressMs: number, say: (line: string) => void): Retention {
  let stopping = false;
  let running: Promise<void> = Promise.resolve();
  const once = () => {
    running = running.then(async () => {
      if (stopping) return;
      try {
        const swept = await sweep(outbox, { keepMs, inProgressMs, stopping: () => stopping });
        if (swept.entries.length + swept.claims + swept.leftovers > 0) say(`retention: removed ${count(swept.entries.length, 'finished queue entry', 'finished queue entries')}, ${count(swept.claims, 'claim', 'claims')} and ${count(swept.leftovers, 'leftover', 'leftovers')} (older than --keep)`);
        if (swept.failed.length > 0) say(`retention: could not remove ${count(swept.failed.length, 'folder', 'folders')} (tried again in ${sweepEveryMs(keepMs) / 1000} s): ${swept.failed.slice(0, 3).join('; ')}`);
      } catch (error) {
        say(`retention: the sweep of ${outbox} stopped: ${(error as Error).message} (tried again in ${sweepEveryMs(keepMs) / 1000} s)`);
      }
    });
  };
  once();
  const timer = setInterval(once, sweepEveryMs(keepMs));
  timer.unref();
  return {
    stop: () => {
      stopping = true;
      clearInterval(timer);
      return running;
    },
  };
}

function count(n: number, one: string, many: string): string {
  return `${n} ${n === 1 ? one : many}`;
}
