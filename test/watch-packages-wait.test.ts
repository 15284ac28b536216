// watch --check-exists --wait-for-files with job packages (issue 27): the members of a zip or MIME package are
// in the package, settled when it is; they are never looked for on disk beside it, nor waited for.
import { spawnSync } from 'node:child_process';
import { copyFileSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { projectRoot } from './helpers.js';
import { makeDirs, stopAll, until, watchHere } from './watch-helpers.js';

const sample = (name: string) => fileURLToPath(new URL(`samples/${name}`, projectRoot));

/**
 * A MIME package (RFC 2557) whose parts are named by Content-Location: the ticket's relative URL "book.pdf"
 * names the part whose Content-Location is "book.pdf" (RFC 2557 section 8), not a file beside the package.
 */
const LOCATED_MJM = [
  'MIME-Version: 1.0',
  'Content-Type: multipart/related; boundary="b1"; type="application/vnd.cip4-jdf+xml"; start="<t@x.example>"',
  '',
  '--b1',
  'Content-Type: application/vnd.cip4-jdf+xml; charset=UTF-8',
  'Content-ID: <t@x.example>',
  'Content-Location: ticket.jdf',
  '',
  '<?xml version="1.0" encoding="UTF-8"?>',
  '<JDF xmlns="http://www.CIP4.org/JDFSchema_1_1" ID="n1" Type="Product" Version="1.4">',
  ' <ResourcePool><RunList ID="RL1" Class="Parameter" Status="Available"><LayoutElement><FileSpec URL="book.pdf" MimeType="application/pdf"/></LayoutElement></RunList></ResourcePool>',
  '</JDF>',
  '--b1',
  'Content-Type: application/pdf',
  'Content-Location: book.pdf',
  '',
  '%PDF-1.4 a stand-in',
  '--b1--',
  '',
].join('\r\n');

const findings = (folder: string, name: string): string[] =>
  JSON.parse(readFileSync(path.join(folder, `${name}.report.json`), 'utf8')).files.flatMap((f: { findings: Array<{ code: string }>; references: Array<{ findings: Array<{ code: string }> }> }) => [...f.findings, ...f.references.flatMap((r) => r.findings)].map((x) => x.code));

test('--check-exists --wait-for-files: a clean zip and clean MIME packages go to OK, their members not looked for on disk', async () => {
  const d = makeDirs();
  // No --root: today the zip's member IN/job.zip/content/book.pdf is "present" to the settle step, never found, and still changing at the end.
  const w = await watchHere(d, { waitForFilesMs: 2000, local: { checkExists: true, maps: [] } });
  copyFileSync(sample('xjdf-package.zip'), path.join(d.in, 'job.zip'));
  copyFileSync(sample('submit-queue-entry.mjm'), path.join(d.in, 'cid.mjm'));
  writeFileSync(path.join(d.in, 'located.mjm'), LOCATED_MJM);
  await until(() => w.count('ok') + w.count('error') === 3, 30_000, 'the three packages to be routed');
  await w.hot.stop();
  const routedTo = Object.fromEntries(w.events.filter((e) => e.event === 'ok' || e.event === 'error').map((e) => [(e as { ticket: string }).ticket, e.event]));
  assert.equal(routedTo, { 'job.zip': 'ok', 'cid.mjm': 'ok', 'located.mjm': 'ok' });
  assert.is(w.count('waiting'), 0, 'a package waited for its own members');
  for (const n of ['job.zip', 'cid.mjm', 'located.mjm']) {
    const codes = findings(d.ok, n);
    for (const c of ['file-missing', 'file-still-changing']) assert.not.ok(codes.includes(c), `${n}: ${c}`);
  }
});

test('--check-exists --wait-for-files: a zip whose ticket names an entry it lacks goes to ERROR at once (no file arriving beside it can add the entry)', async () => {
  const d = makeDirs();
  const w = await watchHere(d, { waitForFilesMs: 600_000, local: { checkExists: true, maps: [] } });
  // Built beside IN, then renamed in whole.
  zipWith(path.join(d.stage, 'lost.zip'), 'content/book.pdf', 'content/lost.pdf');
  renameSync(path.join(d.stage, 'lost.zip'), path.join(d.in, 'lost.zip'));
  await until(() => w.count('ok') + w.count('error') === 1, 60_000, 'the package to be routed');
  await w.hot.stop();
  assert.is(w.count('error'), 1);
  assert.is(w.count('waiting'), 0);
  assert.ok(findings(d.error, 'lost.zip').includes('file-missing'));
});

/** The sample zip rebuilt by Python's zipfile (an independent writer) with its ticket's URL changed from `from` to `to`. */
function zipWith(out: string, from: string, to: string): void {
  const script = [
    'import sys, zipfile',
    'src, out, a, b = sys.argv[1:5]',
    'with zipfile.ZipFile(src) as z, zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as w:',
    '    for i in z.infolist():',
    '        data = z.read(i)',
    '        w.writestr(i.filename, data.replace(a.encode(), b.encode()) if i.filename.endswith(".xjdf") else data)',
  ].join('\n');
  const r = spawnSync('python3', ['-c', script, sample('xjdf-package.zip'), out, from, to], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`python3: ${r.stderr}`);
}

test.after.each(stopAll);

test.run();
