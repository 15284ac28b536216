// npm run test:soak: the long runs of the watch promises (npm test runs the same with smaller counts).
import { readdirSync } from 'node:fs';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { checkRun, defaultWork, drop, exited, feed, killFolderRun, killRun, makeDirs, routed, stopAll, ticketXml, ticketsUnder, until, watchChild, watchHere } from './watch-helpers.js';

test('2,000 tickets dropped at once: all routed, each exactly once (counted), with bounded open files', async () => {
  const d = makeDirs('jfs-soak-');
  const n = 2000;
  for (let i = 0; i < n; i++) drop(d, `s${i}.jdf`, ticketXml(`id${i}`, { broken: i % 3 === 0 }));
  const w = await watchHere(d);
  await until(() => w.count('ok') + w.count('error') >= n, 600_000, 'every ticket to be routed');
  await w.hot.stop();
  const r = routed(d);
  assert.is(r.length, n);
  assert.is(new Set(r.map((x) => x.id)).size, n);
  assert.ok(r.every((x) => x.hasReport));
  assert.is(r.filter((x) => x.folder === 'error').length, Math.ceil(n / 3));
  assert.equal(ticketsUnder(d.in), []);
  assert.is(w.count('picked-up'), n);
});

test('2,000 tickets renamed into IN in one burst while a watcher process runs: each routed once (counted), its open files bounded', async () => {
  const d = makeDirs('jfs-soak-burst-');
  const n = 2000;
  const w = watchChild(d);
  await until(() => w.lines.some((l) => l.includes('"event":"started"')), 30_000, 'the watcher to start');
  const fds = () => {
    try {
      return readdirSync(`/proc/${w.pid}/fd`).length;
    } catch {
      return 0; // not Linux, or the process is gone
    }
  };
  const before = fds();
  let most = before;
  const sampler = setInterval(() => (most = Math.max(most, fds())), 50);
  const done = () => w.lines.filter((l) => /"event":"(ok|error)"/.test(l)).length;
  try {
    await feed(d, n, n, 0, false); // staged first, then all renamed in at once
    await until(() => done() >= n, 600_000, 'every ticket to be routed');
  } finally {
    clearInterval(sampler);
  }
  w.kill('SIGTERM');
  assert.is(await exited(w), 0);
  assert.is(done(), n);
  assert.is(w.lines.filter((l) => l.includes('"event":"picked-up"')).length, n);
  assert.equal(checkRun(d, n, defaultWork(d), false), []);
  // Four tickets in flight (--concurrency 4) hold a few descriptors each: the ticket read, a report being written,
  // a link or a copy, a folder being flushed; with the sweep's readdir and the status file, 40 above the idle
  // watcher is room to spare. A descriptor leaked per ticket would show as 2,000.
  console.log(`  (open files: ${before} idle, at most ${most} during the burst)`);
  if (before > 0) assert.ok(most - before <= 40, `open files grew by ${most - before}`);
});

test('SIGKILL at random moments 20 times over a run of 500 tickets, then a restart: none lost, none twice', async () => {
  const { problems, resumed } = await killRun(500, 20);
  assert.equal(problems, []);
  console.log(`  (${resumed} claims taken up again after the kills)`);
});

test('two watcher processes on one IN, 500 tickets: each taken once', async () => {
  const d = makeDirs('jfs-soak-two-');
  const n = 500;
  const a = watchChild(d);
  const b = watchChild(d);
  await feed(d, n, 10, 5);
  await until(() => routed(d).length >= n, 600_000, 'every ticket to be routed');
  a.kill('SIGTERM');
  b.kill('SIGTERM');
  assert.equal([await exited(a), await exited(b)], [0, 0]);
  assert.equal(checkRun(d, n, defaultWork(d)), []);
  const by = (p: { lines: string[] }) => p.lines.filter((l) => /"event":"(ok|error)"/.test(l)).length;
  console.log(`  (routed ${by(a)} and ${by(b)})`);
});

test('SIGKILL 10 times over a run of 150 job folders, then a restart: none lost, none twice', async () => {
  assert.equal(await killFolderRun(150, 10), []);
});

test.after.each(stopAll);

test.run();
