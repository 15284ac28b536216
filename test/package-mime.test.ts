// MIME packages built by hand in the test (the expected contents are the bytes the test put in, encoded here with
// Node's Buffer, not by our code): transfer encodings, chunking, positions, limits and hostile packages.
import { readFileSync } from 'node:fs';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { MultipartReader, type PartHead } from '../src/package/multipart.js';
import { detectPackage, validatePackage, type PackageReport } from '../src/package/validate.js';
import { projectRoot } from './helpers.js';

const enc = new TextEncoder();
const codes = (r: PackageReport) => r.files.flatMap((f) => [...f.findings, ...f.references.flatMap((x) => x.findings)]).map((f) => f.code);

/** Reads a package with the streaming reader, fed `step` bytes at a time; returns each part's decoded bytes. */
function readParts(bytes: Uint8Array, step: number): { heads: PartHead[]; bodies: Buffer[]; problems: string[] } {
  const heads: PartHead[] = [];
  const bodies: Buffer[][] = [];
  const problems: string[] = [];
  const reader = new MultipartReader({
    partStart(h) { heads.push(h); bodies.push([]); },
    partData(_h, d) { bodies[bodies.length - 1]!.push(Buffer.from(d)); },
    partEnd(h, e) { if (e.problem) problems.push(`${e.problem}:${h.index}`); },
    problem(code) { problems.push(code); },
  });
  for (let at = 0; at < bytes.length; at += step) reader.push(bytes.subarray(at, at + step));
  reader.end();
  return { heads, bodies: bodies.map((b) => Buffer.concat(b)), problems };
}

const binary = Buffer.from([0x25, 0x50, 0x44, 0x46, 0x2d, 0x0d, 0x0a, 0x2d, 0x2d, 0x42, 0x58, 0x0d, 0x0a, 0x00, 0xff, 0x0a, 0x2d, 0x2d, 0x42, 0x42, 0x0d, 0x78]);
const text = 'Caf\u00e9 = 10 \u20ac; a line long enough to need a soft break in quoted-printable, surely more than seventy-six characters long.';
// RFC 2045 6.7 by hand: "=" is =3D, non-ASCII octets as =XX, soft line breaks "=" CRLF.
const qp = 'Caf=C3=A9 =3D 10 =E2=82=AC; a line long enough to need a soft break in quoted-=\r\nprintable, surely more than seventy-six characters long.';
const b64 = Buffer.from(binary).toString('base64').replace(/(.{8})/g, '$1\r\n');
const pkg = (eol: string) => [
  'MIME-Version: 1.0', 'Content-Type: multipart/related; boundary="BB"; start="<a@x>"', '', 'preamble --BB is not a delimiter here',
  '--BB', 'Content-ID: <a@x>', 'Content-Type: application/octet-stream', 'Content-Transfer-Encoding: binary', '', '\u0000BINARY\u0000',
  '--BB  ', 'Content-ID: <b@x>', 'Content-Transfer-Encoding: base64', '', b64.replace(/\r\n/g, eol),
  '--BB', 'Content-ID: <c@x>', 'Content-Transfer-Encoding: quoted-printable', '', qp.replace(/\r\n/g, eol),
  '--BB', 'Content-ID: <d@x>', '', '',
  '--BB--', 'epilogue',
].join(eol);

test('every chunk size reads the same parts, CRLF and LF alike, with each body decoded to the bytes put in', () => {
  for (const eol of ['\r\n', '\n']) {
    const raw = Buffer.from(pkg(eol).replace('\u0000BINARY\u0000', '\u0000BINARY\u0000'), 'latin1');
    // The binary part holds bytes that look like a delimiter: splice the real bytes in.
    const withBinary = Buffer.concat([raw.subarray(0, raw.indexOf('\u0000BINARY\u0000')), binary, raw.subarray(raw.indexOf('\u0000BINARY\u0000') + 8)]);
    for (const step of [1, 2, 3, 5, 7, 11, 64, withBinary.length]) {
      const { heads, bodies, problems } = readParts(withBinary, step);
      assert.equal(heads.map((h) => h.contentId), ['a@x', 'b@x', 'c@x', 'd@x'], `step ${step}`);
      assert.equal([...bodies[0]!], [...binary], `binary, step ${step}`);
      assert.equal([...bodies[1]!], [...binary], `base64, step ${step}`);
      assert.equal(bodies[2]!.toString('utf8'), text, `quoted-printable, step ${step}`);
      assert.equal(bodies[3]!.length, 0, `empty part, step ${step}`);
      assert.equal(problems, [], `step ${step}`);
    }
  }
});

