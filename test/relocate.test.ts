// relocate on real folders: two different page.pdf never share a name, the Directory is honoured, the
// references are rewritten relative to the ticket, the manifest lists everything, and a failure half way
// leaves nothing behind and the sources as they were.
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { projectRoot, removeTempFolders, tempFolder } from './helpers.js';
import { runCli } from './in-process.js';

const main = fileURLToPath(new URL('dist/src/cli/main.js', projectRoot));

function job() {
  const top = realpathSync(tempFolder('jfs-relocate-'));
  chmodSync(top, 0o777);
  const hot = path.join(top, 'hot');
  const store = path.join(top, 'store', '4711');
  for (const d of [path.join(hot, 'a'), path.join(hot, 'b'), path.join(store, 'pages')]) mkdirSync(d, { recursive: true });
  writeFileSync(path.join(hot, 'a', 'page.pdf'), '%PDF a');
  writeFileSync(path.join(hot, 'b', 'page.pdf'), '%PDF b');
  writeFileSync(path.join(store, 'pages', 'p 1.pdf'), '%PDF p1');
  writeFileSync(path.join(store, 'cover.pdf'), '%PDF cover');
  const ticket = path.join(hot, 'job.jdf');
  const text = [
    '<JDF Version="1.4"><ResourcePool>',
    '<RunList ID="r1"><LayoutElement><FileSpec URL="a/page.pdf"/></LayoutElement><LayoutElement><FileSpec URL="b/page.pdf"/></LayoutElement></RunList>',
    `<RunList ID="r2" Directory="${pathToFileURL(store).href}/"><LayoutElement><FileSpec URL="pages/p%201.pdf"/></LayoutElement><LayoutElement><FileSpec URL="cover.pdf"/></LayoutElement><LayoutElement><FileSpec URL="missing.pdf"/></LayoutElement></RunList>`,
    '<RunList ID="r3"><LayoutElement><FileSpec URL="https://files.example.com/x.pdf"/></LayoutElement></RunList>',
    '</ResourcePool></JDF>',
    '',
  ].join('\n');
  writeFileSync(ticket, text);
  return { top, hot, store, ticket, text };
}

const cli = (args: string[], cwd: string) => runCli(['relocate', ...args], { encoding: 'utf8', cwd });

test('copy: mirrored layout, no two page.pdf on one name, Directory honoured, references relative, manifest', async () => {
  const j = job();
  const dest = path.join(j.top, 'archive', '4711');
  mkdirSync(path.dirname(dest));
  const r = await cli([j.ticket, '--to', dest, '--allow-missing'], j.top);
  assert.equal(r.status, 1, r.stderr); // missing.pdf could not move
  assert.equal(readFileSync(path.join(dest, 'a', 'page.pdf'), 'utf8'), '%PDF a');
  assert.equal(readFileSync(path.join(dest, 'b', 'page.pdf'), 'utf8'), '%PDF b');
  assert.equal(readFileSync(path.join(dest, 'files', 'pages', 'p 1.pdf'), 'utf8'), '%PDF p1');
  assert.equal(readFileSync(path.join(dest, 'files', 'cover.pdf'), 'utf8'), '%PDF cover');
  const text = readFileSync(path.join(dest, 'job.jdf'), 'utf8');
  const expected = j.text
    .replace(` Directory="${pathToFileURL(j.store).href}/"`, '')
    .replace('URL="pages/p%201.pdf"', 'URL="files/pages/p%201.pdf"')
    .replace('URL="cover.pdf"', 'URL="files/cover.pdf"')
    .replace('URL="missing.pdf"', `URL="${pathToFileURL(j.store).href}/missing.pdf"`);
  assert.equal(text, expected);
  const manifest = JSON.parse(readFileSync(path.join(dest, 'jdf-filespec-relocate.json'), 'utf8'));
  assert.equal(manifest.files.map((f: any) => [path.relative(j.top, f.from), path.relative(dest, f.to)]).sort(), [
    ['hot/a/page.pdf', 'a/page.pdf'],
    ['hot/b/page.pdf', 'b/page.pdf'],
    ['store/4711/cover.pdf', 'files/cover.pdf'],
    ['store/4711/pages/p 1.pdf', 'files/pages/p 1.pdf'],
  ]);
  assert.equal(manifest.notMoved.map((n: any) => n.reason), ['missing', 'not a local file']);
  assert.equal(readFileSync(j.ticket, 'utf8'), j.text, 'copy leaves the source ticket');
  assert.ok(existsSync(path.join(j.hot, 'a', 'page.pdf')));
  assert.equal(readdirSync(path.dirname(dest)), ['4711'], 'no staging folder left');
});

