// watch: kill -9 at random moments loses and duplicates nothing; two watchers on one IN take each ticket once;
// SIGTERM finishes what is in flight. (Longer runs: npm run test:soak.)
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { checkRun, defaultWork, exited, feed, killRun, makeDirs, routed, ticketsUnder, until, watchChild, stopAll } from './watch-helpers.js';

test('SIGKILL 4 times over a run of 60 tickets, then a restart: none lost, none twice', async () => {
  const { problems } = await killRun(60, 4);
  assert.equal(problems, []);
});

test('two watcher processes on one IN (one work folder): each ticket taken once', async () => {
  const d = makeDirs('jfs-two-');
  const n = 100;
  const a = watchChild(d);
  const b = watchChild(d);
  await feed(d, n, 10, 10);
  await until(() => routed(d).length >= n, 60_000, 'every ticket to be routed');
  a.kill('SIGTERM');
  b.kill('SIGTERM');
  assert.equal([await exited(a), await exited(b)], [0, 0]);
  assert.equal(checkRun(d, n, defaultWork(d)), []);
  const routedBy = (p: { lines: string[] }) => p.lines.filter((l) => /"event":"(ok|error)"/.test(l)).length;
  assert.is(routedBy(a) + routedBy(b), n, 'routed events add up');
});

test('SIGTERM: what is in flight is finished, nothing claimed is left half done, the process exits 0', async () => {
  const d = makeDirs('jfs-term-');
  const n = 120;
  await feed(d, n, n, 0, false);
  const w = watchChild(d, { concurrency: 8 });
  await until(() => w.lines.some((l) => l.includes('"event":"picked-up"')), 30_000, 'the first pick-up');
  w.kill('SIGTERM');
  assert.is(await exited(w), 0);
  const events = w.lines.map((l) => JSON.parse(l) as { event: string });
  assert.is(events[events.length - 1]!.event, 'stopped');
  const picked = events.filter((e) => e.event === 'picked-up').length;
  const done = events.filter((e) => e.event === 'ok' || e.event === 'error').length;
  assert.is(done, picked, 'every ticket picked up was routed');
  assert.is(routed(d).length + ticketsUnder(d.in).length, n, 'the rest is still in IN');
  assert.equal(ticketsUnder(defaultWork(d)), []);
  assert.ok(picked < n, 'stopped before taking everything (else this test shows nothing)');
});

test.after.each(stopAll);

test.run();
