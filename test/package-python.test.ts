// Packages built by an independent tool: test/package_fixtures.py writes MIME packages with Python's email
// module (base64 and quoted-printable parts; CRLF and LF) and a zip with zipfile, and the SHA-256 of every
// part as Python decodes it. We must decode the same bytes and find nothing wrong. Skipped, with a note, when
// python3 is absent.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { MultipartReader } from '../src/package/multipart.js';
import { validatePackage } from '../src/package/validate.js';
import { readPackage } from '../src/package/read.js';
import { bytesAccess, readZipDirectory, readZipEntry } from '../src/package/zip.js';
import { projectRoot } from './helpers.js';

const python = spawnSync('python3', ['--version']).status === 0;
const dir = mkdtempSync(path.join(tmpdir(), 'jdf-py-'));
const built = python && spawnSync('python3', [fileURLToPath(new URL('test/package_fixtures.py', projectRoot)), dir]).status === 0;
if (!python) console.log('  note: python3 is absent; the packages built by Python are not tested');
const manifest: Record<string, Array<{ id: string; size: number; sha256: string }>> = built ? JSON.parse(readFileSync(path.join(dir, 'manifest.json'), 'utf8')) : {};
const sha = (chunks: Uint8Array[]) => {
  const h = createHash('sha256');
  for (const c of chunks) h.update(c);
  return h.digest('hex');
};

for (const name of ['python-crlf.mjm', 'python-lf.mjm']) {
  test(`${name} (Python email): every part decodes to Python's bytes, and the package is clean`, async () => {
    if (!built) return;
    const bytes = readFileSync(path.join(dir, name));
    const parts: Array<{ id: string; chunks: Uint8Array[] }> = [];
    const reader = new MultipartReader({
      partStart(h) { parts.push({ id: h.contentId ?? '', chunks: [] }); },
      partData(_h, d) { parts[parts.length - 1]!.chunks.push(d.slice()); },
      partEnd() {},
      problem(code) { assert.unreachable(code); },
    });
    for (let k = 0; k < bytes.length; k += 4093) reader.push(bytes.subarray(k, k + 4093));
    reader.end();
    assert.equal(parts.map((p) => ({ id: p.id, size: p.chunks.reduce((n, c) => n + c.length, 0), sha256: sha(p.chunks) })), manifest[name]);
    const r = await validatePackage(bytes, { documentUri: `file:///srv/hot/${name}` });
    assert.equal(r.files.flatMap((f) => [...f.findings, ...f.references.flatMap((x) => x.findings)]).map((f) => f.code), []);
    assert.is(r.parts.find((p) => p.root)!.name, '<jdf@py.example>');
  });
}

test('python.zip (Python zipfile): every entry inflates to Python\'s bytes, and the package is clean', async () => {
  if (!built) return;
  const bytes = readFileSync(path.join(dir, 'python.zip'));
  const src = bytesAccess(bytes);
  const directory = await readZipDirectory(src);
  const got = [];
  for (const e of directory.entries) {
    const chunks: Uint8Array[] = [];
    await readZipEntry(src, e, Infinity, (d) => { chunks.push(d.slice()); });
    got.push({ id: e.name, size: chunks.reduce((n, c) => n + c.length, 0), sha256: sha(chunks) });
  }
  assert.equal(got, manifest['python.zip']);
  const r = await validatePackage(bytes, { documentUri: 'file:///srv/hot/python.zip' });
  assert.equal(r.files.flatMap((f) => [...f.findings, ...f.references.flatMap((x) => x.findings)]).map((f) => f.code), []);
});

test("readPackage hands over every part of Python's packages as Python decodes it", async () => {
  if (!built) return;
  for (const name of ['python-crlf.mjm', 'python-lf.mjm', 'python.zip']) {
    const got: Array<{ id: string; chunks: Uint8Array[] }> = [];
    const r = await readPackage(readFileSync(path.join(dir, name)), {
      part(p) {
        const entry = { id: p.contentId ?? p.name, chunks: [] as Uint8Array[] };
        got.push(entry);
        return (d) => { entry.chunks.push(new Uint8Array(d)); };
      },
    });
    assert.is(r.kind, name.endsWith('.zip') ? 'zip' : 'mime');
    assert.equal(got.map((p) => ({ id: p.id, size: p.chunks.reduce((n, c) => n + c.length, 0), sha256: sha(p.chunks) })), manifest[name]);
  }
});

test.after(() => rmSync(dir, { recursive: true, force: true }));
test.run();
