// The config file's urlAttributes (issue 11: "--url-attribute ..., and in the config file once there is one"):
// read by validate as --url-attribute reads them, added to by the command line, and a malformed entry is a
// usage error naming its line and column in the config.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { runCli } from './in-process.js';

const dir = mkdtempSync(path.join(tmpdir(), 'config-attrs-'));
// Heidelberg's hot folder (a foreign namespace) and an unnamespaced vendor element, as in Prinect tickets.
const TICKET = '<JDF xmlns:HDM="www.heidelberg.com/schema/HDM" Version="1.4"><ResourcePool><Device HDM:Hotfolder="file:///c:/hot/"/><SequenceHome URL="seq file.xml"/></ResourcePool></JDF>';
writeFileSync(path.join(dir, 'hdm.jdf'), TICKET);
const config = (name: string, value: unknown) => {
  const file = path.join(dir, name);
  writeFileSync(file, JSON.stringify(value, null, 2) + '\n');
  return file;
};
const run = (...args: string[]) => runCli(['validate', path.join(dir, 'hdm.jdf'), '--format', 'json', ...args], { encoding: 'utf8', cwd: dir });
const attributes = (stdout: string) => JSON.parse(stdout).files[0].references.map((r: any) => `${r.attribute} ${r.role}`);

test('without a config, neither vendor attribute is read', async () => {
  const r = await run('--config', config('empty.json', {}));
  assert.is(r.status, 0, r.stderr);
  assert.equal(attributes(r.stdout), []);
});

test('the config names one; --url-attribute adds the other', async () => {
  const file = config('one.json', { urlAttributes: ['Device/@HDM:Hotfolder=directory'] });
  const r = await run('--config', file);
  assert.equal(attributes(r.stdout), ['HDM:Hotfolder directory']);
  const both = await run('--config', file, '--url-attribute', 'SequenceHome/@URL');
  assert.equal(attributes(both.stdout), ['HDM:Hotfolder directory', 'URL url']);
  // "seq file.xml" holds a raw space: the appendix's Table 1 says it must be escaped.
  assert.is(both.status, 1);
  assert.ok(both.stdout.includes('"unescaped-space"'));
});

test('the config found upward from the working folder is read too', async () => {
  const sub = path.join(dir, 'found');
  spawnSync('mkdir', ['-p', sub]);
  writeFileSync(path.join(sub, 'jdf-filespec.config.json'), JSON.stringify({ urlAttributes: ['SequenceHome/@URL'] }));
  writeFileSync(path.join(sub, 'hdm.jdf'), TICKET);
  const r = await runCli(['validate', 'hdm.jdf', '--format', 'json'], { encoding: 'utf8', cwd: sub });
  assert.equal(attributes(r.stdout), ['URL url']);
});

test('a malformed entry is a usage error at its line and column in the config', async () => {
  const file = config('bad.json', { urlAttributes: ['SequenceHome/@URL', 'Device/Hotfolder'] });
  const r = await run('--config', file);
  assert.is(r.status, 2);
  assert.is(r.stdout, '');
  // JSON.stringify(.., 2) puts the second entry on line 4, after four spaces of indentation: column 5.
  assert.ok(r.stderr.includes(`${file}:4:5: urlAttributes.1: 'Device/Hotfolder' is not ELEMENT/@ATTR`), r.stderr);
  const wrongType = await run('--config', config('type.json', { urlAttributes: 'SequenceHome/@URL' }));
  assert.is(wrongType.status, 2);
  assert.ok(wrongType.stderr.includes('urlAttributes: must be an array, not a string'), wrongType.stderr);
});

test.after(() => rmSync(dir, { recursive: true, force: true }));
test.run();
