// rebase on real files: the expected bytes are the original with the prefixes replaced by hand (string
// replacement, not our code), and rebase then rebase back gives the original bytes.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { createTwoFilesPatch, FILE_HEADERS_ONLY } from 'diff';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { removeTempFolders, tempFolder } from './helpers.js';
import { runCli } from './in-process.js';

const top = realpathSync(tempFolder('jfs-rebase-'));
writeFileSync(path.join(top, 'jdf-filespec.config.json'), JSON.stringify({
  machine: 'rip',
  views: { mis: { caseFolding: true }, rip: {}, mac: { caseFolding: true } },
  storage: { jobs: { mis: ['file://fileserver/Jobs/', 'file:///*:/Jobs/'], rip: '/mnt/jobs/', mac: 'file:///Volumes/Jobs/' } },
}));

const cli = (args: string[]) => runCli(args, { cwd: top, encoding: 'utf8' });
let n = 0;
const put = (bytes: Buffer | string) => {
  const file = path.join(top, `t${n++}.jdf`);
  writeFileSync(file, bytes);
  return file;
};

// CRLF, a comment, single and double quotes, escaped octets, a character reference, a value no view maps.
const original = [
  '<?xml version="1.0" encoding="UTF-8"?>',
  '<!-- from the MIS: file://fileserver/Jobs/ in a comment stays -->',
  "<JDF Version='1.4' ID='j'><ResourcePool>",
  '  <RunList ID="r" Directory="file://fileserver/Jobs/4711/">',
  '    <LayoutElement><FileSpec URL="pages/a%20b.pdf"/></LayoutElement>',
  "    <LayoutElement><FileSpec   MimeType='application/pdf' URL='file://fileserver/Jobs/4711/M%C3%BCller%20Cover.pdf'/></LayoutElement>",
  '    <LayoutElement><FileSpec URL="file://fileserver/Jobs/4711/caf&#xE9; &amp; co.pdf"/></LayoutElement>',
  '    <LayoutElement><FileSpec URL="file:///srv/other/x.pdf"/></LayoutElement>',
  '  </RunList>',
  '</ResourcePool></JDF>',
  '',
].join('\r\n');
// By hand: the two prefixes, in the values only (the comment keeps its text).
const forRip = original.split('="file://fileserver/Jobs/').join('="file:///mnt/jobs/').split("='file://fileserver/Jobs/").join("='file:///mnt/jobs/");

test('rebase --from mis --to rip: only the prefixes change, every other byte stays; rebase back gives the original bytes', async () => {
  const file = put(original);
  const r = await cli(['rebase', file, '--from', 'mis', '--to', 'rip']);
  assert.equal(r.status, 0, r.stderr + r.stdout);
  assert.match(r.stdout, '3 values rebased');
  assert.equal(readFileSync(file, 'utf8'), forRip);
  const back = await cli(['rebase', file, '--from', 'rip', '--to', 'mis']);
  assert.equal(back.status, 0, back.stderr);
  assert.equal(readFileSync(file), Buffer.from(original));
});

test('round trip in UTF-16LE with a BOM and in ISO-8859-1', async () => {
  const utf16 = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(original.replace('UTF-8', 'UTF-16'), 'utf16le')]);
  const file = put(utf16);
  assert.equal((await cli(['rebase', file, '--to', 'mac'])).status, 0);
  const expected = original.replace('UTF-8', 'UTF-16').split('="file://fileserver/Jobs/').join('="file:///Volumes/Jobs/').split("='file://fileserver/Jobs/").join("='file:///Volumes/Jobs/");
  assert.equal(readFileSync(file), Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(expected, 'utf16le')]));
  assert.equal((await cli(['rebase', file, '--from', 'mac', '--to', 'mis'])).status, 0);
  assert.equal(readFileSync(file), utf16);
  const latin1 = Buffer.from(original.replace('UTF-8', 'ISO-8859-1').replace('caf&#xE9;', 'caf\u00e9'), 'latin1');
  const f2 = put(latin1);
  assert.equal((await cli(['rebase', f2, '--to', 'rip'])).status, 0);
  assert.equal(readFileSync(f2).indexOf(Buffer.from('file:///mnt/jobs/4711/caf\u00e9', 'latin1')) > 0, true);
  assert.equal((await cli(['rebase', f2, '--to', 'mis'])).status, 0);
  assert.equal(readFileSync(f2), latin1);
});

