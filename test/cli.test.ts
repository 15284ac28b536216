import { fileURLToPath } from 'node:url';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { projectRoot } from './helpers.js';
import { runCli } from './in-process.js';

const run = (...args: string[]) => runCli(args, { encoding: 'utf8', cwd: fileURLToPath(projectRoot) });

test('check: exit 0 on a clean URL', async () => {
  const r = await run('check', 'file:///c:/pub/a.pdf');
  assert.is(r.status, 0, r.stderr);
  assert.match(r.stdout, /1 URL checked: 0 errors, 0 warnings, 0 info/);
});

test('check: exit 1 with the rule, the position and the fix in text', async () => {
  const r = await run('check', 'file:///c:/my docs/a.pdf');
  assert.is(r.status, 1);
  assert.match(r.stdout, /at 13 +error +The URL holds a space.*unescaped-space/);
  assert.match(r.stdout, /fix: file:\/\/\/c:\/my%20docs\/a\.pdf/);
});

test('check --format json gives the library result', async () => {
  const r = await run('check', 'file://c:/folder/a.pdf', '--format', 'json');
  const results = JSON.parse(r.stdout);
  assert.is(results[0].findings[0].code, 'drive-letter-as-host');
  assert.is(results[0].fixed, 'file:///c:/folder/a.pdf');
});

test('check --base resolves; --profile and --platform change verdicts', async () => {
  assert.match((await run('check', '../F-22/job001.pdf', '--base', 'file:///c:/DownloadDir/Title-J626103/')).stdout, /resolved: file:\/\/\/c:\/DownloadDir\/F-22\/job001\.pdf/);
  assert.is((await run('check', 'file:/path/to/file', '--platform', 'unix')).status, 1);
  assert.is((await run('check', 'file:/path/to/file', '--platform', 'unix', '--profile', 'rfc8089')).status, 0);
  assert.is((await run('check', 'file:///a.pdf', '--platform', 'windows')).status, 1);
  assert.is((await run('check', 'file:///a.pdf', '--platform', 'unix')).status, 0);
});

test('check --role directory warns about the missing trailing slash', async () => {
  const r = await run('check', 'file:///c:/DownloadDir/Title-J626103', '--role', 'directory');
  assert.is(r.status, 0);
  assert.match(r.stdout, /directory-without-trailing-slash/);
});

test('resolve prints the target URI', async () => {
  const r = await run('resolve', '../F-22/job001.pdf', '--base', 'file:///c:/DownloadDir/Title-J626103/');
  assert.is(r.stdout, 'file:///c:/DownloadDir/F-22/job001.pdf\n');
  assert.is((await run('resolve', '../bar.txt', '--base', 'file:///c:/foo.txt', '--drive-preserving')).stdout, 'file:///c:/bar.txt\n');
});

test('usage errors exit 2 without a stack trace', async () => {
  for (const args of [[], ['nonsense'], ['check'], ['resolve', 'a'], ['check', 'a', '--profile', 'nope']]) {
    const r = await run(...args);
    assert.is(r.status, 2, `${args.join(' ')}: ${r.stdout}${r.stderr}`);
    assert.not.match(r.stderr, /\n\s+at /);
  }
});

test('--help lists the commands', async () => {
  const r = await run('--help');
  assert.is(r.status, 0);
  assert.match(r.stdout, /check \[urls\.\.\]/);
  assert.match(r.stdout, /resolve <reference>/);
});

// yargs' own words ("Options:", its errors) follow LANG and LC_ALL unless told otherwise; ours are English.
test('--help and usage errors are English whatever the locale', async () => {
  const env = { ...process.env, LANG: 'de_DE.UTF-8', LC_ALL: 'de_DE.UTF-8', LC_MESSAGES: 'de_DE.UTF-8', LANGUAGE: 'de' };
  const help = await runCli(['--help'], { encoding: 'utf8', env });
  assert.match(help.stdout, /^Commands:$/m);
  assert.match(help.stdout, /^Options:$/m);
  const usage = await runCli(['check', '--profile', 'nope'], { encoding: 'utf8', env });
  assert.is(usage.status, 2);
  assert.match(usage.stderr, /Invalid values/);
});

test('a password given on the command line is never printed', async () => {
  const r = await run('check', 'file://user:hunter2@host/a b.pdf', '--format', 'json');
  const t = await run('check', 'file://user:hunter2@host/a b.pdf');
  assert.not.ok((r.stdout + r.stderr + t.stdout + t.stderr).includes('hunter2'));
});

test.run();
