// watch: the gaps an audit of issue 16 found, one test (or a few) each, on real temporary folders.
import { spawnSync } from 'node:child_process';
import { existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, readlinkSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { drop, makeDirs, routed, sleep, stopAll, ticketXml, until, watchHere } from './watch-helpers.js';

test('a symbolic link in IN (to a ticket outside every folder of the step) is left in place, reported once, never read', async () => {
  const d = makeDirs();
  const elsewhere = path.join(d.base, 'elsewhere');
  mkdirSync(elsewhere);
  writeFileSync(path.join(elsewhere, 'secret.jdf'), ticketXml('secret'));
  symlinkSync(path.join(elsewhere, 'secret.jdf'), path.join(d.in, 'link.jdf'));
  spawnSync('mkfifo', [path.join(d.in, 'pipe.jdf')]);
  mkdirSync(path.join(d.in, 'folder.jdf'));
  drop(d, 'plain.jdf', ticketXml('plain'));
  const status = path.join(d.base, 'status.json');
  const w = await watchHere(d, { statusFile: status });
  await until(() => w.count('ok') === 1, 20_000, 'the plain ticket to be routed');
  await sleep(1500); // several poll intervals (200 ms) and sweeps: each one looks at the link again
  const skipped = w.events.filter((e) => e.event === 'skipped') as Array<{ ticket: string; reason: string; left: string }>;
  assert.equal(skipped.map((e) => [e.ticket, e.reason, e.left]).sort(), [
    ['folder.jdf', 'a folder', path.join(d.in, 'folder.jdf')],
    ['link.jdf', 'a symbolic link', path.join(d.in, 'link.jdf')],
    ...(existsSync(path.join(d.in, 'pipe.jdf')) ? [['pipe.jdf', 'a FIFO', path.join(d.in, 'pipe.jdf')]] : []),
  ]);
  const listed = JSON.parse(readFileSync(status, 'utf8')).skipped as Array<{ ticket: string }>;
  assert.ok(listed.some((s) => s.ticket === 'link.jdf'), JSON.stringify(listed));
  // A regular file put in the link's place is a ticket like any other.
  drop(d, 'link.jdf', ticketXml('replaced'));
  await until(() => w.count('ok') === 2, 20_000, 'the replacement to be routed');
  await w.hot.stop();
  assert.equal(routed(d).map((r) => r.id).sort(), ['plain', 'replaced']);
  assert.ok(lstatSync(path.join(d.in, 'pipe.jdf')).isFIFO());
  assert.is(readFileSync(path.join(elsewhere, 'secret.jdf'), 'utf8'), ticketXml('secret'));
});

test('a symbolic link found in a claim (swapped in before the rename, or adopted after a crash) goes back to IN unread', async () => {
  const d = makeDirs();
  const elsewhere = path.join(d.base, 'elsewhere');
  mkdirSync(elsewhere);
  writeFileSync(path.join(elsewhere, 'secret.jdf'), ticketXml('secret'));
  // The claim folder of a watcher on another host that has been gone longer than staleMs.
  const gone = path.join(d.in, '.jdf-filespec', 'otherhost.1.gone');
  const claim = path.join(gone, '0000~adopt.jdf');
  mkdirSync(claim, { recursive: true });
  symlinkSync(path.join(elsewhere, 'secret.jdf'), path.join(claim, 'adopt.jdf'));
  const past = new Date(Date.now() - 60_000);
  utimesSync(gone, past, past);
  const w = await watchHere(d, { staleMs: 1000 });
  await until(() => w.count('skipped') === 1, 20_000, 'the link to be skipped');
  await sleep(1000);
  await w.hot.stop();
  assert.is(w.count('skipped'), 1);
  const e = w.events.find((x) => x.event === 'skipped') as { left: string; reason: string };
  assert.equal([e.left, e.reason], [path.join(d.in, 'adopt.jdf'), 'a symbolic link']);
  assert.is(readlinkSync(path.join(d.in, 'adopt.jdf')), path.join(elsewhere, 'secret.jdf'));
  assert.equal(routed(d), []);
  assert.equal(existsSync(gone) ? readdirSync(gone) : [], []);
});

test.after.each(stopAll);

test.run();
