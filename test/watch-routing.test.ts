// watch: where tickets go, under which names, with which reports; hooks; polling.
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { Names } from '../src/node/watch/names.js';
import { place } from '../src/node/watch/route.js';
import { EventEmitter } from 'node:events';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { drop, makeDirs, routed, sleep, ticketsUnder, ticketXml, until, watchHere, stopAll } from './watch-helpers.js';

test('200 tickets dropped at once: each routed exactly once, clean ones to OK, broken ones to ERROR, each with its report', async () => {
  const d = makeDirs();
  const n = 200;
  for (let i = 0; i < n; i++) drop(d, `t${i}.jdf`, ticketXml(`id${i}`, { broken: i % 3 === 0 }));
  const w = await watchHere(d);
  await until(() => w.count('ok') + w.count('error') >= n, 60_000, 'every ticket to be routed');
  await w.hot.stop();
  const r = routed(d);
  assert.is(r.length, n);
  assert.is(new Set(r.map((x) => x.id)).size, n);
  for (const x of r) {
    const i = Number(x.id.slice(2));
    assert.is(x.folder, i % 3 === 0 ? 'error' : 'ok', x.id);
    assert.ok(x.hasReport, x.name);
  }
  assert.equal(ticketsUnder(d.in), []);
});

test('names never collide: five job.jdf one after another become job.jdf, job-2.jdf ... job-5.jdf', async () => {
  const d = makeDirs();
  const w = await watchHere(d);
  for (let i = 1; i <= 5; i++) {
    drop(d, 'job.jdf', ticketXml(`job${i}`));
    await until(() => w.count('ok') === i, 20_000, `job ${i} to be routed`);
  }
  await w.hot.stop();
  const r = routed(d).sort((a, b) => a.name.localeCompare(b.name));
  assert.equal(r.map((x) => [x.name, x.id]), [['job-2.jdf', 'job2'], ['job-3.jdf', 'job3'], ['job-4.jdf', 'job4'], ['job-5.jdf', 'job5'], ['job.jdf', 'job1']]);
  for (const x of r) assert.is(JSON.parse(readFileSync(path.join(d.ok, x.name + '.report.json'), 'utf8')).files[0].path, path.join(d.in, 'job.jdf'));
});

test('a name already taken in OK by something else (a stray report) is never overwritten', async () => {
  const d = makeDirs();
  mkdirSync(d.ok);
  writeFileSync(path.join(d.ok, 'a.jdf.report.json'), 'not ours');
  writeFileSync(path.join(d.ok, 'a-2.jdf'), 'not ours either');
  drop(d, 'a.jdf', ticketXml('a1'));
  const w = await watchHere(d);
  await until(() => w.count('ok') === 1, 20_000, 'the ticket to be routed');
  await w.hot.stop();
  assert.is(readFileSync(path.join(d.ok, 'a.jdf.report.json'), 'utf8'), 'not ours');
  assert.is(readFileSync(path.join(d.ok, 'a-2.jdf'), 'utf8'), 'not ours either');
  assert.ok(readFileSync(path.join(d.ok, 'a-3.jdf'), 'utf8').includes('ID="a1"'));
  assert.ok(existsSync(path.join(d.ok, 'a-3.jdf.report.json')));
});

test('a name whose report is byte for byte ours, but another ticket\'s, is not taken (found by two watchers racing)', async () => {
  const d = makeDirs();
  mkdirSync(d.ok);
  const claim = path.join(d.base, 'claim');
  mkdirSync(claim);
  writeFileSync(path.join(claim, 'job.jdf'), 'ticket B');
  writeFileSync(path.join(claim, 'report.json'), 'the same report');
  // Another watcher's job.jdf: its report is placed, its ticket is about to be.
  writeFileSync(path.join(d.ok, 'job.jdf.report.json'), 'the same report');
  const record = { to: 'ok' as const, name: 'job.jdf', counts: { error: 0, warning: 0, info: 0 }, formats: ['json' as const], reason: 'test', temp: '.claim.part' };
  const r = await place({ dir: claim, name: 'job.jdf', file: path.join(claim, 'job.jdf') }, record, { ok: d.ok, error: d.error }, new Names(), true);
  assert.is(r.ticket, path.join(d.ok, 'job-2.jdf'));
  assert.is(r.report, path.join(d.ok, 'job-2.jdf.report.json'));
  assert.is(readFileSync(path.join(d.ok, 'job.jdf.report.json'), 'utf8'), 'the same report');
  assert.not.ok(existsSync(path.join(d.ok, 'job.jdf')));
});

