// Issue 20, MEDIUM: /dev/zero, a FIFO and other special files named on the command line bypassed --max-bytes or
// blocked the run. Only regular files are read: anything else is an unreadable path (exit 2), reported at once,
// and the other paths are still validated.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { projectRoot } from './helpers.js';

const main = fileURLToPath(new URL('dist/src/cli/main.js', projectRoot));
// A run that blocks is killed after 20 s and fails the test (status null), instead of hanging the suite.
const cli = (...args: string[]) => spawnSync(process.execPath, [main, ...args], { encoding: 'utf8', timeout: 20_000 });
const dir = mkdtempSync(path.join(tmpdir(), 'jfs-secspecial-'));
const good = path.join(dir, 'good.jdf');
writeFileSync(good, '<JDF Version="1.4"><ResourcePool><RunList Directory="file:///srv/"><FileSpec URL="a b.pdf"/></RunList></ResourcePool></JDF>');
const fifo = path.join(dir, 'fifo.jdf');
const hasMkfifo = spawnSync('mkfifo', [fifo]).status === 0 && existsSync(fifo);

test('special files: a FIFO named on the command line does not block; it is an unreadable path, the rest is read', () => {
  if (!hasMkfifo) return;
  const r = cli('validate', fifo, good, '--format', 'json');
  assert.is(r.status, 2, `exit ${r.status} ${r.signal ?? ''}`);
  assert.match(r.stderr, 'not a regular file');
  assert.is(JSON.parse(r.stdout).files.length, 1);
});

test('special files: /dev/zero is refused at once, whatever --max-bytes says', () => {
  if (!existsSync('/dev/zero')) return;
  for (const limit of ['1000', '500000000']) {
    const r = cli('validate', '/dev/zero', '--max-bytes', limit);
    assert.is(r.status, 2, `exit ${r.status} ${r.signal ?? ''}`);
    assert.match(r.stderr, 'not a regular file');
  }
});

test('special files: fix refuses a FIFO without blocking', () => {
  if (!hasMkfifo) return;
  const r = cli('fix', fifo);
  assert.ok(r.status !== null, 'finished');
  assert.match(r.stdout + r.stderr, 'not a regular file');
});

test('special files: a file over --max-bytes is file-too-large, not read', () => {
  const r = cli('validate', good, '--max-bytes', '10', '--format', 'json');
  assert.is(r.status, 1);
  assert.equal(JSON.parse(r.stdout).files[0].findings.map((f: { code: string }) => f.code), ['file-too-large']);
});

test.run();
