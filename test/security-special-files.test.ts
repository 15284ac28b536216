// Issue 20, MEDIUM: /dev/zero, a FIFO and other special files named on the command line bypassed --max-bytes or
// blocked the run. Only regular files are read: anything else is an unreadable path (exit 2), reported at once,
// and the other paths are still validated.
import { spawnSync } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { projectRoot, removeTempFolders, tempFolder } from './helpers.js';

const main = fileURLToPath(new URL('dist/src/cli/main.js', projectRoot));
// A run that blocks is killed after 20 s and fails the test (status null), instead of hanging the suite.
const cli = (...args: string[]) => spawnSync(process.execPath, [main, ...args], { encoding: 'utf8', timeout: 20_000 });
const dir = tempFolder('jfs-secspecial-');
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

// Issue 20: a FIFO (or device) named by a FileSpec passed --check-exists with 0 problems, FileSize, MimeType and
// CheckSum unchecked. It is not-a-file, as a folder is, and is never opened: the run must not block on it.
test('special files: a FIFO or a device named by a FileSpec is not-a-file, with or without --root, never opened', () => {
  if (!hasMkfifo) return;
  const pipe = path.join(dir, 'pipe.pdf');
  spawnSync('mkfifo', [pipe]);
  const facts = 'FileSize="4" MimeType="application/pdf" CheckSum="d41d8cd98f00b204e9800998ecf8427e"';
  const urls = [pathToFileURL(pipe).href, ...(existsSync('/dev/null') ? ['file:///dev/null'] : [])];
  const ticket = path.join(dir, 'pipe.jdf');
  writeFileSync(ticket, `<JDF Version="1.4"><ResourcePool><RunList>${urls.map((u) => `<LayoutElement><FileSpec URL="${u}" ${facts}/></LayoutElement>`).join('')}</RunList></ResourcePool></JDF>`);
  for (const extra of [[], ['--root', dir]]) {
    const r = cli('validate', ticket, '--check-exists', '--verify-checksums', '--platform', 'unix', '--format', 'json', ...extra);
    assert.is(r.status, 1, `exit ${r.status} ${r.signal ?? ''} ${r.stderr}`);
    const refs = JSON.parse(r.stdout).files[0].references.filter((x: { attribute: string }) => x.attribute === 'URL');
    const found = refs.map((x: { value: string; findings: Array<{ code: string; message: string }> }) => [x.value, x.findings.map((f) => f.code)]);
    if (extra.length === 0) {
      assert.equal(found, urls.map((u) => [u, ['not-a-file']]));
      assert.match(refs[0].findings[0].message, 'a FIFO, not a regular file');
    } else {
      assert.equal(found[0], [urls[0], ['not-a-file']]); // /dev/null is outside the root
    }
  }
});

test('special files: a file over --max-bytes is file-too-large, not read', () => {
  const r = cli('validate', good, '--max-bytes', '10', '--format', 'json');
  assert.is(r.status, 1);
  assert.equal(JSON.parse(r.stdout).files[0].findings.map((f: { code: string }) => f.code), ['file-too-large']);
});

test.after(removeTempFolders);
test.run();
