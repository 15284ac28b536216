// Each kind of input validatePackage and readPackage take, told by its own shape: bytes, a RandomAccess, an
// async iterable (a Node Readable has read() too, and is a stream), a zip arriving as a stream; and inputs that
// fail while read. Never a throw, never a wrong empty answer (issue 14).
import { createReadStream, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { readPackage } from '../src/package/read.js';
import { validatePackage, type PackageInput, type PackageReport } from '../src/package/validate.js';
import { bytesAccess } from '../src/package/zip.js';
import { handZip } from './zip-by-hand.js';
import { removeTempFolders, tempFolder } from './helpers.js';

const codes = (r: PackageReport) => r.files.flatMap((f) => [...f.findings, ...f.references.flatMap((x) => x.findings)]).map((f) => f.code);
const XJDF = '<?xml version="1.0"?>\n<XJDF JobID="j1" Types="Product"><ResourceSet Name="RunList"><Resource><RunList><FileSpec URL="content/book.pdf"/></RunList></Resource></ResourceSet></XJDF>\n';
const ZIP = handZip([{ name: 'job.xjdf', data: XJDF, deflate: true }, { name: 'content/book.pdf', data: '%PDF-1.7\n%%EOF' }]);
const MIME = Buffer.from([
  'MIME-Version: 1.0', 'Content-Type: multipart/related; boundary=B; start="<jdf@x>"', '',
  '--B', 'Content-Type: application/vnd.cip4-jdf+xml', 'Content-ID: <jdf@x>', '',
  '<JDF ID="n1" Type="Product" Version="1.4"><ResourcePool><RunList ID="RL1"><LayoutElement><FileSpec URL="cid:pdf@x"/></LayoutElement></RunList></ResourcePool></JDF>',
  '--B', 'Content-Type: application/pdf', 'Content-ID: <pdf@x>', '', '%PDF-1.7', '%%EOF', '--B--', '',
].join('\r\n'), 'latin1');
const dir = tempFolder('jdf-pkg-input-');
writeFileSync(path.join(dir, 'job.zip'), ZIP);
writeFileSync(path.join(dir, 'job.mjm'), MIME);

async function* generator(bytes: Uint8Array, step: number): AsyncGenerator<Uint8Array> {
  for (let at = 0; at < bytes.length; at += step) yield bytes.subarray(at, at + step);
}

const kinds: Array<[string, () => PackageInput, 'zip' | 'mime']> = [
  ['zip as bytes', () => ZIP, 'zip'],
  ['zip as RandomAccess', () => bytesAccess(ZIP), 'zip'],
  ['zip as fs.createReadStream', () => createReadStream(path.join(dir, 'job.zip')), 'zip'],
  ['zip as an async generator of 1-byte chunks', () => generator(ZIP, 1), 'zip'],
  ['zip as Readable.from', () => Readable.from([ZIP.subarray(0, 2), ZIP.subarray(2)]), 'zip'],
  ['MIME as bytes', () => MIME, 'mime'],
  ['MIME as RandomAccess', () => bytesAccess(MIME), 'mime'],
  ['MIME as fs.createReadStream (small chunks)', () => createReadStream(path.join(dir, 'job.mjm'), { highWaterMark: 7 }), 'mime'],
  ['MIME as an async generator', () => generator(MIME, 13), 'mime'],
];

for (const [name, make, kind] of kinds) {
  test(`validatePackage: ${name} is read as a ${kind} package, clean`, async () => {
    const r = await validatePackage(make(), { documentUri: 'file:///srv/hot/job' });
    assert.is(r.kind, kind);
    assert.is(r.parts.length, 2);
    assert.equal(codes(r), []);
  });
  test(`readPackage: ${name} hands over both parts`, async () => {
    const sizes: number[] = [];
    const r = await readPackage(make(), { part() { const k = sizes.push(0) - 1; return (d) => { sizes[k]! += d.length; }; } });
    assert.is(r.kind, kind);
    assert.is(r.parts.length, 2);
    assert.ok(sizes.every((n) => n > 0), String(sizes));
  });
}

test('a stream that fails, a stream of text, a read that throws: package-unreadable, not a throw', async () => {
  async function* failing() {
    yield MIME.subarray(0, 40);
    throw new Error('EIO: i/o error');
  }
  const failed = await validatePackage(failing());
  assert.equal(codes(failed), ['package-unreadable']);
  assert.match(failed.files[0]!.findings[0]!.message, /EIO: i\/o error/);
  const missing = await validatePackage(createReadStream(path.join(dir, 'no-such.zip')));
  assert.equal(codes(missing), ['package-unreadable']);
  const text = await validatePackage(createReadStream(path.join(dir, 'job.mjm'), { encoding: 'latin1' }));
  assert.equal(codes(text), ['package-unreadable']);
  assert.match(text.files[0]!.findings[0]!.message, /text, not bytes/);
  const throwing = await validatePackage({ size: ZIP.length, read: async (_offset: number, length: number) => { if (length > 4) throw new Error('gone'); return ZIP.subarray(0, 4); } });
  assert.is(throwing.kind, 'zip');
  assert.equal(codes(throwing), ['package-unreadable']);
});

test('a zip on a stream over maxBytes: package-limit for validatePackage, a RangeError for readPackage', async () => {
  const r = await validatePackage(generator(ZIP, 64), { maxBytes: 100 });
  assert.equal(codes(r), ['package-limit']);
  try {
    await readPackage(generator(ZIP, 64), { part() {} }, { maxBytes: 100 });
    assert.unreachable('should throw');
  } catch (error) {
    assert.instance(error, RangeError);
  }
});

test('an argument that is no package input is a TypeError naming what it got', async () => {
  try {
    await validatePackage(42 as unknown as PackageInput);
    assert.unreachable('should throw');
  } catch (error) {
    assert.instance(error, TypeError);
    assert.match((error as Error).message, /not a number/);
  }
});

test.after(removeTempFolders);
test.run();