test('OK and ERROR on another file system: copied, flushed and linked, nothing left behind, names still never collide', async () => {
  const other = '/dev/shm';
  if (!existsSync(other) || statSync(other).dev === statSync(tmpdir()).dev) {
    console.log('  (skipped: no second file system here)');
    return;
  }
  const d = makeDirs();
  const far = mkdtempSync(path.join(other, 'jfs-far-'));
  try {
    const ok = path.join(far, 'ok');
    const error = path.join(far, 'error');
    const w = await watchHere(d, { ok, error });
    for (let i = 1; i <= 3; i++) {
      drop(d, 'far.jdf', ticketXml(`far${i}`, { broken: i === 2 }));
      await until(() => w.count('ok') + w.count('error') === i, 20_000, `ticket ${i} to be routed`);
    }
    await w.hot.stop();
    assert.equal(readdirSync(ok).sort(), ['far-2.jdf', 'far-2.jdf.report.json', 'far.jdf', 'far.jdf.report.json']);
    assert.equal(readdirSync(error).sort(), ['far.jdf', 'far.jdf.report.json']);
    assert.ok(readFileSync(path.join(error, 'far.jdf'), 'utf8').includes('ID="far2"'));
    assert.equal(ticketsUnder(d.in), []);
  } finally {
    rmSync(far, { recursive: true, force: true });
  }
});

test('hostile tickets cost only their own time: each is routed once, the clean one beside them to OK', async () => {
  const d = makeDirs();
  const laughs = `<?xml version="1.0"?><!DOCTYPE JDF [<!ENTITY a "ha"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;"><!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;"><!ENTITY d "&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;">]><JDF ID="laughs" Version="1.4"><Comment>&d;</Comment></JDF>`;
  const deep = `<JDF ID="deep" Version="1.4">${'<a>'.repeat(5000)}${'</a>'.repeat(5000)}</JDF>`;
  drop(d, 'laughs.jdf', laughs);
  drop(d, 'deep.jdf', deep);
  drop(d, 'empty.jdf', '');
  drop(d, 'junk.jdf', Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 7919) % 256)).toString('latin1'));
  drop(d, 'clean.jdf', ticketXml('clean'));
  const w = await watchHere(d, { parseWaitMs: 500 });
  await until(() => w.count('ok') + w.count('error') === 5, 30_000, 'all five to be routed');
  await w.hot.stop();
  const where = Object.fromEntries(readdirSync(d.ok).filter((n) => n.endsWith('.jdf')).map((n) => [n, 'ok']).concat(readdirSync(d.error).filter((n) => n.endsWith('.jdf')).map((n) => [n, 'error'])));
  assert.is(Object.keys(where).length, 5);
  assert.is(where['clean.jdf'], 'ok');
  for (const n of ['deep.jdf', 'empty.jdf', 'junk.jdf']) assert.is(where[n], 'error', n);
  const codes = (folder: string, n: string) => JSON.parse(readFileSync(path.join(folder, n + '.report.json'), 'utf8')).files[0].findings.map((f: { code: string }) => f.code);
  assert.ok(codes(d.error, 'deep.jdf').includes('xml-too-deep'));
  assert.ok(codes(d.error, 'empty.jdf').includes('xml-empty'));
  assert.ok(codes(d[where['laughs.jdf'] as 'ok' | 'error'], 'laughs.jdf').includes('doctype-entities'));
});

test('reports: .report.json always; .report.sarif and .report.txt on request, each a report of this ticket', async () => {
  const d = makeDirs();
  drop(d, 'b.jdf', ticketXml('b', { broken: true }));
  const w = await watchHere(d, { reportFormats: ['json', 'sarif', 'txt'] });
  await until(() => w.count('error') === 1, 20_000, 'the ticket to be routed');
  await w.hot.stop();
  assert.equal(readdirSync(d.error).sort(), ['b.jdf', 'b.jdf.report.json', 'b.jdf.report.sarif', 'b.jdf.report.txt']);
  const json = JSON.parse(readFileSync(path.join(d.error, 'b.jdf.report.json'), 'utf8'));
  assert.ok(json.files[0].references[0].findings.some((f: { code: string }) => f.code === 'unescaped-space'));
  const sarif = JSON.parse(readFileSync(path.join(d.error, 'b.jdf.report.sarif'), 'utf8'));
  assert.is(sarif.version, '2.1.0');
  assert.ok(sarif.runs[0].results.some((r: { ruleId: string }) => r.ruleId === 'unescaped-space'));
  assert.match(readFileSync(path.join(d.error, 'b.jdf.report.txt'), 'utf8'), /unescaped-space/);
});

