// Finding tickets as ESLint finds files: folders without node_modules and dot-folders, glob patterns,
// .jdf-filespecignore and --ignore-pattern, and no silent pass when nothing is found.
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { expandPaths } from '../src/node/discover.js';
import { projectRoot } from './helpers.js';
import { handZip } from './zip-by-hand.js';
import { runCli } from './in-process.js';

const main = path.join(fileURLToPath(projectRoot), 'dist/src/cli/main.js');
const dir = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'jdf-discover-')));
const TICKET = '<JDF xmlns="http://www.CIP4.org/JDFSchema_1_1" Type="Product" ID="n" Status="Waiting" Version="1.3"/>';
// A hand-built tree: what a folder search must find, and what it must not.
for (const f of ['a.jdf', 'sub/b.JDF', 'sub/c.ptk', 'sub/d.mjm', 'sub/e.mjd', 'sub/e2.mim', 'sub/f.xjdf', 'notes.txt', 'node_modules/x/n.jdf', '.git/g.jdf', '.idea/i.jdf', 'archive/old.jdf', 'deep/er/z.jmf']) {
  mkdirSync(path.dirname(path.join(dir, f)), { recursive: true });
  writeFileSync(path.join(dir, f), TICKET);
}
mkdirSync(path.join(dir, 'empty'));
writeFileSync(path.join(dir, '.jdf-filespecignore'), '# old jobs\narchive/\n');

const run = (...args: string[]) => runCli(['validate', ...args, '--format', 'json', '--exit-zero'], { cwd: dir, encoding: 'utf8' });
const paths = (r: { stdout: string; stderr: string; status: number | null }) => {
  assert.is(r.status, 0, r.stderr);
  return JSON.parse(r.stdout).files.map((f: any) => f.path.split(path.sep).join('/'));
};

test('a folder: tickets and packages in any case of extension, folder by folder in name order; no node_modules, dot-folders or ignored folders', async () => {
  assert.equal(paths(await run('.')), ['a.jdf', 'deep/er/z.jmf', 'sub/b.JDF', 'sub/c.ptk', 'sub/d.mjm', 'sub/e.mjd', 'sub/e2.mim', 'sub/f.xjdf']);
});

test('--no-ignore reads .jdf-filespecignore no more (node_modules and dot-folders stay skipped)', async () => {
  assert.equal(paths(await run('.', '--no-ignore')), ['a.jdf', 'archive/old.jdf', 'deep/er/z.jmf', 'sub/b.JDF', 'sub/c.ptk', 'sub/d.mjm', 'sub/e.mjd', 'sub/e2.mim', 'sub/f.xjdf']);
});

test('--ignore-pattern (gitignore syntax, repeatable) adds to .jdf-filespecignore', async () => {
  assert.equal(paths(await run('.', '--ignore-pattern', 'sub/*.m*', '--ignore-pattern', 'deep')), ['a.jdf', 'sub/b.JDF', 'sub/c.ptk', 'sub/f.xjdf']);
});

test('.jdf-filespecignore is found as the config is, upward: from inside an ignored folder its tickets stay ignored', async () => {
  const inside = (...args: string[]) => spawnSync(process.execPath, [main, 'validate', ...args, '--format', 'json', '--exit-zero'], { cwd: path.join(dir, 'archive'), encoding: 'utf8' });
  // The file's "archive/" is relative to the folder that holds it, as in gitignore.
  const r = inside('.');
  assert.is(r.status, 2);
  assert.match(r.stderr, 'no tickets found in .');
  assert.equal(paths(inside('.', '--no-ignore')), ['old.jdf']);
  assert.equal(paths(spawnSync(process.execPath, [main, 'validate', '.', '--format', 'json', '--exit-zero'], { cwd: path.join(dir, 'deep'), encoding: 'utf8' })), ['er/z.jmf']);
});

test("a file named on the command line that an ignore pattern matches is skipped with ESLint's warning; --no-ignore reads it", async () => {
  const warning = 'File ignored because of a matching ignore pattern. Use --no-ignore to override';
  const r = await run('archive/old.jdf', 'a.jdf');
  assert.equal(paths(r), ['a.jdf']);
  assert.equal(r.stderr.trimEnd().split('\n'), [`jdf-filespec: archive/old.jdf: warning: ${warning}`]);
  const byPattern = await run('sub/f.xjdf', '--ignore-pattern', '*.xjdf');
  assert.equal(paths(byPattern), []);
  assert.match(byPattern.stderr, `sub/f.xjdf: warning: ${warning}`);
  const fix = spawnSync(process.execPath, [main, 'fix', 'old.jdf', '--dry-run'], { cwd: path.join(dir, 'archive'), encoding: 'utf8' });
  assert.match(fix.stderr, `old.jdf: warning: ${warning}`);
  const read = await run('archive/old.jdf', '--no-ignore');
  assert.equal(paths(read), ['archive/old.jdf']);
  assert.is(read.stderr, '');
});

