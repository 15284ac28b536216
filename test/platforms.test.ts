// One set of platform names on every command: unix and posix name the same platform everywhere.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { projectRoot } from './helpers.js';

const root = fileURLToPath(projectRoot);
const run = (...args: string[]) => spawnSync(process.execPath, [path.join(root, 'dist/src/cli/main.js'), ...args], { cwd: root, encoding: 'utf8' });

for (const name of ['unix', 'posix']) {
  test(`--platform ${name} on every command`, () => {
    // RFC 8089 2: file:/path is the minimal form, fine for a Unix consumer under rfc8089; file:///a.pdf has no drive.
    assert.is(run('check', 'file:/path/to/file', '--platform', name, '--profile', 'rfc8089').status, 0);
    assert.is(run('check', 'file:///a.pdf', '--platform', name).status, 0);
    assert.is(run('validate', 'samples/hot-folder.jdf', '--platform', name).status, 0);
    assert.is(run('fix', 'samples/hot-folder.jdf', '--dry-run', '--platform', name).status, 0);
    // RFC 8089 appendix: %20 is a space in the path.
    assert.is(run('to-path', 'file:///a%20b.pdf', '--platform', name).stdout, '/a b.pdf\n');
    assert.is(run('from-path', '/a b.pdf', '--platform', name).stdout, 'file:///a%20b.pdf\n');
  });
}

test('windows still differs: file:///a.pdf names no drive', () => {
  assert.is(run('check', 'file:///a.pdf', '--platform', 'windows').status, 1);
});

test.run();
