// Which part a reference in a job package names, said in the report (JSON `packagePart`, SARIF properties, text with
// --references). The packages are Python's (test/package_fixtures.py: email for MIME, zipfile for zip), so the
// Content-IDs and entry names come from an independent writer; a cid: URL is percent-decoded before it is matched
// (RFC 2392 2: "cid:preview%20one@py.example" names the part whose Content-ID is <preview one@py.example>).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { validatePackage } from '../src/package/validate.js';
import { formatText } from '../src/index.js';
import { projectRoot } from './helpers.js';
import { runCli } from './in-process.js';

const python = spawnSync('python3', ['--version']).status === 0;
const dir = mkdtempSync(path.join(tmpdir(), 'jdf-parts-'));
const built = python && spawnSync('python3', [fileURLToPath(new URL('test/package_fixtures.py', projectRoot)), dir]).status === 0;
if (!python) console.log('  note: python3 is absent; the packages built by Python are not tested');
test.after(() => rmSync(dir, { recursive: true, force: true }));

const read = (name: string) => validatePackage(new Uint8Array(readFileSync(path.join(dir, name))), { documentUri: `file:///hot/${name}` });

test('MIME (Python email): each cid: reference names its part by Content-ID, percent-decoded', async () => {
  if (!built) return;
  const report = await read('python-crlf.mjm');
  const refs = report.files.flatMap((f) => f.references).filter((r) => r.scheme === 'cid');
  assert.equal(refs.map((r) => [r.value, r.packagePart]), [
    ['cid:book.pdf@py.example', { name: '<book.pdf@py.example>', contentId: 'book.pdf@py.example' }],
    ['cid:preview%20one@py.example', { name: '<preview one@py.example>', contentId: 'preview one@py.example' }],
  ]);
  const text = (formatText({ files: report.files.map((f) => ({ ...f, path: 'python-crlf.mjm' })), summary: { files: 1, references: 2, error: 0, warning: 0, info: 0 } } as never, { references: true }));
  assert.match(text, /part <preview one@py\.example>/);
});

test('zip (Python zipfile): a relative reference names its entry', async () => {
  if (!built) return;
  const report = await read('python.zip');
  const named = report.files.flatMap((f) => f.references).map((r) => [r.value, r.packagePart?.name]);
  assert.equal(named, [['content/book.pdf', 'content/book.pdf'], ['%EF%BB%BFcover.pdf', '\ufeffcover.pdf'], ['previews/p%201.png', 'previews/p 1.png']]);
});

test('a cid: URL that names no part is an error, and names no part', async () => {
  if (!built) return;
  const bytes = readFileSync(path.join(dir, 'python-lf.mjm'), 'latin1').replace('cid:book.pdf@py.example', 'cid:bock.pdf@py.example');
  const report = await validatePackage(new Uint8Array(Buffer.from(bytes, 'latin1')), { documentUri: 'file:///hot/x.mjm' });
  const ref = report.files.flatMap((f) => f.references).find((r) => r.value === 'cid:bock.pdf@py.example')!;
  assert.is(ref.packagePart, undefined);
  assert.equal(ref.findings.map((f) => [f.code, f.severity]), [['cid-no-part', 'error']]);
});

test('SARIF and --references text carry the part (a cid: URL with a space around it still names it)', async () => {
  if (!built) return;
  const file = path.join(dir, 'spaced.mjm');
  writeFileSync(file, readFileSync(path.join(dir, 'python-lf.mjm'), 'latin1').replace('cid:book.pdf@py.example', ' cid:book.pdf@py.example'), 'latin1');
  const sarif = JSON.parse((await runCli(['validate', file, '-f', 'sarif', '--exit-zero'])).stdout);
  const results = sarif.runs[0].results.filter((r: { properties?: { packagePart?: unknown } }) => r.properties?.packagePart !== undefined);
  assert.ok(results.length > 0, 'a result for the spaced value');
  for (const r of results) assert.equal(r.properties.packagePart, { name: '<book.pdf@py.example>', contentId: 'book.pdf@py.example' });
  const text = (await runCli(['validate', file, '--references', '--exit-zero'])).stdout;
  assert.match(text, /" cid:book\.pdf@py\.example"\n.*\n\s+part <book\.pdf@py\.example>\n/);
});

test.run();
