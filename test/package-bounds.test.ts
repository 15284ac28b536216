// Packages that would make a reader hold too much, each built by hand here: many big ticket parts (held until
// the end, all of them), and a zip whose central directory is padded with comments (read whole). Each is a
// finding at a place that says why, the rest of the package is still checked, and memory stays bounded.
import { spawnSync } from 'node:child_process';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { readPackage } from '../src/package/read.js';
import { validatePackage, type PackageReport } from '../src/package/validate.js';
import { readZipDirectory, bytesAccess } from '../src/package/zip.js';
import { handZip } from './zip-by-hand.js';

const enc = new TextEncoder();
const codes = (r: PackageReport) => r.files.flatMap((f) => [...f.findings, ...f.references.flatMap((x) => x.findings)]).map((f) => f.code);

/** A JDF of about `size` bytes (many small elements, as big tickets are), whose one FileSpec names `url`. */
const bigJdf = (id: string, size: number, url: string) => {
  const el = `<Comment>${'y'.repeat(80)}</Comment>\n`;
  return `<?xml version="1.0"?>\n<JDF ID="${id}" Type="Product" Version="1.4"><ResourcePool><RunList ID="RL1"><LayoutElement><FileSpec URL="${url}"/></LayoutElement></RunList></ResourcePool>\n${el.repeat(Math.floor(size / el.length))}</JDF>\n`;
};
const ticketPart = (id: string, body: string) => `Content-Type: application/vnd.cip4-jdf+xml\r\nContent-ID: <${id}>\r\n\r\n${body}`;
const mime = (parts: string[]) => enc.encode(`MIME-Version: 1.0\r\nContent-Type: multipart/related; boundary=BB; start="<t0@x>"\r\n\r\n${parts.map((p) => `--BB\r\n${p}\r\n`).join('')}--BB--\r\n`);

test('ticket parts past maxReadBytes in all: one package-limit at the first part not read, naming the rest; smaller tickets after it are still read', async () => {
  const MiB = 1 << 20;
  // Each ticket fits --max-bytes (1 MiB); three fit the 3 MiB read in all, the fourth would pass it.
  const big = Array.from({ length: 7 }, (_, k) => ticketPart(`t${k}@x`, bigJdf(`n${k}`, 900_000, `cid:gone${k}@x`)));
  const small = ticketPart('last@x', bigJdf('small', 0, 'cid:gone-small@x'));
  const bytes = mime([...big, small]);
  const r = await validatePackage(bytes, { maxBytes: MiB, limits: { maxReadBytes: 3 * MiB } });
  assert.equal(r.files.map((f) => f.part), [undefined, '<t0@x>', '<t1@x>', '<t2@x>', '<last@x>']);
  const limit = r.files[0]!.findings.filter((f) => f.code === 'package-limit');
  assert.is(limit.length, 1, String(codes(r)));
  // Where: the header of <t3@x>, the fourth part (line counted in the bytes the test built).
  const fourth = Buffer.from(bytes).indexOf('--BB\r\nContent-Type: application/vnd.cip4-jdf+xml\r\nContent-ID: <t3@x>');
  const line = Buffer.from(bytes).subarray(0, fourth).toString('latin1').split('\n').length + 1;
  assert.is(limit[0]!.line, line);
  // Why: the part, the three after it, the total and what to do.
  assert.match(limit[0]!.message, /the ticket part <t3@x> \(and 3 more after it: <t4@x>, <t5@x>, <t6@x>\)/);
  assert.match(limit[0]!.message, new RegExp(`read up to ${3 * MiB} bytes in all`));
  assert.match(limit[0]!.message, /--max-bytes/);
  // The rest goes on: the small ticket after them is checked (its cid: names no part).
  assert.ok(r.files[4]!.references[0]!.findings.some((f) => f.code === 'cid-no-part'));
  // A part not read is still listed, counted and sniffed.
  assert.equal(r.parts.map((p) => [p.name, p.ticket, p.sniffed]).slice(3, 5), [['<t3@x>', false, 'xml'], ['<t4@x>', false, 'xml']]);
  assert.ok(r.parts[3]!.size > 900_000);
});