test('move: the sources are gone once the new folder is in place', async () => {
  const j = job();
  const dest = path.join(j.top, 'moved');
  const r = await cli([j.ticket, '--to', dest, '--move', '--allow-missing'], j.top);
  assert.equal(r.status, 1, r.stderr);
  assert.ok(existsSync(path.join(dest, 'job.jdf')));
  assert.not.ok(existsSync(j.ticket));
  assert.not.ok(existsSync(path.join(j.hot, 'a', 'page.pdf')));
  assert.not.ok(existsSync(path.join(j.store, 'cover.pdf')));
});

test('refused before anything is written: DIR not empty, outside --root, a file outside --root through a link', async () => {
  const j = job();
  const full = path.join(j.top, 'full');
  mkdirSync(full);
  writeFileSync(path.join(full, 'x'), 'keep');
  assert.equal((await cli([j.ticket, '--to', full], j.top)).status, 2);
  assert.equal(readdirSync(full), ['x']);
  const outside = realpathSync(tempFolder('jfs-relocate-out-'));
  const r = await cli([j.ticket, '--to', path.join(outside, 'x'), '--root', j.top], j.top);
  assert.equal(r.status, 2);
  assert.match(r.stderr, 'outside --root');
  // A file reached through a link out of the root is not taken along.
  writeFileSync(path.join(outside, 'secret.pdf'), 'secret');
  symlinkSync(path.join(outside, 'secret.pdf'), path.join(j.hot, 'a', 'link.pdf'));
  writeFileSync(j.ticket, j.text.replace('a/page.pdf', 'a/link.pdf'));
  const dest = path.join(j.top, 'confined');
  const c = await cli([j.ticket, '--to', dest, '--root', j.top, '--allow-missing'], j.top);
  assert.equal(c.status, 1, c.stderr);
  assert.not.ok(existsSync(path.join(dest, 'a', 'link.pdf')));
  assert.ok(JSON.parse(readFileSync(path.join(dest, 'jdf-filespec-relocate.json'), 'utf8')).notMoved.some((n: any) => n.reason === 'outside --root'));
});

// Issue 27: the job is never split between two places. The fixture's missing.pdf (in the Directory's folder)
// refuses the move, naming it; nothing is moved and nothing is left beside --to.
test('move with a file missing: refused, nothing moved, nothing beside --to, the missing file named', async () => {
  const j = job();
  const archive = path.join(j.top, 'archive');
  mkdirSync(archive);
  const r = await cli([j.ticket, '--to', path.join(archive, '4711'), '--move'], j.top);
  assert.equal(r.status, 2, r.stdout + r.stderr);
  assert.match(r.stderr, 'nothing was changed');
  assert.match(r.stderr, `${pathToFileURL(j.store).href}/missing.pdf (missing)`);
  assert.match(r.stderr, '--allow-missing');
  assert.equal(readdirSync(archive), [], 'nothing beside --to');
  assert.equal(readFileSync(j.ticket, 'utf8'), j.text);
  for (const f of [path.join(j.hot, 'a', 'page.pdf'), path.join(j.hot, 'b', 'page.pdf'), path.join(j.store, 'cover.pdf'), path.join(j.store, 'pages', 'p 1.pdf')]) assert.ok(existsSync(f), `${f} is not moved`);
});

// A failure half way: a source nobody may read. Root reads every file through CAP_DAC_OVERRIDE and
// CAP_DAC_READ_SEARCH, so as root the CLI runs without those two (setpriv): the mode-0000 file is EACCES to it,
// while the checkout and the temporary folders stay reachable wherever they live (a 0700 folder, a private
// TMPDIR). Not as another user: "nobody" cannot enter a private checkout (issue 19).
test('a copy that fails half way leaves no DIR, no staging folder, and the sources as they were', async () => {
  const j = job();
  const setpriv = ['/usr/bin/setpriv', '/bin/setpriv'].find((p) => existsSync(p));
  const asRoot = process.getuid?.() === 0;
  if (asRoot && setpriv === undefined) {
    console.log('  (skipped: running as root without setpriv)');
    return;
  }
  chmodSync(path.join(j.hot, 'b', 'page.pdf'), 0o000);
  const dest = path.join(j.top, 'half');
  const command = [process.execPath, main, 'relocate', j.ticket, '--to', dest, '--move', '--allow-missing'];
  const dropRead = '-dac_override,-dac_read_search';
  const r = asRoot
    ? spawnSync(setpriv!, [`--bounding-set=${dropRead}`, `--inh-caps=${dropRead}`, ...command], { encoding: 'utf8', cwd: j.top })
    : spawnSync(command[0]!, command.slice(1), { encoding: 'utf8', cwd: j.top });
  assert.equal(r.status, 2, r.stdout + r.stderr);
  assert.match(r.stderr, 'nothing was changed');
  assert.not.ok(existsSync(dest));
  assert.equal(readdirSync(j.top).filter((n) => n.includes('jdf-filespec')), []);
  assert.equal(readFileSync(j.ticket, 'utf8'), j.text);
  assert.ok(existsSync(path.join(j.hot, 'a', 'page.pdf')), 'nothing was moved');
});

