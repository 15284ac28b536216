// unpack into a folder that already holds some of the names it would write: refused before anything is written,
// with the names and what to do; the user's files untouched; and when unpacking fails halfway, what it wrote is
// removed again. The packages are made here by hand (test/zip-by-hand.ts, and MIME text).
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { unpackPackage } from '../src/node/package-unpack.js';
import { handZip } from './zip-by-hand.js';
import { runCli } from './in-process.js';

const unpack = (pkg: string, out: string) => runCli(['unpack', pkg, '-o', out], { encoding: 'utf8' });
const work = mkdtempSync(path.join(tmpdir(), 'jdf-unpack-into-'));
let n = 0;
const fresh = () => { const d = path.join(work, String(n++)); mkdirSync(d); return d; };
/** Every file under `dir` with its bytes, and every folder: what a folder holds, to compare before and after. */
const contents = (dir: string) => readdirSync(dir, { recursive: true }).map(String).sort().map((f) => {
  const p = path.join(dir, f);
  return statSync(p).isDirectory() ? `${f}/` : `${f}=${readFileSync(p, 'latin1')}`;
});

const XJDF = '<?xml version="1.0"?>\n<XJDF JobID="j1" Types="Product"><ResourceSet Name="RunList"><Resource><RunList><FileSpec URL="content/a.pdf"/></RunList></Resource></ResourceSet></XJDF>\n';
const zipJob = () => handZip([{ name: 'job.xjdf', data: XJDF }, { name: 'content/a.pdf', data: '%PDF-1.7 package\n' }]);
const MIME = [
  'MIME-Version: 1.0', 'Content-Type: multipart/related; boundary=B; start="<t@x>"', '',
  '--B', 'Content-Type: application/vnd.cip4-jdf+xml', 'Content-ID: <t@x>', 'Content-Disposition: attachment; filename="t.jdf"', '',
  '<JDF ID="n1" Type="Product" Version="1.4"><ResourcePool><RunList ID="R1"><LayoutElement><FileSpec URL="cid:p@x"/></LayoutElement></RunList></ResourcePool></JDF>',
  '--B', 'Content-Type: application/pdf', 'Content-ID: <p@x>', 'Content-Disposition: attachment; filename="book.pdf"', '', '%PDF-1.7 package', '--B--', '',
].join('\r\n');

test('MIME: a second unpack into the same folder is refused, naming what is there; nothing changes', async () => {
  const dir = fresh();
  writeFileSync(path.join(dir, 'job.mjm'), MIME, 'latin1');
  const out = path.join(dir, 'out');
  assert.is((await unpack(path.join(dir, 'job.mjm'), out)).status, 0);
  writeFileSync(path.join(out, 'book.pdf'), '%PDF-1.7 the user edited this\n');
  const before = contents(out);
  const again = await unpack(path.join(dir, 'job.mjm'), out);
  assert.is(again.status, 2, again.stdout + again.stderr);
  assert.is(again.stdout, '');
  assert.match(again.stderr, /already holds 't\.jdf', 'book\.pdf', which unpacking .*job\.mjm would write; nothing was written\. Unpack into a new or empty folder, or move those away first\./);
  assert.equal(contents(out), before);
});

test('zip: one name taken among unrelated files is refused before anything is written; unrelated files alone are no obstacle', async () => {
  const dir = fresh();
  writeFileSync(path.join(dir, 'job.zip'), zipJob());
  const out = path.join(dir, 'out');
  mkdirSync(path.join(out, 'content'), { recursive: true });
  writeFileSync(path.join(out, 'notes.txt'), 'mine');
  writeFileSync(path.join(out, 'content', 'a.pdf'), '%PDF-1.7 mine\n');
  const before = contents(out);
  const r = await unpack(path.join(dir, 'job.zip'), out);
  assert.is(r.status, 2, r.stdout + r.stderr);
  assert.match(r.stderr, /already holds 'content\/a\.pdf', which unpacking .* would write; nothing was written\. .*move that away first\./);
  assert.equal(contents(out), before, 'job.xjdf, listed first, was not written either');
  rmSync(path.join(out, 'content', 'a.pdf'));
  const ok = await unpack(path.join(dir, 'job.zip'), out);
  assert.is(ok.status, 0, ok.stdout + ok.stderr);
  assert.equal(contents(out), ['content/', 'content/a.pdf=%PDF-1.7 package\n', `job.xjdf=${XJDF}`, 'notes.txt=mine']);
});

test('zip: a file where a folder must go is named too', async () => {
  const dir = fresh();
  writeFileSync(path.join(dir, 'job.zip'), zipJob());
  const out = path.join(dir, 'out');
  mkdirSync(out);
  writeFileSync(path.join(out, 'content'), 'a file, not a folder');
  const r = await unpack(path.join(dir, 'job.zip'), out);
  assert.is(r.status, 2);
  assert.match(r.stderr, /already holds 'content',/);
  assert.equal(contents(out), ['content=a file, not a folder']);
});

test('a failure halfway removes what this unpack wrote; the user\'s file stays', async () => {
  const dir = fresh();
  // The ticket's rewrite goes through NAME.PID.tmp, opened exclusively: a file already there makes it fail, after
  // both entries were written (the ticket's reference is rewritten only when an entry was renamed: make it so).
  const renamed = handZip([{ name: 'job.xjdf', data: XJDF.replace('content/a.pdf', 'content/a%3F.pdf') }, { name: 'content/a?.pdf', data: '%PDF-1.7\n' }]);
  writeFileSync(path.join(dir, 'renamed.zip'), renamed);
  const out = path.join(dir, 'out');
  mkdirSync(out);
  writeFileSync(path.join(out, `job.xjdf.${process.pid}.tmp`), 'mine');
  let failed: unknown;
  await unpackPackage(path.join(dir, 'renamed.zip'), out).catch((error: unknown) => { failed = error; });
  assert.ok(failed instanceof Error);
  assert.equal(contents(out), [`job.xjdf.${process.pid}.tmp=mine`], 'job.xjdf, content/ and content/a_.pdf removed again');
});

test.after(() => rmSync(work, { recursive: true, force: true }));
test.run();