test('a caller that reuses one buffer for every chunk gets the same parts (nothing held points into its buffer)', async () => {
  const bytes = readFileSync(new URL('samples/submit-queue-entry.mjm', projectRoot));
  for (const size of [7, 64, 4096]) {
    async function* reused() {
      const buffer = Buffer.alloc(size);
      for (let at = 0; at < bytes.length; at += size) yield buffer.subarray(0, bytes.copy(buffer, 0, at, at + size));
    }
    const r = await validatePackage(reused());
    assert.equal(codes(r), [], `chunks of ${size}`);
    assert.equal(r.parts.map((p) => p.size), [...(await validatePackage(new Uint8Array(bytes))).parts.map((p) => p.size)]);
  }
});

test('a body whose headers are followed at once by the delimiter is empty; a part header may be empty', () => {
  const raw = enc.encode('Content-Type: multipart/mixed; boundary=Q\r\n\r\n--Q\r\n\r\nx\r\n--Q\r\nContent-ID: <e@x>\r\n\r\n--Q--\r\n');
  const { heads, bodies } = readParts(raw, 1);
  assert.equal(heads.length, 2);
  assert.equal(Buffer.from(bodies[0]!).toString(), 'x');
  assert.equal(bodies[1]!.length, 0);
});

test('truncated base64 and characters outside the alphabet are told apart', () => {
  const mk = (body: string) => enc.encode(`Content-Type: multipart/mixed; boundary=Q\n\n--Q\nContent-Transfer-Encoding: base64\n\n${body}\n--Q--\n`);
  assert.equal(readParts(mk('QUJD'), 3).problems, []);
  assert.equal(readParts(mk('QUJDRA=='), 3).problems, []);
  assert.equal(readParts(mk('QUJDR'), 3).problems, ['truncated:0']);
  assert.equal(readParts(mk('QUJDRA'), 3).problems, ['truncated:0']);
  assert.equal(readParts(mk('QU*JD'), 3).problems, ['invalid-chars:0']);
});

test('past its first bytes a part is only checked and counted, and truncation or junk there is still found', async () => {
  const pdf = Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.alloc(6000, 7)]);
  const b64 = pdf.toString('base64').replace(/.{76}/g, '$&\r\n');
  const mk = (body: string) => enc.encode(`Content-Type: multipart/related; boundary=Q; start="<j@x>"\r\n\r\n--Q\r\nContent-Type: application/vnd.cip4-jdf+xml\r\nContent-ID: <j@x>\r\n\r\n<JDF ID="n" Type="Product" Version="1.4"><ResourcePool><FileSpec URL="cid:p@x"/></ResourcePool></JDF>\r\n--Q\r\nContent-Type: application/pdf\r\nContent-ID: <p@x>\r\nContent-Transfer-Encoding: base64\r\n\r\n${body}\r\n--Q--\r\n`);
  const clean = await validatePackage(mk(b64));
  assert.equal(codes(clean), []);
  assert.is(clean.parts[1]!.size, pdf.length);
  assert.ok(codes(await validatePackage(mk(b64.slice(0, -3)))).includes('base64-truncated'));
  assert.ok(codes(await validatePackage(mk(b64.slice(0, 4000) + '*' + b64.slice(4000)))).includes('base64-invalid-chars'));
});

const JDF = (url: string) => `<?xml version="1.0"?>\n<JDF ID="n1" Type="Product" Version="1.4">\n  <ResourcePool>\n    <RunList ID="RL1"><LayoutElement><FileSpec URL="${url}"/></LayoutElement></RunList>\n  </ResourcePool>\n</JDF>\n`;
const related = (parts: string[], params = '; start="<jdf@x>"') => enc.encode(`MIME-Version: 1.0\r\nContent-Type: multipart/related; boundary=BB${params}\r\n\r\n${parts.map((p) => `--BB\r\n${p}\r\n`).join('')}--BB--\r\n`);
const jdfPart = (url: string) => `Content-Type: application/vnd.cip4-jdf+xml\r\nContent-ID: <jdf@x>\r\n\r\n${JDF(url)}`;
const pdfPart = (id: string, body = '%PDF-1.7\n%%EOF') => `Content-Type: application/pdf\r\nContent-ID: <${id}>\r\n\r\n${body}`;