test('zip entries share the limit: the top-level ticket is read, the big XML entries after it past maxReadBytes are one package-limit', async () => {
  const xjdf = '<?xml version="1.0"?>\n<XJDF JobID="j1" Types="Product"><ResourceSet Name="RunList"><Resource><RunList><FileSpec URL="content/a.pdf"/></RunList></Resource></ResourceSet></XJDF>\n';
  const zip = handZip([
    { name: 'job.xjdf', data: xjdf },
    ...Array.from({ length: 4 }, (_, k) => ({ name: `data/${k}.xml`, data: bigJdf(`n${k}`, 900_000, 'x.pdf'), deflate: true })),
    { name: 'content/a.pdf', data: '%PDF-1.7\n%%EOF' },
  ]);
  const r = await validatePackage(zip, { documentUri: 'file:///srv/hot/job.zip', maxBytes: 1 << 20, limits: { maxReadBytes: 2 << 20 } });
  assert.equal(r.files.map((f) => f.part), [undefined, 'job.xjdf', 'data/0.xml', 'data/1.xml']);
  const limit = r.files[0]!.findings.filter((f) => f.code === 'package-limit');
  assert.equal(limit.map((f) => f.message.includes('the ticket part data/2.xml (and 1 more after it: data/3.xml)')), [true]);
  assert.is(r.files[1]!.references[0]!.findings.length, 0, 'the root ticket resolves its entry');
});

test('zip entries past maxReadBytes are not read on: an XML entry that will not be kept stops being inflated (or read) at once', async () => {
  const zip = handZip([
    { name: 'job.xjdf', data: '<?xml version="1.0"?>\n<XJDF JobID="j1" Types="Product"/>\n' },
    ...Array.from({ length: 4 }, (_, k) => ({ name: `data/${k}.xml`, data: bigJdf(`n${k}`, 900_000, 'x.pdf') })),
  ]);
  let read = 0;
  const counted = { size: zip.length, read: async (offset: number, length: number) => { const b = zip.subarray(offset, offset + length); read += b.length; return b; } };
  const r = await validatePackage(counted, { maxBytes: 1 << 20, limits: { maxReadBytes: 2 << 20 } });
  assert.ok(codes(r).includes('package-limit'));
  // The entries are stored: what fits the 2 MiB is read, then a step (32 KiB) of each entry past it, and the
  // directory (its tail read is up to 64 KiB): well under the 3.6 MB of the zip, all of which was read before.
  assert.ok(read < (2 << 20) + 200_000, `${read} of ${zip.length} bytes read`);
});

test('maxReadBytes is never less than --max-bytes: one ticket as big as a ticket file may be is always read', async () => {
  const r = await validatePackage(mime([ticketPart('t0@x', bigJdf('n0', 2_000_000, 'http://example.com/a.pdf'))]), { maxBytes: 4 << 20, limits: { maxReadBytes: 1 << 20 } });
  assert.equal(r.files.map((f) => f.part), [undefined, '<t0@x>']);
  assert.not.ok(codes(r).includes('package-limit'));
});

/**
 * How far a fresh process's high-water resident size (VmHWM) rises while it validates what `build` makes, in MiB.
 * `build` runs in the child with `handZip` in scope, before the measure starts.
 */
function peakGrowth(build: string, options: string): number | undefined {
  const module = new URL('../src/package/validate.js', import.meta.url).href;
  const zipByHand = new URL('./zip-by-hand.js', import.meta.url).href;
  const child = `
    import { readFileSync, writeFileSync } from 'node:fs';
    const hwm = () => Number(/^VmHWM:\\s+(\\d+) kB$/m.exec(readFileSync('/proc/self/status', 'utf8'))?.[1] ?? NaN) / 1024;
    const { validatePackage } = await import(${JSON.stringify(module)});
    const { handZip } = await import(${JSON.stringify(zipByHand)});
    const bytes = (${build})();
    // Building took memory too: collect it and reset the high-water mark (Linux clear_refs 5), so it hides nothing.
    global.gc();
    try { writeFileSync('/proc/self/clear_refs', '5'); } catch {}
    const before = hwm();
    const r = await validatePackage(bytes, ${options});
    if (!r.files[0].findings.some((f) => f.code === 'package-limit')) throw new Error('no package-limit finding');
    process.stdout.write(String(hwm() - before));`;
  const r = spawnSync(process.execPath, ['--expose-gc', '--input-type=module', '-e', child], { encoding: 'utf8' });
  assert.is(r.status, 0, r.stderr);
  const grew = Number(r.stdout.trim());
  return Number.isNaN(grew) ? undefined : grew;
}