test('in folder mode an XML file that is not a ticket is skipped (said with --debug); named, it is reported', async () => {
  const project = mkdtempSync(path.join(os.tmpdir(), 'jdf-pom-'));
  try {
    writeFileSync(path.join(project, 'pom.xml'), '<project><modelVersion>4.0.0</modelVersion></project>');
    mkdirSync(path.join(project, 'tickets'));
    writeFileSync(path.join(project, 'tickets', 'a.jdf'), TICKET);
    const inProject = (...args: string[]) => spawnSync(process.execPath, [main, 'validate', ...args, '--format', 'json', '--exit-zero'], { cwd: project, encoding: 'utf8' });
    const quiet = inProject('.');
    assert.equal(paths(quiet), ['tickets/a.jdf']);
    assert.is(quiet.stderr, '');
    assert.is(JSON.parse(quiet.stdout).summary.info, 0);
    assert.match(inProject('.', '--debug').stderr, /skipped pom\.xml, found in \.: The root element <project> is not JDF/);
    const named = inProject('pom.xml');
    assert.equal(paths(named), ['pom.xml']);
    assert.equal(JSON.parse(named.stdout).files[0].findings.map((f: any) => f.code), ['not-a-ticket']);
    // A folder whose only XML is not a ticket found no ticket: exit 2, as an empty folder.
    mkdirSync(path.join(project, 'conf'));
    writeFileSync(path.join(project, 'conf', 'settings.xml'), '<settings/>');
    const none = inProject('conf');
    assert.is(none.status, 2);
    assert.match(none.stderr, 'no tickets found in conf');
  } finally {
    rmSync(project, { recursive: true, force: true });
  }
});

