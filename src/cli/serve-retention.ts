// serve's --keep at work: the sweeps that remove the finished queue entries (and their claims) older than it: one
// at start, then one every interval, on a timer that does not keep the process alive. The sweep itself is
// src/node/jmf/retention.ts; --keep is parsed in serve-server-options.ts (loaded for --help, so kept light). A
// sweep cut short by a shutdown is safe (the next one finishes it); stop() aborts the one in progress, which stops
// at its next entry, and waits for it.
import path from 'node:path';

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
  const stopping = new AbortController();
  let running: Promise<void> = Promise.resolve();
  const once = () => {
    running = running.then(async () => {
      if (stopping.signal.aborted) return;
      try {
        const swept = await sweep(outbox, { keepMs, inProgressMs, signal: stopping.signal });
        if (swept.entries.length + swept.claims + swept.leftovers > 0) say(`retention: removed ${count(swept.entries.length, 'finished queue entry', 'finished queue entries')}, ${count(swept.claims, 'claim', 'claims')} and ${count(swept.leftovers, 'leftover', 'leftovers')} (older than --keep)`);
        if (swept.failed.length > 0) say(`retention: could not remove or read ${count(swept.failed.length, 'path', 'paths')} (tried again in ${sweepEveryMs(keepMs) / 1000} s): ${swept.failed.slice(0, 3).map((f) => `${path.relative(outbox, f.path)}: ${f.error.message}`).join('; ')}`);
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
      stopping.abort();
      clearInterval(timer);
      return running;
    },
  };
}

function count(n: number, one: string, many: string): string {
  return `${n} ${n === 1 ? one : many}`;
}