test('40 ticket parts of 3.5 MB (140 MB) with 4 MiB read in all: memory grows by what one ticket takes, not by 140 MB', () => {
  // The package is made in the child, before the measure starts, from one body: only validating it is counted.
  const build = `() => {
    const el = '<Comment>' + 'y'.repeat(80) + '</Comment>\\n';
    const body = Buffer.from('<?xml version="1.0"?>\\n<JDF ID="n" Type="Product" Version="1.4">' + el.repeat(Math.floor(3.5e6 / el.length)) + '</JDF>\\n');
    const parts = Array.from({ length: 40 }, (_, k) => [Buffer.from('--BB\\r\\nContent-Type: application/vnd.cip4-jdf+xml\\r\\nContent-ID: <t' + k + '@x>\\r\\n\\r\\n'), body, Buffer.from('\\r\\n')]).flat();
    return Buffer.concat([Buffer.from('Content-Type: multipart/related; boundary=BB\\r\\n\\r\\n'), ...parts, Buffer.from('--BB--\\r\\n')]);
  }`;
  const grew = peakGrowth(build, '{ maxBytes: 4 << 20, limits: { maxReadBytes: 4 << 20 } }');
  if (grew === undefined) console.log('  (skipped: no /proc/self/status here)');
  // Validating one 3.5 MB ticket takes about 50 MiB; before the limit every part was held and read: 230 MiB more.
  else assert.ok(grew < 100, `the peak grew ${grew.toFixed(0)} MiB for 140 MB of ticket parts`);
});

const fatDirectory = (count: number, comment = 'C'.repeat(65_535)) => handZip([
  { name: 'job.xjdf', data: '<?xml version="1.0"?>\n<XJDF JobID="j1" Types="Product"/>\n' },
  ...Array.from({ length: count - 1 }, (_, k) => ({ name: `c/${k}.txt`, data: 'x', comment })),
]);

test('a central directory past maxDirectoryBytes (entry comments): package-limit with its size, nothing read, no throw', async () => {
  const zip = fatDirectory(40);
  // 39 comments of 65,535 bytes: the directory is over 2.5 MB; the limit here is 1 MiB (16 MiB by default).
  const r = await validatePackage(zip, { limits: { maxDirectoryBytes: 1 << 20 } });
  assert.equal(codes(r), ['package-limit']);
  assert.match(r.files[0]!.findings[0]!.message, /central directory is \d+ bytes for 40 entries, more than 1048576/);
  assert.is(r.parts.length, 0);
  // Under the limit the same zip reads, comments and all.
  const whole = await readZipDirectory(bytesAccess(zip), { maxDirectoryBytes: 4 << 20 });
  assert.is(whole.entries.length, 40);
  assert.equal(whole.problems, []);
});

test('readPackage on a zip whose directory is not read (past 16 MiB, or cut off) throws a RangeError, where it handed over no part at all', async () => {
  const fat = fatDirectory(260); // 259 comments of 65,535 bytes: 17 MB
  const parts: string[] = [];
  const err = await readPackage(fat, { part(p) { parts.push(p.name); } }).then(() => undefined, (e: unknown) => e);
  assert.ok(err instanceof RangeError, String(err));
  assert.match((err as Error).message, /central directory is \d+ bytes for 260 entries, more than 16777216/);
  assert.equal(parts, []);
  const cut = handZip([{ name: 'job.xjdf', data: 'x' }]).subarray(0, 40);
  assert.ok(await readPackage(cut, { part() {} }).then(() => false, (e: unknown) => e instanceof RangeError && /end-of-central-directory/.test(e.message)));
});

test('2,500 entries with 64 KB comments (a 164 MB directory) read like a file: memory barely grows', () => {
  // Each read copies, as a file's does (a view into bytes in memory would cost nothing either way).
  const build = `() => {
    const zip = handZip([
      { name: 'job.xjdf', data: '<?xml version="1.0"?><XJDF JobID="j1" Types="Product"/>' },
      ...Array.from({ length: 2499 }, (_, k) => ({ name: 'c/' + k + '.txt', data: 'x', comment: 'C'.repeat(65535) })),
    ]);
    return { size: zip.length, read: async (offset, length) => Buffer.from(zip.subarray(offset, offset + length)) };
  }`;
  const grew = peakGrowth(build, '{}');
  if (grew === undefined) console.log('  (skipped: no /proc/self/status here)');
  // Before the limit the directory was read whole: 164 MB more.
  else assert.ok(grew < 32, `the peak grew ${grew.toFixed(0)} MiB`);
});

test.run();
