// Are the files the right files: FileSize, MimeType against magic bytes, CheckSum (MD5 values from the RFC 1321
// test suite, appendix A.5) with --verify-checksums, on real files.
import { realpathSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { removeTempFolders, tempFolder } from './helpers.js';
import { handMadePdf } from './pdf-fixture.js';
import { runCli } from './in-process.js';

const dir = realpathSync(tempFolder('jfs-integrity-'));
writeFileSync(path.join(dir, 'abc.pdf'), 'abc');
writeFileSync(path.join(dir, 'doc.pdf'), '%PDF-1.7\n%\u00e2\u00e3\n1 0 obj');
writeFileSync(path.join(dir, 'photo.jpg'), Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 0x10, 0x4a, 0x46, 0x49, 0x46]));
writeFileSync(path.join(dir, 'plate.tif'), Buffer.from([0x4d, 0x4d, 0, 0x2a, 0, 0, 0, 8]));
writeFileSync(path.join(dir, 'empty.ps'), '');

const specs: Array<[string, string]> = [
  ['abc.pdf', 'FileSize="3" CheckSum="900150983CD24FB0D6963F7D28E17F72"'],
  ['abc.pdf', 'FileSize="4" CheckSum="d41d8cd98f00b204e9800998ecf8427e"'],
  ['doc.pdf', 'MimeType="application/pdf"'],
  ['photo.jpg', 'MimeType="application/pdf"'],
  ['plate.tif', 'MimeType="image/tiff"'],
  ['empty.ps', 'MimeType="application/postscript" CheckSum="d41d8cd98f00b204e9800998ecf8427e"'],
  ['doc.pdf', 'MimeType="application/x-unknown"'],
];
const ticket = `<JDF Version="1.7"><ResourcePool><RunList>${specs.map(([u, a]) => `<LayoutElement><FileSpec URL="${u}" ${a}/></LayoutElement>`).join('')}</RunList></ResourcePool></JDF>`;
const file = path.join(dir, 't.jdf');
writeFileSync(file, ticket);

async function codes(args: string[]): Promise<string[][]> {
  const r = await runCli(['validate', file, '--check-exists', '--platform', 'unix', '--format', 'json', ...args], { encoding: 'utf8' });
  return JSON.parse(r.stdout).files[0].references.map((x: any) => x.findings.map((f: any) => f.code));
}

test('FileSize and MimeType with --check-exists; CheckSum only when asked', async () => {
  assert.equal(await codes([]), [[], ['file-size-mismatch'], [], ['mime-type-mismatch'], [], ['mime-type-mismatch'], []]);
  assert.equal(await codes(['--verify-checksums']), [[], ['file-size-mismatch', 'checksum-mismatch'], [], ['mime-type-mismatch'], [], ['mime-type-mismatch'], []]);
});

test('each mismatch names both values', async () => {
  const r = await runCli(['validate', file, '--check-exists', '--verify-checksums', '--platform', 'unix'], { encoding: 'utf8' });
  assert.match(r.stdout, `FileSize says 4 bytes, but ${path.join(dir, 'abc.pdf')} has 3`);
  assert.match(r.stdout, `CheckSum says d41d8cd98f00b204e9800998ecf8427e, but the MD5 of ${path.join(dir, 'abc.pdf')} is 900150983cd24fb0d6963f7d28e17f72`);
  assert.match(r.stdout, `MimeType says application/pdf, but ${path.join(dir, 'photo.jpg')} looks like JPEG`);
});

const pdf = handMadePdf;

test('RunList NPage and Pages against the PDF page count (pdf.js)', async () => {
  writeFileSync(path.join(dir, 'three.pdf'), pdf(3, 1_000_000));
  const runs: Array<[string, string[]]> = [
    ['NPage="3"', []],
    ['NPage="4"', ['page-count-mismatch']],
    ['Pages="0 ~ 2" NPage="3"', []],
    ['Pages="0 ~ 3"', ['page-count-mismatch']],
    ['Pages="-3"', []],
    ['Pages="1 -4"', ['page-count-mismatch']],
  ];
  const t = path.join(dir, 'pages.jdf');
  writeFileSync(t, `<JDF Version="1.7"><ResourcePool>${runs.map(([a]) => `<RunList ${a}><LayoutElement><FileSpec URL="three.pdf"/></LayoutElement></RunList>`).join('')}</ResourcePool></JDF>`);
  const r = await runCli(['validate', t, '--check-exists', '--platform', 'unix', '--format', 'json'], { encoding: 'utf8' });
  const got = JSON.parse(r.stdout).files[0].references.filter((x: any) => x.attribute === 'URL').map((x: any) => x.findings.map((f: any) => f.code));
  assert.equal(got, runs.map(([, c]) => c));
  const text = (await runCli(['validate', t, '--check-exists', '--platform', 'unix'], { encoding: 'utf8' })).stdout;
  assert.match(text, `RunList/@NPage says 4, but ${path.join(dir, 'three.pdf')} has 3 pages.`);
});

test.after(removeTempFolders);
test.run();
