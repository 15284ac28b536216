// One set of platform names on every command: unix and posix name the same platform everywhere.
import { fileURLToPath } from 'node:url';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { projectRoot } from './helpers.js';
import { runCli } from './in-process.js';

const root = fileURLToPath(projectRoot);
const run = (...args: string[]) => runCli(args, { cwd: root, encoding: 'utf8' });

for (const name of ['unix', 'posix']) {
  test(`--platform ${name} on every command`, async () => {
    // RFC 8089 2: file:/path is the minimal form, fine for a Unix consumer under rfc8089; file:///a.pdf has no drive.
    assert.is((await run('check', 'file:/path/to/file', '--platform', name, '--profile', 'rfc8089')).status, 0);
    assert.is((await run('check', 'file:///a.pdf', '--platform', name)).status, 0);
    assert.is((await run('validate', 'samples/hot-folder.jdf', '--platform', name)).status, 0);
    assert.is((await run('fix', 'samples/hot-folder.jdf', '--dry-run', '--platform', name)).status, 0);
    // RFC 8089 appendix: %20 is a space in the path.
    assert.is((await run('to-path', 'file:///a%20b.pdf', '--platform', name)).stdout, '/a b.pdf\n');
    assert.is((await run('from-path', '/a b.pdf', '--platform', name)).stdout, 'file:///a%20b.pdf\n');
  });
}

test('windows still differs: file:///a.pdf names no drive', async () => {
  assert.is((await run('check', 'file:///a.pdf', '--platform', 'windows')).status, 1);
});

test.run();