test('a cid: finding is reported in the ticket part, at the line and column of the URL inside that part', async () => {
  const r = await validatePackage(related([jdfPart('cid:nope@x'), pdfPart('pdf@x')]));
  const ticket = r.files.find((f) => f.part === '<jdf@x>')!;
  const f = ticket.references[0]!.findings.find((x) => x.code === 'cid-no-part')!;
  // Line 4 of the ticket; the value starts after `    <RunList ID="RL1"><LayoutElement><FileSpec URL="`.
  assert.equal([f.line, f.column], [4, '    <RunList ID="RL1"><LayoutElement><FileSpec URL="'.length + 1]);
  assert.ok(f.message.includes('<nope@x>'));
  // The PDF nothing references is info, on its header line in the package: 3 header lines, the delimiter, 3 part
  // header lines, the ticket's 6 lines and the line its CRLF ends, the delimiter: line 16.
  const own = r.files[0]!;
  assert.equal(own.findings.map((x) => [x.code, x.line]), [['part-unreferenced', 16]]);
});

test('cid: URLs are percent-decoded before they are compared (RFC 2392)', async () => {
  const r = await validatePackage(related([jdfPart('cid:my%20file@x'), pdfPart('my file@x')]));
  assert.equal(codes(r), []);
});

test('start names the root even when it is not first; a JMF root refers to the JDF part by cid:', async () => {
  const jmf = `Content-Type: application/vnd.cip4-jmf+xml\r\nContent-ID: <jmf@x>\r\n\r\n<JMF SenderID="MIS" Version="1.4"><Command ID="c1" Type="SubmitQueueEntry"><QueueSubmissionParams URL="cid:jdf@x"/></Command></JMF>`;
  const r = await validatePackage(related([pdfPart('pdf@x'), jdfPart('cid:pdf@x'), jmf], '; start="<jmf@x>"'));
  assert.equal(codes(r), []);
  assert.equal(r.parts.find((p) => p.root)!.name, '<jmf@x>');
  assert.equal(r.files.map((f) => f.part), [undefined, '<jdf@x>', '<jmf@x>']);
});

test('Content-Type against magic bytes: TIFF, JPEG, PNG and PDF', async () => {
  const part = (type: string, body: string) => `Content-Type: ${type}\r\nContent-ID: <p@x>\r\nContent-Transfer-Encoding: base64\r\n\r\n${Buffer.from(body, 'latin1').toString('base64')}`;
  const cases: Array<[string, string, boolean]> = [
    ['image/tiff', 'II*\u0000rest', false], ['image/tiff', 'MM\u0000*rest', false], ['image/jpeg', '\u00ff\u00d8\u00ff\u00e0', false],
    ['image/png', '\u0089PNG\r\n\u001a\nrest', false], ['application/pdf', 'junk%PDF-1.4', false],
    ['image/png', '\u00ff\u00d8\u00ff\u00e0', true], ['image/tiff', '%PDF-1.4', true], ['application/pdf', 'GIF89a', true],
  ];
  for (const [type, body, flagged] of cases) {
    const r = await validatePackage(related([jdfPart('cid:p@x'), part(type, body)]));
    assert.is(codes(r).includes('content-type-mismatch'), flagged, `${type} ${JSON.stringify(body)}`);
  }
});

test('detectPackage: MIME and zip from their bytes, a ticket is neither', () => {
  assert.is(detectPackage(related([jdfPart('a.pdf')])), 'mime');
  assert.is(detectPackage(enc.encode('--BB\r\nContent-Type: text/xml\r\n\r\n<JDF/>\r\n--BB--')), 'mime');
  assert.is(detectPackage(Uint8Array.of(0x50, 0x4b, 3, 4, 0)), 'zip');
  assert.is(detectPackage(enc.encode('<?xml version="1.0"?><JDF/>')), null);
  assert.is(detectPackage(enc.encode('Subject: x\r\n\r\n<JDF/>')), null);
});

/** A stream of `total` bytes of `fill` after a header, made as it is read: nothing of it exists at once. */
async function* endless(head: string, total: number, fill = 0x41): AsyncIterable<Uint8Array> {
  yield enc.encode(head);
  const block = new Uint8Array(1 << 20).fill(fill);
  for (let sent = 0; sent < total; sent += block.length) yield block;
}

test('a boundary that never closes: mime-unclosed, read in bounded memory', async () => {
  const before = process.memoryUsage().rss;
  const r = await validatePackage(endless('Content-Type: multipart/related; boundary=BB\r\n\r\n--BB\r\nContent-Type: application/pdf\r\n\r\n%PDF-', 128 << 20));
  assert.ok(codes(r).includes('mime-unclosed'), String(codes(r)));
  // Holding the part would take 128 MiB more; the reader holds a delimiter's length of it.
  assert.ok(process.memoryUsage().rss - before < 96 << 20, 'memory stays bounded');
  assert.is(r.parts[0]!.size, 5 + (128 << 20));
});

