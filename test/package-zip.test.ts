// Zip packages built by hand (test/zip-by-hand.ts, from the APPNOTE with Node's zlib): entries looked up from the
// central directory, zip slip, bombs, too many entries, damage; each a finding in bounded time and memory.
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { validatePackage, type PackageReport } from '../src/package/validate.js';
import { readZipDirectory, readZipEntry, bytesAccess } from '../src/package/zip.js';
import { handZip } from './zip-by-hand.js';
import { removeTempFolders, tempFolder } from './helpers.js';

const codes = (r: PackageReport) => r.files.flatMap((f) => [...f.findings, ...f.references.flatMap((x) => x.findings)]).map((f) => f.code);
const XJDF = (urls: string[]) => `<?xml version="1.0"?>\n<XJDF JobID="j1" Types="Product">\n<ResourceSet Name="RunList"><Resource><RunList>\n${urls.map((u) => `<FileSpec URL="${u}"/>`).join('\n')}\n</RunList></Resource></ResourceSet>\n</XJDF>\n`;
const PDF = '%PDF-1.7\n' + 'stream '.repeat(500) + '\n%%EOF';

test('a clean XJDF zip: every reference names an entry, no finding', async () => {
  const zip = handZip([{ name: 'job.xjdf', data: XJDF(['content/book.pdf', 'content/my%20cover.pdf']), deflate: true }, { name: 'content/book.pdf', data: PDF, deflate: true }, { name: 'content/my cover.pdf', data: PDF }]);
  const r = await validatePackage(zip, { documentUri: 'file:///srv/hot/job.zip' });
  assert.equal(codes(r), []);
  assert.equal(r.parts.map((p) => [p.name, p.sniffed, p.ticket]), [['job.xjdf', 'xml', true], ['content/book.pdf', 'pdf', false], ['content/my cover.pdf', 'pdf', false]]);
  assert.is(r.files[1]!.part, 'job.xjdf');
  // Relative references resolve inside the package, taken as a folder (JDF appendix 4.6).
  assert.is(r.files[1]!.references[0]!.resolved, 'file:///srv/hot/job.zip/content/book.pdf');
});

test('a referenced entry the zip lacks is file-missing at the reference, inside the ticket entry', async () => {
  const zip = handZip([{ name: 'job.xjdf', data: XJDF(['content/book.pdf', 'content/missing.pdf']) }, { name: 'content/book.pdf', data: PDF }]);
  const r = await validatePackage(zip);
  const ticket = r.files.find((f) => f.part === 'job.xjdf')!;
  const f = ticket.references[1]!.findings.find((x) => x.code === 'file-missing')!;
  assert.equal([f.line, f.column], [5, '<FileSpec URL="'.length + 1]);
  assert.ok(f.message.includes("'content/missing.pdf' inside the package"));
});

test('a reference that leaves the zip (".." past its top) resolves outside the package, not as a missing entry', async () => {
  const zip = handZip([{ name: 'job.xjdf', data: XJDF(['../outside.pdf', 'content/../../up.pdf', 'content/../content/book.pdf']) }, { name: 'content/book.pdf', data: PDF }]);
  const r = await validatePackage(zip, { documentUri: 'file:///srv/hot/job.zip' });
  assert.not.ok(codes(r).includes('file-missing'), String(codes(r)));
  const refs = r.files.find((f) => f.part === 'job.xjdf')!.references;
  assert.equal(refs.map((x) => x.resolved), ['file:///srv/hot/outside.pdf', 'file:///srv/hot/up.pdf', 'file:///srv/hot/job.zip/content/book.pdf']);
  // The entry it would have been clamped to is no stand-in for it either.
  const clamped = await validatePackage(handZip([{ name: 'job.xjdf', data: XJDF(['../book.pdf']) }, { name: 'book.pdf', data: PDF }]));
  assert.ok(codes(clamped).includes('part-unreferenced'), String(codes(clamped)));
});

test('a Latin-1 ticket: its escapes name entries by Latin-1 octets (JDF appendix section 3), as pack writes them', async () => {
  const ticket = Buffer.from('<?xml version="1.0" encoding="ISO-8859-1"?>\n<XJDF JobID="j1" Types="Product"><!-- f\u00fcr M\u00fcller --><ResourceSet Name="RunList"><Resource><RunList><FileSpec URL="content/M%FCller.pdf"/></RunList></Resource></ResourceSet></XJDF>\n', 'latin1');
  const zip = handZip([{ name: 'job.xjdf', data: ticket }, { name: 'content/M\u00fcller.pdf', data: PDF }]);
  const r = await validatePackage(zip, { documentUri: 'file:///srv/hot/job.zip' });
  assert.equal(codes(r), []);
});

test('zip slip: "..", a leading / or \\, a drive letter', async () => {
  for (const name of ['../evil.pdf', 'a/../../evil.pdf', '/etc/passwd', '\\windows\\x.dll', 'c:/x.pdf', 'a\\..\\..\\x']) {
    const r = await validatePackage(handZip([{ name: 'job.xjdf', data: XJDF([]) }, { name, data: 'x' }]));
    assert.ok(codes(r).includes('zip-slip'), name);
  }
  const ok = await validatePackage(handZip([{ name: 'job.xjdf', data: XJDF(['a..b/c.pdf']) }, { name: 'a..b/c.pdf', data: PDF }]));
  assert.not.ok(codes(ok).includes('zip-slip'));
});

