// npm run bench --only=watch: tickets per second through `watch` against `validate` on the same tickets (the
// step's overhead as a ratio), and the latency from a ticket's arrival in IN to its routing.
import { mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { validateBatch } from '../src/node/batch.js';
import { expandPaths } from '../src/node/discover.js';
import type { TimedEvent } from '../src/node/watch/events.js';
import { startWatch } from '../src/node/watch/watch.js';
import { smallTicket } from './corpus.js';
import { medianOf, type Row } from './measure.js';

const MAX_BYTES = 256 * 1024 * 1024;

export async function watchSection(quick: boolean, log: (s: string) => void): Promise<{ rows: Row[]; notes: string[] }> {
  const rows: Row[] = [];
  const notes: string[] = [];
  const count = quick ? 500 : 2_000;
  const base = mkdtempSync(path.join(os.tmpdir(), 'jfs-bench-watch-'));
  try {
    log(`watch: ${count} small tickets through validate and through watch ...`);
    const tickets = Array.from({ length: count }, (_, i) => smallTicket(i));
    const folder = path.join(base, 'validate');
    mkdirSync(folder);
    tickets.forEach((t, i) => writeFileSync(path.join(folder, `job${i}.jdf`), t));
    const { sources } = await expandPaths([folder]);
    await validateBatch(sources.slice(0, 100), {}, { maxBytes: MAX_BYTES, jobs: 1 }); // warm-up
    const v0 = performance.now();
    await validateBatch(sources, {}, { maxBytes: MAX_BYTES, jobs: 1 });
    const validateTps = count / ((performance.now() - v0) / 1000);

    const through = await throughput(base, tickets);
    rows.push({ section: 'watch', name: `validate ${count} tickets (one thread)`, value: validateTps, unit: 'tickets/s' });
    rows.push({ section: 'watch', name: `watch ${count} tickets dropped at once (claim, check, reports, route)`, value: through, unit: 'tickets/s', ratio: through / validateTps, note: 'ratio: watch / validate' });

    const settleMs = 500;
    log(`watch: latency of ${quick ? 20 : 60} tickets dropped one at a time (settle ${settleMs} ms) ...`);
    const lat = await latency(base, tickets.slice(0, quick ? 20 : 60), settleMs);
    rows.push({ section: 'watch', name: `arrival to routing, median (settle ${settleMs} ms)`, value: lat.median, unit: 'ms' });
    rows.push({ section: 'watch', name: 'arrival to routing, 95th percentile', value: lat.p95, unit: 'ms' });
    rows.push({ section: 'watch', name: 'arrival to routing beyond the settle time, median', value: lat.median - settleMs, unit: 'ms' });
    notes.push(`watch: throughput counts from the first pick-up to the last routing (all tickets settle together); latency is from the rename into IN to the ok/error event, and includes the settle time (default 2 s; ${settleMs} ms here) and the tick that notices it.`);
  } finally {
    rmSync(base, { recursive: true, force: true });
  }
  return { rows, notes };
}

function folders(base: string, name: string) {
  const d = { in: path.join(base, name, 'in'), ok: path.join(base, name, 'ok'), error: path.join(base, name, 'error') };
  mkdirSync(d.in, { recursive: true });
  return d;
}

async function throughput(base: string, tickets: string[]): Promise<number> {
  const d = folders(base, 'through');
  tickets.forEach((t, i) => writeFileSync(path.join(d.in, `job${i}.jdf`), t));
  const events: TimedEvent[] = [];
  let done!: () => void;
  const finished = new Promise<void>((r) => (done = r));
  let routed = 0;
  let first = 0;
  let last = 0;
  const hot = await startWatch({ ...d, settleMs: 100, validate: {}, maxBytes: MAX_BYTES, toolVersion: 'bench' }, (e) => {
    events.push(e);
    if (e.event === 'picked-up' && first === 0) first = performance.now();
    if (e.event === 'ok' || e.event === 'error') {
      last = performance.now();
      if (++routed === tickets.length) done();
    }
  });
  await finished;
  await hot.stop();
  return tickets.length / ((last - first) / 1000);
}

async function latency(base: string, tickets: string[], settleMs: number): Promise<{ median: number; p95: number }> {
  const d = folders(base, 'latency');
  const stage = path.join(base, 'latency', 'stage');
  mkdirSync(stage);
  const dropped = new Map<string, number>();
  const took: number[] = [];
  const hot = await startWatch({ ...d, settleMs, validate: {}, maxBytes: MAX_BYTES, toolVersion: 'bench' }, (e) => {
    if (e.event === 'ok' || e.event === 'error') took.push(performance.now() - dropped.get(e.ticket)!);
  });
  for (const [i, t] of tickets.entries()) {
    const name = `lat${i}.jdf`;
    writeFileSync(path.join(stage, name), t);
    dropped.set(name, performance.now());
    renameSync(path.join(stage, name), path.join(d.in, name));
    await new Promise((r) => setTimeout(r, 150));
  }
  while (took.length < tickets.length) await new Promise((r) => setTimeout(r, 50));
  await hot.stop();
  const sorted = [...took].sort((a, b) => a - b);
  return { median: medianOf(took), p95: sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * 0.95))]! };
}
