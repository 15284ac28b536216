// watch: bounded open files and memory with many tickets at once; confinement (nothing touched outside IN, OK,
// ERROR, the work folder and the root, seen with strace).
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { projectRoot } from './helpers.js';
import { defaultWork, drop, exited, makeDirs, options, routed, sleep, stopAll, stopLater, ticketXml, until, watchHere } from './watch-helpers.js';

const openFiles = () => readdirSync('/proc/self/fd').length;

test('300 tickets at once: open files stay within a small bound, and the heap does not grow with the count', async () => {
  if (process.platform !== 'linux') return;
  const d = makeDirs();
  const n = 300;
  for (let i = 0; i < n; i++) drop(d, `m${i}.jdf`, ticketXml(`id${i}`, { broken: i % 2 === 0 }));
  global.gc?.();
  const fdBefore = openFiles();
  const heapBefore = process.memoryUsage().heapUsed;
  const w = await watchHere(d, { concurrency: 4 });
  let fdMax = 0;
  let heapMax = 0;
  const sampler = setInterval(() => {
    fdMax = Math.max(fdMax, openFiles());
    heapMax = Math.max(heapMax, process.memoryUsage().heapUsed);
  }, 10);
  await until(() => w.count('ok') + w.count('error') >= n, 90_000, 'every ticket to be routed');
  clearInterval(sampler);
  await w.hot.stop();
  assert.is(routed(d).length, n);
  // Four tickets in flight hold at most a few descriptors each (read, report, copy); the watch on IN is one.
  assert.ok(fdMax - fdBefore <= 40, `open files grew by ${fdMax - fdBefore}`);
  assert.ok(heapMax - heapBefore < 64 * 1024 * 1024, `heap grew by ${((heapMax - heapBefore) / 1048576).toFixed(1)} MB`);
});

const strace = spawnSync('strace', ['-V'], { encoding: 'utf8' }).status === 0;

test('confinement: with --root, nothing outside IN, OK, ERROR, the work folder and the root is touched (strace)', async () => {
  if (!strace || process.platform !== 'linux') {
    console.log('  (skipped: strace is not installed)');
    return;
  }
  const d = makeDirs('jfs-confine-');
  const root = path.join(d.base, 'root');
  const outside = path.join(d.base, 'outside');
  mkdirSync(path.join(root, 'jobs'), { recursive: true });
  mkdirSync(outside);
  writeFileSync(path.join(root, 'jobs', 'p1.pdf'), '%PDF');
  writeFileSync(path.join(outside, 'secret.pdf'), 'not yours');
  symlinkSync(outside, path.join(root, 'jobs', 'link-out'));
  // A ticket outside everything, linked into IN: left there, never opened (watch-gaps has the rest of it).
  writeFileSync(path.join(outside, 'escape.jdf'), ticketXml('escape'));
  symlinkSync(path.join(outside, 'escape.jdf'), path.join(d.in, 'escape.jdf'));
  const dir = pathToFileURL(path.join(root, 'jobs')).href + '/';
  drop(d, 'inside.jdf', ticketXml('inside', { directory: dir, urls: ['p1.pdf'] }));
  drop(d, 'dotdot.jdf', ticketXml('dotdot', { directory: dir, urls: ['../../outside/secret.pdf'] }));
  drop(d, 'link.jdf', ticketXml('link', { directory: dir, urls: ['link-out/secret.pdf'] }));
  const log = path.join(d.stage, 'strace.log');
  const child = fileURLToPath(new URL('dist/test/watch-child.js', projectRoot));
  const opts = options(d, { waitForFilesMs: 300, local: { checkExists: true, maps: [], root } });
  const proc = spawn('strace', ['-f', '-qq', '-e', 'trace=%file,%desc', '-o', log, process.execPath, child, JSON.stringify(opts)], { stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  proc.stdout.on('data', (c: Buffer) => (out += c.toString()));
  stopLater(() => proc.kill('SIGKILL'));
  await until(() => (out.match(/"event":"(ok|error)"/g) ?? []).length === 3, 60_000, 'three tickets to be routed');
  await sleep(300);
  // SIGTERM to the watcher itself (strace would only detach): its pid is in its owner id, host.pid.start.
  const owner = (JSON.parse(out.split('\n')[0]!) as { owner: string }).owner;
  process.kill(Number(owner.split('.').at(-2)), 'SIGTERM');
  assert.is(await exited(proc), 0);
  const byId = Object.fromEntries(routed(d).map((r) => [r.id, r.folder]));
  assert.equal(byId, { inside: 'ok', dotdot: 'error', link: 'error' });
  for (const id of ['dotdot', 'link']) {
    const report = JSON.parse(readFileSync(path.join(d.error, `${id}.jdf.report.json`), 'utf8'));
    const codes = report.files[0].references.flatMap((r: { findings: Array<{ code: string }> }) => r.findings.map((f) => f.code));
    assert.ok(codes.includes('outside-root'), `${id}: ${codes}`);
  }
  const opened = readFileSync(log, 'utf8').split('\n').filter((l) => /\bopen(at2?)?\(.*"[^"]*\/in\/escape\.jdf"/.test(l));
  assert.equal(opened, [], 'the link in IN was opened');
  assert.ok(out.includes('"event":"skipped","ticket":"escape.jdf"'), 'the link was reported');
  const allowed = [d.in, d.ok, d.error, defaultWork(d), root].map((p) => p + path.sep);
  const touched = new Set<string>();
  for (const line of readFileSync(log, 'utf8').split('\n')) {
    // The paths a call is given; readlink's second string is what the link says, not a path it touches.
    const quoted = [...line.matchAll(/"((?:[^"\\]|\\.)*)"/g)].map((m) => m[1]!);
    const given = /^\d+\s+<\.\.\. readlink(at)? resumed>/.test(line) ? [] : /^\d+\s+readlink(at)?\(/.test(line) ? quoted.slice(0, 1) : quoted;
    for (const p of given) if (p.startsWith(d.base + path.sep) || p === d.base) touched.add(p);
  }
  // Inside an allowed folder, or one of the folders on the way to one (realpath of the root reads those).
  const fine = (p: string) => allowed.some((a) => (p + path.sep).startsWith(a) || a.startsWith(p + path.sep));
  const stray = [...touched].filter((p) => !fine(p));
  assert.equal(stray, []);
  assert.ok(touched.size > 0, 'strace saw the folders at all');
});

test.after.each(stopAll);

test.run();