test('a part over the part limit stops the reading with package-limit (2 GiB in production, 8 MiB here)', async () => {
  let pulled = 0;
  async function* counted() {
    for await (const c of endless('Content-Type: multipart/related; boundary=BB\r\n\r\n--BB\r\n\r\n', 64 << 20)) { pulled++; yield c; }
  }
  const r = await validatePackage(counted(), { limits: { maxPartBytes: 8 << 20 } });
  assert.ok(codes(r).includes('package-limit'));
  assert.ok(pulled < 16, `reading stopped near the limit (${pulled} chunks pulled)`);
});

test('a header that never ends, and more parts than the limit, are package-limit findings', async () => {
  const r1 = await validatePackage(endless('Content-Type: multipart/related; boundary=BB\r\n\r\n--BB\r\nX-Junk: ', 4 << 20));
  assert.ok(codes(r1).includes('package-limit'));
  const many = related([jdfPart('a.pdf'), ...Array.from({ length: 10_001 }, (_, k) => `Content-ID: <p${k}@x>\r\n\r\nx`)]);
  const r2 = await validatePackage(many);
  assert.ok(r2.files[0]!.findings.some((f) => f.code === 'package-limit' && f.message.includes('10000 parts')));
});

test('a multipart/related part inside a package is read with the boundary of its own header', async () => {
  const inner = `--IN\r\nContent-Type: application/vnd.cip4-jdf+xml\r\nContent-ID: <in@x>\r\n\r\n${JDF('cid:gone@x')}\r\n--IN--`;
  const outer = enc.encode(`Content-Type: multipart/mixed; boundary=OUT\r\n\r\n--OUT\r\nContent-Type: multipart/related; boundary=IN; start="<in@x>"\r\nContent-ID: <pkg@x>\r\n\r\n${inner}\r\n--OUT--\r\n`);
  const r = await validatePackage(outer);
  const nested = r.files.find((f) => f.part === '<pkg@x> > <in@x>');
  assert.ok(nested, JSON.stringify(r.files.map((f) => f.part)));
  assert.ok(nested!.references[0]!.findings.some((f) => f.code === 'cid-no-part'));
  assert.not.ok(codes(r).includes('mime-boundary-missing'), 'the boundary came from the part header');
});

test('a nested multipart/related takes its root from its own start parameter (RFC 2387 3.2), as does the contentType option', async () => {
  const inner = `--IN\r\nContent-Type: application/pdf\r\nContent-ID: <p@x>\r\n\r\n%PDF-1.7\n%%EOF\r\n--IN\r\nContent-Type: application/vnd.cip4-jdf+xml\r\nContent-ID: <t2@x>\r\n\r\n${JDF('cid:p@x')}\r\n--IN--`;
  const outer = enc.encode(`MIME-Version: 1.0\r\nContent-Type: multipart/related; boundary=OUT; start="<t1@x>"\r\n\r\n--OUT\r\nContent-Type: application/vnd.cip4-jdf+xml\r\nContent-ID: <t1@x>\r\n\r\n${JDF('cid:pkg@x')}\r\n--OUT\r\nContent-Type: multipart/related; boundary=IN; start="<t2@x>"; type="application/vnd.cip4-jdf+xml"\r\nContent-ID: <pkg@x>\r\n\r\n${inner}\r\n--OUT--\r\n`);
  const r = await validatePackage(outer);
  assert.equal(codes(r), []);
  const direct = await validatePackage(enc.encode(inner), { contentType: 'multipart/related; boundary=IN; start="<t2@x>"' });
  assert.equal(codes(direct), []);
  assert.equal(direct.parts.map((p) => [p.name, p.root ?? false]), [['<p@x>', false], ['<t2@x>', true]]);
  const wrong = await validatePackage(enc.encode(inner), { contentType: 'multipart/related; boundary=IN; start="<t3@x>"' });
  assert.ok(codes(wrong).includes('mime-start-wrong'), String(codes(wrong)));
});

test('packages nested deeper than the limit are reported, not followed', async () => {
  let inner = related([jdfPart('a.pdf')]);
  for (let k = 0; k < 5; k++) {
    inner = enc.encode(`Content-Type: multipart/mixed; boundary=L${k}\r\n\r\n--L${k}\r\nContent-Type: multipart/related; boundary=BB\r\n\r\n`.replace('multipart/related; boundary=BB', 'message/rfc822') + Buffer.from(inner).toString('latin1') + `\r\n--L${k}--\r\n`);
  }
  const r = await validatePackage(inner);
  assert.ok(codes(r).includes('package-limit'), String(codes(r)));
});

test.run();