test('zip bombs: a high ratio, a total past the limit, overlapping entries, an entry that inflates past its size', async () => {
  const zeros = new Uint8Array(20 << 20);
  const ratio = await validatePackage(handZip([{ name: 'job.xjdf', data: XJDF(['a.pdf']) }, { name: 'a.pdf', data: zeros, deflate: true }]));
  assert.ok(codes(ratio).includes('zip-bomb'), 'ratio');
  const total = await validatePackage(handZip([{ name: 'job.xjdf', data: XJDF([]) }, { name: 'a.bin', data: 'x', declaredSize: 4000, declaredCompressed: 1 }]), { limits: { maxTotalBytes: 1000 } });
  assert.ok(codes(total).includes('zip-bomb'), 'total');
  const overlap = await validatePackage(handZip([{ name: 'job.xjdf', data: XJDF([]) }, { name: 'a.pdf', data: PDF }, { name: 'b.pdf', data: PDF, localOffset: 0 }]));
  assert.ok(codes(overlap).includes('zip-bomb'), 'overlap');
  const liar = handZip([{ name: 'job.xjdf', data: XJDF([]) + ' '.repeat(50 << 20), deflate: true, declaredSize: 100 }]);
  const lying = await validatePackage(liar);
  assert.ok(codes(lying).includes('zip-bomb'), 'lying size');
  // Read directly: what comes out stops at the declared size, well before the 50 MiB the entry would make.
  const directory = await readZipDirectory(bytesAccess(liar));
  let delivered = 0;
  const read = await readZipEntry(bytesAccess(liar), directory.entries[0]!, directory.entries[0]!.size, (d) => { delivered += d.length; });
  assert.ok(read.oversize);
  assert.ok(delivered <= 100, `${delivered} bytes handed over`);
  // Memory in a process of its own: the resident size of this one moves with every suite run before it.
  const grew = peakGrowth(liar);
  if (grew === undefined) console.log('  (memory part skipped: no /proc/self/status here)');
  else assert.ok(grew < 32 << 20, `the lying entry is not inflated whole (the peak grew ${grew >> 20} MiB for a 50 MiB entry)`);
});

/** How far a fresh process's high-water resident size (VmHWM) rises while it validates the zip, in bytes. */
function peakGrowth(zip: Uint8Array): number | undefined {
  const file = path.join(tempFolder('jfs-zip-'), 'liar.zip');
  writeFileSync(file, zip);
  const module = new URL('../src/package/validate.js', import.meta.url).href;
  const child = `
    import { readFileSync } from 'node:fs';
    const hwm = () => Number(/^VmHWM:\\s+(\\d+) kB$/m.exec(readFileSync('/proc/self/status', 'utf8'))?.[1] ?? NaN) * 1024;
    const { validatePackage } = await import(${JSON.stringify(module)});
    const zip = readFileSync(${JSON.stringify(file)});
    const before = hwm();
    await validatePackage(zip);
    process.stdout.write(String(hwm() - before));`;
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', child], { encoding: 'utf8' });
  assert.is(r.status, 0, r.stderr);
  const grew = Number(r.stdout.trim());
  return Number.isNaN(grew) ? undefined : grew;
}

test('10^5 entries: the directory is not read, one package-limit finding', async () => {
  const many = handZip(Array.from({ length: 100_000 }, (_, k) => ({ name: `p/${k}.txt` })), { declaredCount: 0xffff });
  const r = await validatePackage(many, { limits: { maxEntries: 10_000 } });
  assert.ok(codes(r).includes('package-limit'));
  assert.is(r.parts.length, 0);
});

test('damage: no end record, a directory outside the file, encryption, an unknown method', async () => {
  const good = handZip([{ name: 'job.xjdf', data: XJDF([]) }]);
  assert.ok(codes(await validatePackage(good.subarray(0, good.length - 30))).includes('zip-malformed'));
  const enc = await validatePackage(handZip([{ name: 'job.xjdf', data: XJDF([]) }, { name: 'a.pdf', data: PDF, flags: 1 }]));
  assert.ok(codes(enc).includes('zip-malformed'));
  const method = await validatePackage(handZip([{ name: 'job.xjdf', data: XJDF([]) }, { name: 'a.pdf', data: PDF, method: 14 }]));
  assert.ok(codes(method).includes('zip-malformed'));
  const dir = await readZipDirectory(bytesAccess(good));
  assert.equal(dir.entries.map((e) => e.name), ['job.xjdf']);
});

test('a zip with no ticket at its top level, and a .pdf entry that is not a PDF', async () => {
  const r = await validatePackage(handZip([{ name: 'content/book.pdf', data: 'GIF89a' }]));
  assert.ok(codes(r).includes('package-root-not-ticket'));
  assert.ok(codes(r).includes('content-type-mismatch'));
});

test('unreferenced entries are info; a zip on a stream is read like bytes', async () => {
  const zip = handZip([{ name: 'job.xjdf', data: XJDF([]) }, { name: 'extra.pdf', data: PDF }]);
  async function* stream() { for (let k = 0; k < zip.length; k += 7) yield zip.subarray(k, k + 7); }
  const r = await validatePackage(stream());
  assert.equal(r.files[0]!.findings.map((f) => [f.code, f.severity]), [['part-unreferenced', 'info']]);
});

test.after(removeTempFolders);
test.run();
