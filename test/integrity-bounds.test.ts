// Integrity checks that must stay bounded and right on awkward files: a damaged PDF is not read whole to count
// its pages (pdf.js would rebuild its cross-reference table from every byte), and a zip that stores a PDF
// uncompressed is still a zip to the MimeType check.
import { mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { MAX_READ, pdfPageCount } from '../src/node/pdf-pages.js';
import { handMadePdf } from './pdf-fixture.js';
import { runCli } from './in-process.js';

const dir = realpathSync(mkdtempSync(path.join(tmpdir(), 'jfs-integrity-bounds-')));

const pdf = handMadePdf;

test('a sound 20 MB PDF: its pages counted from a small part of it', async () => {
  const file = path.join(dir, 'sound.pdf');
  writeFileSync(file, pdf(3, 20_000_000));
  const stats = { bytesRead: 0 };
  assert.is(await pdfPageCount(file, MAX_READ, stats), 3);
  assert.ok(stats.bytesRead < 1_000_000, `${stats.bytesRead} bytes read`);
});

test('a damaged 8 MB PDF (startxref points into a stream): reading stops at the limit, no page count', async () => {
  const file = path.join(dir, 'damaged.pdf');
  writeFileSync(file, pdf(3, 8_000_000, 4_000_000));
  const stats = { bytesRead: 0 };
  assert.is(await pdfPageCount(file, MAX_READ, stats), undefined);
  assert.ok(stats.bytesRead <= MAX_READ, `${stats.bytesRead} bytes read of 8 MB (limit ${MAX_READ})`);
  // The limit is what stops it: with room for the whole file, pdf.js does rebuild the table and count the pages.
  const unbounded = { bytesRead: 0 };
  assert.is(await pdfPageCount(file, 16 * 1024 * 1024, unbounded), 3);
  assert.ok(unbounded.bytesRead > MAX_READ, `${unbounded.bytesRead} bytes read without the limit`);
});

/** A zip of one entry stored without compression (APPNOTE 4.3.7, 4.3.12, 4.3.16), CRC left 0 (the check reads the magic only). */
function storedZip(name: string, data: Buffer): Buffer {
  const n = Buffer.from(name, 'latin1');
  const local = Buffer.alloc(30);
  local.writeUInt32LE(0x04034b50, 0);
  local.writeUInt16LE(20, 4);
  local.writeUInt32LE(data.length, 18);
  local.writeUInt32LE(data.length, 22);
  local.writeUInt16LE(n.length, 26);
  const central = Buffer.alloc(46);
  central.writeUInt32LE(0x02014b50, 0);
  central.writeUInt16LE(20, 4);
  central.writeUInt16LE(20, 6);
  central.writeUInt32LE(data.length, 20);
  central.writeUInt32LE(data.length, 24);
  central.writeUInt16LE(n.length, 28);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(1, 8);
  end.writeUInt16LE(1, 10);
  end.writeUInt32LE(46 + n.length, 12);
  end.writeUInt32LE(30 + n.length + data.length, 16);
  return Buffer.concat([local, n, data, central, n, end]);
}

test('MimeType: a zip that stores a PDF is a zip; a PDF with bytes before its header is a PDF', async () => {
  writeFileSync(path.join(dir, 'package.zip'), storedZip('a.pdf', pdf(1, 10)));
  writeFileSync(path.join(dir, 'late-header.pdf'), Buffer.concat([Buffer.from('garbage before the header\n'), pdf(1, 10)]));
  const t = path.join(dir, 'mime.jdf');
  writeFileSync(t, '<JDF Version="1.7"><ResourcePool><FileSpec MimeType="application/zip" URL="package.zip"/><FileSpec MimeType="application/pdf" URL="package.zip"/><FileSpec MimeType="application/pdf" URL="late-header.pdf"/></ResourcePool></JDF>');
  const r = await runCli(['validate', t, '--check-exists', '--platform', 'unix', '--format', 'json'], { encoding: 'utf8' });
  const codes = JSON.parse(r.stdout).files[0].references.map((x: any) => x.findings.map((f: any) => f.code));
  assert.equal(codes, [[], ['mime-type-mismatch'], []]);
  assert.match(r.stdout, 'looks like ZIP');
});

test.after(() => rmSync(dir, { recursive: true, force: true }));
test.run();
