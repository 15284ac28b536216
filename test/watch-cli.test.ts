// jdf-filespec watch on the command line: JSON events, the status file while a ticket waits, SIGINT, usage errors.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { projectRoot } from './helpers.js';
import { drop, exited, makeDirs, routed, stopLater, stopAll, ticketXml, until } from './watch-helpers.js';

const main = fileURLToPath(new URL('dist/src/cli/main.js', projectRoot));

test('watch: waiting is visible in the status file, the ticket is routed when its PDF comes, SIGINT stops it with exit 0', async () => {
  const d = makeDirs('jfs-cli-');
  const jobs = path.join(d.base, 'jobs');
  mkdirSync(jobs);
  drop(d, 'j.jdf', ticketXml('j', { directory: pathToFileURL(jobs).href + '/', urls: ['p1.pdf'] }));
  const status = path.join(d.base, 'status.json');
  const proc = spawn(process.execPath, [main, 'watch', d.in, '--ok', d.ok, '--error', d.error, '--settle', '150ms', '--poll-interval', '200ms', '--check-exists', '--root', d.base, '--wait-for-files', '30s', '--status', status, '--platform', 'unix'], { stdio: ['ignore', 'pipe', 'pipe'] });
  stopLater(() => proc.kill('SIGKILL'));
  let out = '';
  proc.stdout.on('data', (c: Buffer) => (out += c.toString()));
  const waitingInStatus = () => {
    try {
      return (JSON.parse(readFileSync(status, 'utf8')).waiting as Array<{ ticket: string; missing: Array<{ code: string }> }>).some((w) => w.ticket === 'j.jdf' && w.missing[0]?.code === 'file-missing');
    } catch {
      return false;
    }
  };
  await until(waitingInStatus, 30_000, 'the status file to list the waiting ticket');
  writeFileSync(path.join(jobs, 'p1.pdf'), '%PDF-1.7');
  await until(() => out.includes('"event":"ok"'), 30_000, 'the ticket to be routed');
  proc.kill('SIGINT');
  assert.is(await exited(proc), 0);
  const events = out.trim().split('\n').map((l) => JSON.parse(l) as { event: string });
  assert.equal(events.map((e) => e.event), ['started', 'picked-up', 'waiting', 'ok', 'stopping', 'stopped']);
  assert.equal(routed(d).map((r) => [r.folder, r.name, r.hasReport]), [['ok', 'j.jdf', true]]);
  assert.ok(existsSync(status));
});

test('watch: usage errors exit 2 with a message', () => {
  const d = makeDirs('jfs-cli-');
  const run = (...args: string[]) => spawnSync(process.execPath, [main, 'watch', ...args], { encoding: 'utf8' });
  const missing = run(path.join(d.base, 'nope'), '--ok', d.ok, '--error', d.error);
  assert.is(missing.status, 2);
  assert.match(missing.stderr, /does not exist/);
  const bad = run(d.in, '--ok', d.ok, '--error', d.error, '--settle', 'soon');
  assert.is(bad.status, 2);
  assert.match(bad.stderr, /--settle takes a duration/);
  const same = run(d.in, '--ok', d.in, '--error', d.error);
  assert.is(same.status, 2);
  assert.match(same.stderr, /other folders than the hot folder/);
  const noOk = run(d.in, '--error', d.error);
  assert.is(noOk.status, 2);
});

test.after.each(stopAll);

test.run();
