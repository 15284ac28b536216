// npm run test:soak: the long runs of the watch promises (npm test runs the same with smaller counts).
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { checkRun, drop, exited, feed, killRun, makeDirs, routed, stopAll, ticketXml, ticketsUnder, until, watchChild, watchHere } from './watch-helpers.js';

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
  assert.equal(checkRun(d, n, path.join(d.in, '.jdf-filespec')), []);
  const by = (p: { lines: string[] }) => p.lines.filter((l) => /"event":"(ok|error)"/.test(l)).length;
  console.log(`  (routed ${by(a)} and ${by(b)})`);
});

test.after.each(stopAll);

test.run();