test('validate --help names what a folder is searched for, .mim and zip job packages too, and the search finds exactly that', async () => {
  const help = spawnSync(process.execPath, [main, 'validate', '--help'], { encoding: 'utf8', env: { ...process.env, COLUMNS: '1000' } }).stdout.replace(/\s+/g, ' ');
  const said = /searched for ([^,]+), and \.zip job packages/.exec(help)?.[1];
  assert.ok(said, help);
  const listed = said!.split(' ');
  assert.ok(listed.includes('.mim') && listed.includes('.mjm') && listed.includes('.ptk'), listed.join(' '));
  const folder = mkdtempSync(path.join(os.tmpdir(), 'jdf-help-'));
  try {
    for (const e of [...listed, '.txt', '.json', '.pdf']) writeFileSync(path.join(folder, `t${e}`), TICKET);
    writeFileSync(path.join(folder, 'job.zip'), handZip([{ name: 'job.jdf', data: TICKET }]));
    writeFileSync(path.join(folder, 'fonts.zip'), handZip([{ name: 'a.otf', data: 'x' }]));
    const found = paths(spawnSync(process.execPath, [main, 'validate', '.', '--format', 'json', '--exit-zero'], { cwd: folder, encoding: 'utf8' }));
    assert.equal([...new Set(found)].sort(), [...listed.map((e) => `t${e}`), 'job.zip'].sort());
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
});

test('glob patterns, relative and absolute; a file found twice is read once', async () => {
  assert.equal(paths(await run('sub/*.{ptk,mjm}')), ['sub/c.ptk', 'sub/d.mjm']);
  assert.equal(paths(await run('**/*.jdf')), ['a.jdf']);
  assert.equal(paths(await run(`${dir}/deep/**/*.jmf`)), [`${dir}/deep/er/z.jmf`]);
  assert.equal(paths(await run('a.jdf', '*.jdf', '.')).filter((p: string) => p === 'a.jdf').length, 1);
});

test('a file named on the command line is read wherever it is', async () => {
  assert.equal(paths(await run('node_modules/x/n.jdf', '.git/g.jdf', 'notes.txt')), ['node_modules/x/n.jdf', '.git/g.jdf', 'notes.txt']);
});

for (const [given, label] of [['empty', 'a folder without tickets'], ['nothing/**/*.jdf', 'a glob that matches nothing'], ['archive', 'a folder that is all ignored']] as const) {
  test(`${label}: "no tickets found in ${given}", exit 2, unless --no-error-on-unmatched-pattern`, async () => {
    const r = await run(given, 'a.jdf');
    assert.is(r.status, 2);
    assert.is(r.stdout, '');
    assert.match(r.stderr, `no tickets found in ${given}`);
    assert.equal(paths(await run(given, 'a.jdf', '--no-error-on-unmatched-pattern')), ['a.jdf']);
  });
}

test('fix: a folder without tickets is exit 2 too', async () => {
  const r = await runCli(['fix', 'empty', '--dry-run'], { cwd: dir, encoding: 'utf8' });
  assert.is(r.status, 2);
  assert.match(r.stderr, /no tickets found in empty/);
});

// As root, without the capabilities that read any folder (see local-files.test.ts).
test('a folder that cannot be listed is reported (exit 2), not skipped in silence', async () => {
  const locked = path.join(dir, 'locked');
  mkdirSync(path.join(locked, 'in'), { recursive: true });
  writeFileSync(path.join(locked, 'in', 't.jdf'), TICKET);
  writeFileSync(path.join(locked, 'open.jdf'), TICKET);
  chmodSync(path.join(locked, 'in'), 0o000);
  const setpriv = ['/usr/bin/setpriv', '/bin/setpriv'].find((p) => existsSync(p));
  const asRoot = process.getuid?.() === 0;
  if (asRoot && setpriv === undefined) {
    console.log('  (skipped: running as root without setpriv)');
    return;
  }
  const command = [process.execPath, main, 'validate', 'locked', '--format', 'json'];
  const drop = '-dac_override,-dac_read_search';
  const r = asRoot ? spawnSync(setpriv!, [`--bounding-set=${drop}`, `--inh-caps=${drop}`, ...command], { cwd: dir, encoding: 'utf8' }) : spawnSync(command[0]!, command.slice(1), { cwd: dir, encoding: 'utf8' });
  chmodSync(path.join(locked, 'in'), 0o755);
  assert.is(r.status, 2);
  assert.match(r.stderr, /cannot read locked\/in/);
  assert.equal(JSON.parse(r.stdout).files.map((f: any) => f.path), ['locked/open.jdf']);
});

// Issue 20: symbolic links met in a search. A linked folder was followed out of the named tree ("fix" fixed a
// ticket there), "d/loop -> .." found every ticket twice, and a dangling ticket link was skipped in silence.
// As ESLint 9: links are not followed; a linked ticket is an unreadable path (exit 2) that says where it leads.
const links = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'jdf-discover-links-')));
const FIXABLE = '<JDF Version="1.4"><ResourcePool><RunList Directory="file:///srv/"><FileSpec URL="a b.pdf"/></RunList></ResourcePool></JDF>';
mkdirSync(path.join(links, 'tree', 'd'), { recursive: true });
mkdirSync(path.join(links, 'out'));
writeFileSync(path.join(links, 'tree', 'a.jdf'), TICKET);
writeFileSync(path.join(links, 'out', 'o.jdf'), FIXABLE);
symlinkSync('..', path.join(links, 'tree', 'd', 'loop'));
symlinkSync(path.join(links, 'out'), path.join(links, 'tree', 'd', 'out'));
symlinkSync('nowhere.jdf', path.join(links, 'tree', 'dangling.jdf'));
symlinkSync(path.join(links, 'out', 'o.jdf'), path.join(links, 'tree', 'outside.jdf'));

test('symbolic links in a folder: linked folders not followed (no loop, nothing outside), linked tickets reported with their target, exit 2', async () => {
  const r = await runCli(['validate', 'tree', '--format', 'json'], { cwd: links, encoding: 'utf8' });
  assert.is(r.status, 2, r.stderr);
  assert.equal(JSON.parse(r.stdout).files.map((f: any) => f.path), ['tree/a.jdf']);
  assert.match(r.stderr, /cannot read tree\/dangling\.jdf: a symbolic link to nowhere\.jdf, which cannot be reached \(ENOENT\)/);
  assert.match(r.stderr, `cannot read tree/outside.jdf: a symbolic link to ${path.join(links, 'out', 'o.jdf')};`);
  // The same through a glob pattern.
  const g = await runCli(['validate', 'tree/**/*.jdf', '--format', 'json'], { cwd: links, encoding: 'utf8' });
  assert.is(g.status, 2, g.stderr);
  assert.equal(JSON.parse(g.stdout).files.map((f: any) => f.path), ['tree/a.jdf']);
});

test('symbolic links in a folder: fix never fixes a ticket reached through a linked folder or a linked ticket', async () => {
  const r = await runCli(['fix', 'tree'], { cwd: links, encoding: 'utf8' });
  assert.is(r.status, 2, r.stderr);
  assert.is(readFileSync(path.join(links, 'out', 'o.jdf'), 'utf8'), FIXABLE);
});