// --platform names the consumer validate's rules judge values for, and changes nothing in relocate: the files are
// read on this machine, and a moved file's reference is a relative path of escaped names (RFC 3986 4.2; JDF file-URL
// appendix Table 2 #7, Table 4 #23's %20), which every platform resolves against the ticket's folder alike. A
// hand-built job holds values whose meaning the specs tie to a platform: a drive letter (file:///C:/..., RFC 8089
// E.2), a UNC share (file://server/share/..., appendix Table 2 #2, RFC 8089 E.3.1) and, where this file system
// keeps case, another case of a moved file (one name to Windows and macOS). For every platform name, and none, the
// rewritten ticket is the one written out here by hand, the manifest the same; given, --platform says it has no
// effect. A name that is none of them is a usage error, nothing written.
function platformJob() {
  const top = realpathSync(tempFolder('jfs-relocate-platform-'));
  const hot = path.join(top, 'hot');
  const store = path.join(top, 'store');
  mkdirSync(path.join(hot, 'art'), { recursive: true });
  mkdirSync(store);
  writeFileSync(path.join(hot, 'art', 'logo.pdf'), '%PDF logo');
  writeFileSync(path.join(hot, 'p 1.pdf'), '%PDF p1');
  writeFileSync(path.join(store, 'cover.pdf'), '%PDF cover');
  const keepsCase = !existsSync(path.join(hot, 'ART', 'LOGO.PDF'));
  const hotUrl = pathToFileURL(hot).href;
  const storeUrl = pathToFileURL(store).href;
  const uses = (text: string) => text.split('\n').filter((l) => keepsCase || !l.includes('Art/Logo.PDF')).join('\n');
  const text = uses(['<JDF Version="1.4"><ResourcePool><RunList ID="r1">',
    '<LayoutElement><FileSpec URL="art/logo.pdf"/></LayoutElement>',
    '<LayoutElement><FileSpec URL="Art/Logo.PDF"/></LayoutElement>',
    "<LayoutElement><FileSpec URL='p%201.pdf'/></LayoutElement>",
    `<LayoutElement><FileSpec URL="${storeUrl}/cover.pdf"/></LayoutElement>`,
    '<LayoutElement><FileSpec URL="file:///C:/jobs/x.pdf"/></LayoutElement>',
    '<LayoutElement><FileSpec URL="file://server/share/a.pdf"/></LayoutElement>',
    '</RunList></ResourcePool></JDF>', ''].join('\n'));
  const expected = uses(['<JDF Version="1.4"><ResourcePool><RunList ID="r1">',
    '<LayoutElement><FileSpec URL="art/logo.pdf"/></LayoutElement>',
    `<LayoutElement><FileSpec URL="${hotUrl}/Art/Logo.PDF"/></LayoutElement>`,
    "<LayoutElement><FileSpec URL='p%201.pdf'/></LayoutElement>",
    '<LayoutElement><FileSpec URL="files/cover.pdf"/></LayoutElement>',
    '<LayoutElement><FileSpec URL="file:///C:/jobs/x.pdf"/></LayoutElement>',
    '<LayoutElement><FileSpec URL="file://server/share/a.pdf"/></LayoutElement>',
    '</RunList></ResourcePool></JDF>', ''].join('\n'));
  const notMoved = [
    ...(keepsCase ? [[`${hotUrl}/Art/Logo.PDF`, 'missing']] : []),
    ['file:///C:/jobs/x.pdf', 'missing'],
    ['file://server/share/a.pdf', 'not a local file'],
  ];
  const ticket = path.join(hot, 'job.jdf');
  writeFileSync(ticket, text);
  return { top, hot, ticket, text, expected, notMoved };
}