test('--max-warnings: a ticket with warnings goes to OK, with more warnings than allowed to ERROR', async () => {
  // A Directory without its trailing '/' is a warning (appendix 2; RFC 3986 5.2.3 drops its last segment).
  const warned = ticketXml('w', { directory: 'file:///srv/jobs/4711', urls: ['p1.pdf'] });
  for (const [max, folder] of [[undefined, 'ok'], [5, 'ok'], [0, 'error']] as const) {
    const d = makeDirs();
    drop(d, 'w.jdf', warned);
    const w = await watchHere(d, max === undefined ? {} : { maxWarnings: max });
    await until(() => w.count('ok') + w.count('error') === 1, 20_000, 'the ticket to be routed');
    await w.hot.stop();
    const r = routed(d);
    assert.equal(r.map((x) => x.folder), [folder], `--max-warnings ${max}`);
    const report = JSON.parse(readFileSync(path.join(d[folder], 'w.jdf.report.json'), 'utf8'));
    assert.ok(report.summary.warning > 0 && report.summary.error === 0);
  }
});

test('--on-ok / --on-error run a program (no shell) with the routed ticket and its report as arguments', async () => {
  const d = makeDirs();
  const log = path.join(d.base, 'hook.log');
  const hook = path.join(d.base, 'hook.sh');
  writeFileSync(hook, `#!/bin/sh\nprintf '%s|%s|%s\\n' "$0" "$1" "$2" >> '${log}'\n`);
  chmodSync(hook, 0o755);
  drop(d, 'good.jdf', ticketXml('g'));
  drop(d, 'bad $(touch pwned).jdf', ticketXml('b', { broken: true }));
  const w = await watchHere(d, { onOk: hook, onError: hook });
  await until(() => w.count('hook') === 2, 20_000, 'both hooks to run');
  await w.hot.stop();
  const lines = readFileSync(log, 'utf8').trim().split('\n').map((l) => l.split('|').slice(1)).sort((a, b) => a[0]!.localeCompare(b[0]!));
  assert.equal(lines, [
    [path.join(d.error, 'bad $(touch pwned).jdf'), path.join(d.error, 'bad $(touch pwned).jdf.report.json')],
    [path.join(d.ok, 'good.jdf'), path.join(d.ok, 'good.jdf.report.json')],
  ]);
  assert.not.ok(existsSync(path.join(d.base, 'pwned')) || existsSync('pwned'));
  assert.ok(w.events.filter((e) => e.event === 'hook').every((e) => (e as { code: number }).code === 0));
});

test('--poll: the same routing without file-system events', async () => {
  const d = makeDirs();
  for (let i = 0; i < 20; i++) drop(d, `p${i}.jdf`, ticketXml(`p${i}`));
  const w = await watchHere(d, { poll: true });
  assert.is(w.hot.mode, 'polling');
  await until(() => w.count('ok') === 20, 30_000, 'every ticket to be routed');
  drop(d, 'late.jdf', ticketXml('late'));
  await until(() => w.count('ok') === 21, 30_000, 'the late ticket to be routed');
  await w.hot.stop();
  assert.is(routed(d).length, 21);
});

test('polling is chosen by itself when no event announces a ticket (a share whose events never arrive)', async () => {
  const d = makeDirs();
  // A stand-in for the file-system watch that never reports anything, as on a share written by another machine.
  let calls = 0;
  const silent = () => {
    calls++;
    return Object.assign(new EventEmitter(), { close() {} });
  };
  const w = await watchHere(d, {}, { watcherFactory: silent });
  assert.is(w.hot.mode, 'events');
  await sleep(300); // past the first sweep, which only learns what was there before
  drop(d, 'quiet.jdf', ticketXml('q'));
  await until(() => w.count('polling') === 1, 20_000, 'the switch to polling');
  await until(() => w.count('ok') === 1, 20_000, 'the ticket to be routed');
  await w.hot.stop();
  assert.is(w.hot.mode, 'polling');
  assert.is(calls, 1);
});

test.after.each(stopAll);

test.run();