test('symbolic links: a linked folder or ticket named on the command line is read, as the operating system resolves it', async () => {
  const r = await runCli(['validate', 'tree/d/out', 'tree/outside.jdf', '--format', 'json', '--exit-zero'], { cwd: links, encoding: 'utf8' });
  assert.is(r.status, 0, r.stderr);
  assert.equal(JSON.parse(r.stdout).files.map((f: any) => f.path), ['tree/d/out/o.jdf', 'tree/outside.jdf']);
});

// Zips in a folder: job packages (a ticket at the top level, XJDF 2.0 zip packaging) are taken, told from their
// central directory; a zip of anything else, one with tickets only in subfolders, and a .zip that is no zip are not.
const zips = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'jdf-discover-zips-')));
const XJDF = '<?xml version="1.0"?>\n<XJDF JobID="j1" Types="Product"><ResourceSet Name="RunList"><Resource><RunList><FileSpec URL="content/a.pdf"/></RunList></Resource></ResourceSet></XJDF>\n';
mkdirSync(path.join(zips, 'jobs', 'in'), { recursive: true });
writeFileSync(path.join(zips, 'jobs', 'job.zip'), handZip([{ name: 'job.xjdf', data: XJDF, deflate: true }, { name: 'content/a.pdf', data: '%PDF-1.7\n' }]));
writeFileSync(path.join(zips, 'jobs', 'in', 'OLD.ZIP'), handZip([{ name: 'ticket.JDF', data: TICKET }]));
writeFileSync(path.join(zips, 'jobs', 'fonts.zip'), handZip([{ name: 'fonts/a.otf', data: 'OTTO' }, { name: 'readme.txt', data: 'fonts' }]));
writeFileSync(path.join(zips, 'jobs', 'archive.zip'), handZip([{ name: '2023/job.jdf', data: TICKET }]));
writeFileSync(path.join(zips, 'jobs', 'text.zip'), 'not a zip at all');
writeFileSync(path.join(zips, 'jobs', 'cut.zip'), handZip([{ name: 'job.xjdf', data: XJDF }]).subarray(0, 40));
writeFileSync(path.join(zips, 'only-fonts.zip'), handZip([{ name: 'a.otf', data: 'OTTO' }]));

test('zips in a folder: job packages only (a ticket at their top level, any case of .zip); fonts, archives, damage and non-zips left alone', async () => {
  const r = await runCli(['validate', 'jobs', '--format', 'json', '--exit-zero'], { cwd: zips, encoding: 'utf8' });
  assert.is(r.status, 0, r.stderr);
  const report = JSON.parse(r.stdout);
  assert.equal([...new Set(report.files.map((f: any) => f.path))], ['jobs/in/OLD.ZIP', 'jobs/job.zip']);
  // Read as packages: the ticket inside is the part reported.
  assert.equal(report.files.map((f: any) => f.part ?? null), [null, 'ticket.JDF', null, 'job.xjdf']);
});

test('zips in a folder: a folder of zips none of which is a job has no tickets (exit 2); named, a zip is read whatever it holds', async () => {
  const none = await runCli(['validate', '.', '--ignore-pattern', 'jobs', '--format', 'json'], { cwd: zips, encoding: 'utf8' });
  assert.is(none.status, 2);
  assert.match(none.stderr, /no tickets found in \./);
  const named = await runCli(['validate', 'jobs/fonts.zip', 'jobs/*.zip', '--format', 'json', '--exit-zero'], { cwd: zips, encoding: 'utf8' });
  assert.equal([...new Set(JSON.parse(named.stdout).files.map((f: any) => f.path))], ['jobs/fonts.zip', 'jobs/archive.zip', 'jobs/cut.zip', 'jobs/job.zip', 'jobs/text.zip']);
});

test('expandPaths({ packages: false }): tickets only, for commands that work on tickets (fix)', async () => {
  const all = await expandPaths(['.'], { cwd: dir });
  assert.ok(all.sources.some((s) => s.path.endsWith('.mjm')));
  // (An earlier test made locked/, with tickets in it.)
  const tickets = await expandPaths(['.', path.join(zips, 'jobs')], { cwd: dir, packages: false, ignorePatterns: ['locked'] });
  assert.equal(tickets.sources.map((s) => s.path.split(path.sep).join('/')), ['a.jdf', 'deep/er/z.jmf', 'sub/b.JDF', 'sub/c.ptk', 'sub/f.xjdf']);
  assert.equal(tickets.unmatched, [path.join(zips, 'jobs')]);
});

test.after(() => {
  rmSync(dir, { recursive: true, force: true });
  rmSync(links, { recursive: true, force: true });
  rmSync(zips, { recursive: true, force: true });
});
test.run();