test('the escaping of each value is kept: %C3%BC stays escaped, %20 is never a space, raw stays raw', async () => {
  const file = put('<JDF><ResourcePool><RunList><LayoutElement><FileSpec URL="file:///Z:/Jobs/Gr\u00fc%C3%BC%20x/a b.pdf"/></LayoutElement></RunList></ResourcePool></JDF>');
  assert.equal((await cli(['rebase', file, '--to', 'rip'])).status, 0);
  assert.match(readFileSync(file, 'utf8'), 'URL="file:///mnt/jobs/Gr\u00fc%C3%BC%20x/a b.pdf"');
});

test('case folding: a MIS value in other case is found; the drive wildcard takes any drive', async () => {
  const file = put('<JDF><ResourcePool><RunList><LayoutElement><FileSpec URL="FILE://FILESERVER/jobs/4711/A.pdf"/></LayoutElement><LayoutElement><FileSpec URL="file:///k:/JOBS/4711/b.pdf"/></LayoutElement></RunList></ResourcePool></JDF>');
  assert.equal((await cli(['rebase', file, '--to', 'rip'])).status, 0);
  const text = readFileSync(file, 'utf8');
  assert.match(text, 'URL="file:///mnt/jobs/4711/A.pdf"');
  assert.match(text, 'URL="file:///mnt/jobs/4711/b.pdf"');
});

test('--dry-run prints a diff and changes nothing; --backup keeps the original bytes', async () => {
  const file = put(original);
  const r = await cli(['rebase', file, '--to', 'rip', '--dry-run']);
  assert.equal(r.status, 0);
  assert.equal(readFileSync(file, 'utf8'), original);
  assert.match(r.stdout, '-  <RunList ID="r" Directory="file://fileserver/Jobs/4711/">');
  assert.match(r.stdout, '+  <RunList ID="r" Directory="file:///mnt/jobs/4711/">');
  assert.equal((await cli(['rebase', file, '--to', 'rip', '--backup'])).status, 0);
  assert.equal(readFileSync(`${file}.orig`, 'utf8'), original);
  assert.equal(readFileSync(file, 'utf8'), forRip);
});

test('--dry-run: a patch that git apply and patch accept, CRLF kept, giving the bytes rebase writes', async () => {
  const folder = realpathSync(mkdtempSync(path.join(top, 'patch-')));
  const file = path.join(folder, 't.jdf');
  writeFileSync(file, original);
  const patchText = (await runCli(['rebase', 't.jdf', '--to', 'rip', '--dry-run'], { cwd: folder, encoding: 'utf8' })).stdout;
  assert.match(patchText, '--- a/t.jdf\n+++ b/t.jdf\n');
  assert.match(patchText, '+  <RunList ID="r" Directory="file:///mnt/jobs/4711/">\r\n');
  writeFileSync(path.join(folder, 'p.patch'), patchText);
  const git = spawnSync('git', ['apply', '--check', '--unsafe-paths', 'p.patch'], { cwd: folder, encoding: 'utf8' });
  if (git.error) console.log('  (git not found: git apply not tried)');
  else assert.equal(git.status, 0, git.stderr);
  const patched = spawnSync('patch', ['-p1', '-i', 'p.patch'], { cwd: folder, encoding: 'utf8' });
  if (patched.error) {
    console.log('  (patch not found: not tried)');
    return;
  }
  assert.equal(patched.status, 0, patched.stdout + patched.stderr);
  assert.equal(readFileSync(file, 'utf8'), forRip);
});

