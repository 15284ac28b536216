import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { projectRoot, removeTempFolders, tempFolder } from './helpers.js';
import { runCli } from './in-process.js';

const main = fileURLToPath(new URL('dist/src/cli/main.js', projectRoot));
const root = realpathSync(tempFolder('jfs-root-'));
const outside = realpathSync(tempFolder('jfs-outside-'));
const job = path.join(root, 'jobs', '4711');
mkdirSync(path.join(job, 'pages'), { recursive: true });
mkdirSync(path.join(job, 'folder'));
writeFileSync(path.join(job, 'pages', 'p1.pdf'), '%PDF');
writeFileSync(path.join(job, 'Cover.pdf'), '%PDF');
writeFileSync(path.join(outside, 'secret.pdf'), 'not yours');
symlinkSync(outside, path.join(root, 'link-out'));
symlinkSync(path.join(job, 'pages'), path.join(root, 'link-in'));
const jobUrl = pathToFileURL(job).href + '/';

const ticket = (urls: string[], directory = jobUrl) =>
  `<JDF Version="1.4"><ResourcePool><RunList Directory="${directory}">${urls.map((u) => `<LayoutElement><FileSpec URL="${u}"/></LayoutElement>`).join('')}</RunList></ResourcePool></JDF>`;

async function validate(urls: string[], args: string[], directory?: string) {
  const file = path.join(root, `t${Math.random().toString(36).slice(2)}.jdf`);
  writeFileSync(file, ticket(urls, directory));
  const r = await runCli(['validate', file, '--format', 'json', '--platform', 'unix', ...args], { encoding: 'utf8' });
  assert.ok(r.status === 0 || r.status === 1, r.stderr);
  const refs = JSON.parse(r.stdout).files[0].references.filter((x: any) => x.attribute === 'URL');
  return Object.fromEntries(refs.map((x: any) => [x.value, x.findings.map((f: any) => f.code).filter((c: string) => !['consumers-disagree', 'drive-lost-in-resolution', 'climbs-above-root'].includes(c))]));
}

test('--check-exists: present, missing, a folder, other case', async () => {
  // Asked of the file system the folder is on, not of the platform: a case-folding one finds Cover.pdf as cover.pdf.
  const foldsCase = existsSync(path.join(job, 'cover.pdf'));
  assert.equal(await validate(['pages/p1.pdf', 'pages/p2.pdf', 'folder', 'cover.pdf'], ['--check-exists']), {
    'pages/p1.pdf': [],
    'pages/p2.pdf': ['file-missing'],
    folder: ['not-a-file'],
    'cover.pdf': foldsCase ? [] : ['case-mismatch'],
  });
});

// A file nobody may read. Root reads every file through its capabilities CAP_DAC_OVERRIDE and CAP_DAC_READ_SEARCH,
// so as root the CLI runs as root without those two (setpriv, util-linux): the mode-0000 file is then EACCES to it
// as to anyone, while the checkout, Node and the temporary folder stay as reachable as they are to the test itself,
// wherever they live (a 0700 folder, a private TMPDIR). Not another user: "nobody" cannot enter a private checkout.
test('--check-exists: a file that exists but cannot be read is file-unreadable', async () => {
  const folder = realpathSync(tempFolder('jfs-unreadable-'));
  writeFileSync(path.join(folder, 'locked.pdf'), '%PDF');
  chmodSync(path.join(folder, 'locked.pdf'), 0o000);
  writeFileSync(path.join(folder, 'open.pdf'), '%PDF');
  const file = path.join(folder, 't.jdf');
  writeFileSync(file, ticket(['locked.pdf', 'open.pdf'], pathToFileURL(folder).href + '/'));
  const asRoot = process.getuid?.() === 0;
  const setpriv = ['/usr/bin/setpriv', '/bin/setpriv'].find((p) => existsSync(p));
  if (asRoot && setpriv === undefined) {
    console.log('  (skipped: running as root without setpriv, so no file is unreadable here)');
    return;
  }
  const command = [process.execPath, main, 'validate', file, '--format', 'json', '--platform', 'unix', '--check-exists'];
  const dropRead = '-dac_override,-dac_read_search';
  const r = asRoot
    ? spawnSync(setpriv!, [`--bounding-set=${dropRead}`, `--inh-caps=${dropRead}`, ...command], { encoding: 'utf8' })
    : spawnSync(command[0]!, command.slice(1), { encoding: 'utf8' });
  assert.equal(r.status, 1, r.stderr);
  const refs = JSON.parse(r.stdout).files[0].references.filter((x: any) => x.attribute === 'URL');
  assert.equal(refs.map((x: any) => [x.value, x.findings.map((f: any) => f.code)]), [['locked.pdf', ['file-unreadable']], ['open.pdf', []]]);
  assert.match(refs[0].findings[0].message, /EACCES/);
});

test('--check-exists: a Directory that is missing or not a folder', async () => {
  const file = path.join(root, 'dir.jdf');
  writeFileSync(file, `<JDF><ResourcePool><RunList Directory="${jobUrl}nope/"/><RunList Directory="${jobUrl}Cover.pdf/"/></ResourcePool></JDF>`);
  const r = await runCli(['validate', file, '--format', 'json', '--check-exists', '--platform', 'unix'], { encoding: 'utf8' });
  const codes = JSON.parse(r.stdout).files[0].references.map((x: any) => x.findings.map((f: any) => f.code));
  assert.equal(codes, [['not-a-directory'], ['not-a-directory']]);
});