test('--platform: no effect on what relocate does or writes, for every platform name; an unknown one a usage error', async () => {
  const notice = "jdf-filespec: relocate: --platform has no effect: the files are read on this machine (other machines' names through the view table), and the references are written relative to the ticket, which every platform reads alike\n";
  for (const platform of [undefined, 'windows', 'mac', 'unix', 'posix', 'any']) {
    const j = platformJob();
    const dest = path.join(j.top, 'to');
    const r = await cli([j.ticket, '--to', dest, '--allow-missing', ...(platform ? ['--platform', platform] : [])], j.top);
    assert.equal(r.status, 1, `${platform}: ${r.stderr}`); // references not moved: exit 1
    assert.equal(r.stderr, platform ? notice : '', `${platform}`);
    assert.equal(readFileSync(path.join(dest, 'job.jdf'), 'utf8'), j.expected, `${platform}`);
    const manifest = JSON.parse(readFileSync(path.join(dest, 'jdf-filespec-relocate.json'), 'utf8'));
    assert.equal(manifest.files.map((f: any) => [path.relative(j.top, f.from), path.relative(dest, f.to)]).sort(), [
      ['hot/art/logo.pdf', 'art/logo.pdf'],
      ['hot/p 1.pdf', 'p 1.pdf'],
      ['store/cover.pdf', 'files/cover.pdf'],
    ], `${platform}`);
    assert.equal(manifest.notMoved.map((n: any) => [n.value, n.reason]), j.notMoved, `${platform}`);
    assert.equal(readFileSync(path.join(dest, 'files', 'cover.pdf'), 'utf8'), '%PDF cover');
    assert.equal(readFileSync(j.ticket, 'utf8'), j.text, 'the source ticket as it was');
  }
  const j = platformJob();
  const r = await cli([j.ticket, '--to', path.join(j.top, 'never'), '--platform', 'amiga'], j.top);
  assert.equal(r.status, 2);
  assert.match(r.stderr, 'platform');
  assert.not.ok(existsSync(path.join(j.top, 'never')));
  const help = await runCli(['relocate', '--help'], { encoding: 'utf8' });
  assert.match(help.stdout.replace(/\s+/g, ' '), '--platform Has no effect on relocate');
  assert.not.match(help.stdout, "this machine's");
});

// A relative value that consumers read as different files cannot be rewritten without choosing one reading. A
// Directory without its trailing "/" drops its last segment under RFC 3986 5.2.3 (cover.pdf is top/cover.pdf), while
// CIP4's JDF library joins the strings (store/cover.pdf); "art\\logo.pdf" is one name to RFC 3986 and art/logo.pdf
// to WHATWG URL (RFC 8089 E.4, appendix Table 4 #24). Both files of each pair exist, so relocate used to move one
// and write its reference, or with --allow-missing make the other absolute. Now the job is refused, each named,
// nothing written, the sources as they were.
test('a relative value that consumers read as different files refuses the job, --allow-missing too', async () => {
  const top = realpathSync(tempFolder('jfs-relocate-readings-'));
  for (const d of ['hot/art', 'store']) mkdirSync(path.join(top, d), { recursive: true });
  writeFileSync(path.join(top, 'cover.pdf'), '%PDF top');
  writeFileSync(path.join(top, 'store', 'cover.pdf'), '%PDF store');
  writeFileSync(path.join(top, 'hot', 'art', 'logo.pdf'), '%PDF logo');
  const ticket = path.join(top, 'hot', 'job.jdf');
  const text = [
    '<JDF Version="1.4"><ResourcePool>',
    `<RunList ID="r1" Directory="${pathToFileURL(path.join(top, 'store')).href}"><LayoutElement><FileSpec URL="cover.pdf"/></LayoutElement></RunList>`,
    '<RunList ID="r2"><LayoutElement><FileSpec URL="art\\logo.pdf"/></LayoutElement></RunList>',
    '</ResourcePool></JDF>',
    '',
  ].join('\n');
  writeFileSync(ticket, text);
  for (const extra of [[], ['--allow-missing'], ['--move', '--allow-missing']]) {
    const dest = path.join(top, 'to');
    const r = await cli([ticket, '--to', dest, ...extra], top);
    assert.equal(r.status, 2, `${extra}: ${r.stdout}${r.stderr}`);
    assert.match(r.stderr, 'nothing was changed: 2 references name different files for different consumers');
    assert.match(r.stderr, `${ticket}:2:`);
    assert.match(r.stderr, `${pathToFileURL(top).href}/cover.pdf`);
    assert.match(r.stderr, `string join ${pathToFileURL(path.join(top, 'store')).href}/cover.pdf`);
    assert.match(r.stderr, `${ticket}:3:`);
    assert.match(r.stderr, `WHATWG URL ${pathToFileURL(path.join(top, 'hot', 'art', 'logo.pdf')).href}`);
    assert.not.ok(existsSync(dest));
    assert.equal(readdirSync(top).sort(), ['cover.pdf', 'hot', 'store']);
    assert.equal(readFileSync(ticket, 'utf8'), text);
    assert.equal(readFileSync(path.join(top, 'cover.pdf'), 'utf8'), '%PDF top');
    assert.equal(readFileSync(path.join(top, 'store', 'cover.pdf'), 'utf8'), '%PDF store');
    assert.equal(readFileSync(path.join(top, 'hot', 'art', 'logo.pdf'), 'utf8'), '%PDF logo');
  }
});

test.after(removeTempFolders);
test.run();