test('--dry-run: standard output is the patch alone, the "not rebased" notes go to standard error', async () => {
  // Its own config: the view proof has a prefix for the storage proofs only, so the jobs value is not rebased.
  const folder = realpathSync(mkdtempSync(path.join(top, 'notes-')));
  writeFileSync(path.join(folder, 'jdf-filespec.config.json'), JSON.stringify({
    machine: 'rip',
    views: { mis: {}, rip: {}, proof: {} },
    storage: { jobs: { mis: 'file://fileserver/Jobs/', rip: '/mnt/jobs/' }, proofs: { mis: 'file://fileserver/Proofs/', rip: '/mnt/proofs/', proof: '/proof/' } },
  }));
  const ticket = ['<JDF Version="1.4" ID="j"><ResourcePool><RunList ID="r">', '<LayoutElement><FileSpec URL="file://fileserver/Proofs/a.pdf"/></LayoutElement>', '<LayoutElement><FileSpec URL="file://fileserver/Jobs/b.pdf"/></LayoutElement>', '</RunList></ResourcePool></JDF>', ''].join('\n');
  writeFileSync(path.join(folder, 't.jdf'), ticket);
  const r = await runCli(['rebase', 't.jdf', '--from', 'mis', '--to', 'proof', '--dry-run'], { cwd: folder, encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  const expected = ticket.replace('"file://fileserver/Proofs/', '"file:///proof/');
  assert.equal(r.stdout, createTwoFilesPatch('a/t.jdf', 'b/t.jdf', ticket, expected, undefined, undefined, { context: 3, headerOptions: FILE_HEADERS_ONLY }));
  assert.match(r.stderr, /^t\.jdf:3:\d+: not rebased: .*"file:\/\/fileserver\/Jobs\/b\.pdf": the view 'proof' has no prefix in the storage 'jobs'\n$/);
});

test('--to-prefix, --absolute and --fold-directory', async () => {
  const file = put(original);
  assert.equal((await cli(['rebase', file, '--from', 'mis', '--to-prefix', '/data/4711-copy/'])).status, 0);
  assert.match(readFileSync(file, 'utf8'), 'Directory="file:///data/4711-copy/4711/"');
  const abs = put(original);
  assert.equal((await cli(['rebase', abs, '--to', 'rip', '--absolute'])).status, 0);
  assert.match(readFileSync(abs, 'utf8'), 'URL="file:///mnt/jobs/4711/pages/a%20b.pdf"');
  const fold = put(original); // before the JDF becomes XJDF, which has no Directory
  const r = await cli(['rebase', fold, '--to', 'rip', '--fold-directory']);
  assert.equal(r.status, 0, r.stderr + r.stdout);
  const text = readFileSync(fold, 'utf8');
  assert.match(text, '  <RunList ID="r">\r\n');
  assert.match(text, 'URL="file:///mnt/jobs/4711/pages/a%20b.pdf"');
  assert.match(text, 'URL="file:///srv/other/x.pdf"');
});

test('no view for --to, no target, no table, a symbolic link: refused, nothing written', async () => {
  const file = put(original);
  assert.equal((await cli(['rebase', file, '--to', 'nope'])).status, 2);
  assert.equal((await cli(['rebase', file])).status, 2);
  const bare = realpathSync(tempFolder('jfs-rebase-bare-'));
  const lonely = path.join(bare, 't.jdf');
  writeFileSync(lonely, original);
  const none = await runCli(['rebase', lonely, '--to', 'rip'], { cwd: bare, encoding: 'utf8' });
  assert.equal(none.status, 2);
  assert.match(none.stderr, 'needs a view table');
  const link = path.join(top, 'link.jdf');
  symlinkSync(file, link);
  const r = await cli(['rebase', link, '--to', 'rip']);
  assert.equal(r.status, 2);
  assert.match(r.stderr, 'symbolic link');
  assert.equal(readFileSync(file, 'utf8'), original);
  mkdirSync(path.join(top, 'empty'), { recursive: true });
  assert.not.ok(existsSync(`${link}.orig`));
});

test('rebase FOLDER: the tickets in it are rebased; a MIME package in it is left alone, not called broken XML', async () => {
  const folder = path.join(top, 'folder');
  mkdirSync(folder);
  writeFileSync(path.join(folder, 'a.jdf'), original);
  const mime = 'MIME-Version: 1.0\r\nContent-Type: multipart/related; boundary=b\r\n\r\n--b\r\nContent-Type: application/vnd.cip4-jdf+xml\r\n\r\n<JDF/>\r\n--b--\r\n';
  writeFileSync(path.join(folder, 'job.mjm'), mime);
  const r = await cli(['rebase', 'folder', '--from', 'mis', '--to', 'rip']);
  assert.is(r.status, 0, r.stderr);
  assert.not.match(r.stdout + r.stderr, /job\.mjm/);
  assert.is(readFileSync(path.join(folder, 'a.jdf'), 'utf8'), forRip);
  assert.is(readFileSync(path.join(folder, 'job.mjm'), 'utf8'), mime);
});

test.after(removeTempFolders);
test.run();