test('--root: "..", %2E%2E and a symbolic link out of the root are errors; links inside are fine', async () => {
  const result = await validate(['pages/p1.pdf', '../../../../../../etc/passwd', '%2E%2E/%2E%2E/%2E%2E/x.pdf', '../../link-out/secret.pdf', '../../link-in/p1.pdf'], ['--root', root, '--check-exists']);
  assert.equal(result['pages/p1.pdf'], []);
  assert.equal(result['../../../../../../etc/passwd'], ['outside-root']);
  assert.equal(result['%2E%2E/%2E%2E/%2E%2E/x.pdf'], ['outside-root']);
  assert.equal(result['../../link-out/secret.pdf'], ['outside-root']);
  assert.equal(result['../../link-in/p1.pdf'], []);
});

test('--root without --check-exists confines without looking for files', async () => {
  const result = await validate(['pages/missing.pdf', '../../../x.pdf'], ['--root', job]);
  assert.equal(result['pages/missing.pdf'], []);
  assert.equal(result['../../../x.pdf'], ['outside-root']);
});

test('an absolute file URL outside the root is an error too', async () => {
  const result = await validate([pathToFileURL(path.join(outside, 'secret.pdf')).href], ['--root', root, '--check-exists']);
  assert.equal(Object.values(result)[0], ['outside-root']);
});

test('another host is "not checked" unless --map maps it; --map also maps drive letters, case-insensitively', async () => {
  const unmapped = await validate(['file://fileserver/Jobs/4711/pages/p1.pdf', 'file:///C:/hot/pages/p1.pdf'], ['--check-exists']);
  assert.equal(unmapped['file://fileserver/Jobs/4711/pages/p1.pdf'], ['not-checked']);
  assert.equal(unmapped['file:///C:/hot/pages/p1.pdf'], process.platform === 'win32' ? ['file-missing'] : ['file-missing']);
  const mapped = await validate(['file://fileserver/Jobs/4711/pages/p1.pdf', 'file://FileServer/Jobs/4711/pages/p9.pdf', 'file:///C:/hot/pages/p1.pdf'], ['--check-exists', '--map', `file://fileserver/Jobs/4711/=${job}/`, '--map', `file:///c:/hot/=${job}/`]);
  assert.equal(mapped, { 'file://fileserver/Jobs/4711/pages/p1.pdf': [], 'file://FileServer/Jobs/4711/pages/p9.pdf': ['file-missing'], 'file:///C:/hot/pages/p1.pdf': [] });
});

test('a bad --map or a missing --root is a usage error (exit 2)', async () => {
  const file = path.join(root, 'ok.jdf');
  writeFileSync(file, ticket(['pages/p1.pdf']));
  assert.is((await runCli(['validate', file, '--map', 'nonsense'], { encoding: 'utf8' })).status, 2);
  assert.is((await runCli(['validate', file, '--root', path.join(root, 'no-such-folder')], { encoding: 'utf8' })).status, 2);
});

test('Windows device names and trailing dots are flagged for the windows platform', async () => {
  const file = path.join(root, 'win.jdf');
  writeFileSync(file, ticket(['CON.pdf', 'final./a.pdf', 'console.pdf'], 'file:///c:/jobs/'));
  const r = await runCli(['validate', file, '--format', 'json', '--platform', 'windows'], { encoding: 'utf8' });
  const codes = JSON.parse(r.stdout).files[0].references.filter((x: any) => x.attribute === 'URL').map((x: any) => x.findings.map((f: any) => f.code));
  assert.equal(codes, [['windows-reserved-name'], ['windows-reserved-name'], []]);
});

test('--check-exists in a Latin-1 ticket: %FC is the character ü (JDF appendix 3), named on this disk as it names ü', async () => {
  writeFileSync(path.join(job, 'M\u00fcller.pdf'), '%PDF');
  const file = path.join(root, 'latin1.jdf');
  // The ticket's bytes in ISO-8859-1, written by hand; its escaped octet %FC is ü in that charset.
  writeFileSync(file, Buffer.from(`<?xml version="1.0" encoding="ISO-8859-1"?>\n${ticket(['M%FCller.pdf', 'M%FCller-2.pdf'])}`, 'latin1'));
  {
    const extra: string[] = [];
    const r = await runCli(['validate', file, '--format', 'json', '--platform', 'unix', '--check-exists', ...extra], { encoding: 'utf8' });
    const refs = JSON.parse(r.stdout).files[0].references.filter((x: any) => x.attribute === 'URL');
    const codes = Object.fromEntries(refs.map((x: any) => [x.value, x.findings.map((f: any) => f.code)]));
    assert.equal(codes['M%FCller.pdf'], [], JSON.stringify(codes));
    assert.equal(codes['M%FCller-2.pdf'], ['file-missing'], JSON.stringify(codes));
  }
});

test.after(removeTempFolders);
test.run();
