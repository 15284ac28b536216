// One measurement of the packages section, in a process of its own so its peak memory (VmHWM) is its own.
// Usage: node dist/bench/packages-child.js make-mime|make-zip FILE BYTES | copy|validate|mailsplit|yauzl|unpack FILE [DIR]
import { once } from 'node:events';
import { createReadStream, createWriteStream, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
// Each measurement imports only what it runs, so the peak is its own and not every contender's code.

const [what, file, arg] = process.argv.slice(2) as [string, string, string | undefined];

function peak(): number | null {
  try {
    const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync('/proc/self/status', 'utf8'));
    return m ? Number(m[1]) * 1024 : null;
  } catch {
    return null;
  }
}

/** PDF-like content: a header, then bytes that neither compress nor hold a line structure. */
function block(seed: number): Buffer {
  const b = Buffer.alloc(1 << 20);
  let x = seed | 1;
  for (let i = 0; i < b.length; i += 4) { x ^= x << 13; x ^= x >>> 17; x ^= x << 5; b.writeInt32LE(x | 0, i); }
  return b;
}

const PARTS = 4;
const TICKET = (refs: string[]) => `<?xml version="1.0" encoding="UTF-8"?>\n<JDF ID="n1" Type="Product" Version="1.4"><ResourcePool><RunList ID="RL1" Class="Parameter">${refs.map((r) => `<LayoutElement><FileSpec URL="${r}"/></LayoutElement>`).join('')}</RunList></ResourcePool></JDF>\n`;

async function write(out: NodeJS.WritableStream, data: string | Buffer): Promise<void> {
  if (!out.write(data)) await once(out, 'drain');
}

async function makeMime(target: string, bytes: number): Promise<void> {
  // Base64, 76-character lines, as pack writes them: each part holds bytes/PARTS of package.
  const out = createWriteStream(target);
  const ids = Array.from({ length: PARTS }, (_, k) => `p${k}.pdf@bench`);
  await write(out, `MIME-Version: 1.0\r\nContent-Type: multipart/related; boundary="bench-boundary-0123456789"; start="<jdf@bench>"\r\n\r\n--bench-boundary-0123456789\r\nContent-Type: application/vnd.cip4-jdf+xml\r\nContent-ID: <jdf@bench>\r\n\r\n${TICKET(ids.map((i) => `cid:${i}`))}`);
  const perPart = Math.floor(((bytes / PARTS) * 3) / 4 / 57) * 57;
  for (let k = 0; k < PARTS; k++) {
    await write(out, `\r\n--bench-boundary-0123456789\r\nContent-Type: application/pdf\r\nContent-ID: <${ids[k]}>\r\nContent-Transfer-Encoding: base64\r\n\r\n`);
    let left = perPart;
    let seed = k * 7919 + 1;
    let first = true;
    while (left > 0) {
      const raw = block(seed++).subarray(0, Math.min(left, 57 * 18396));
      if (first) raw.write('%PDF-1.7\n', 0, 'latin1');
      left -= raw.length;
      const text = raw.toString('base64').replace(/.{76}/g, '$&\r\n').replace(/\r\n$/, '');
      await write(out, (first ? '' : '\r\n') + text);
      first = false;
    }
  }
  await write(out, '\r\n--bench-boundary-0123456789--\r\n');
  out.end();
  await once(out, 'close');
}

async function makeZip(target: string, bytes: number): Promise<void> {
  const { default: yazl } = await import('yazl');
  const zip = new yazl.ZipFile();
  const out = createWriteStream(target);
  zip.outputStream.pipe(out);
  const names = Array.from({ length: PARTS }, (_, k) => `content/p${k}.pdf`);
  zip.addBuffer(Buffer.from(TICKET(names)), 'job.jdf');
  for (let k = 0; k < PARTS; k++) {
    let left = Math.floor(bytes / PARTS);
    let seed = k * 7919 + 1;
    const stream = new (await import('node:stream')).Readable({
      read() {
        if (left <= 0) { this.push(null); return; }
        const b = block(seed++).subarray(0, Math.min(left, 1 << 20));
        if (left === Math.floor(bytes / PARTS)) b.write('%PDF-1.7\n', 0, 'latin1');
        left -= b.length;
        this.push(b);
      },
    });
    zip.addReadStream(stream, names[k]!, { compress: false });
  }
  zip.end();
  await once(out, 'close');
}

async function main(): Promise<{ bytesOut?: number; problems?: number }> {
  if (what === 'idle') return {};
  if (what === 'make-mime') { await makeMime(file, Number(arg)); return {}; }
  if (what === 'make-zip') { await makeZip(file, Number(arg)); return {}; }
  if (what === 'copy') {
    // The physical limit: the same bytes read and written (to /dev/null), in the same 1 MiB chunks.
    const out = createWriteStream('/dev/null');
    for await (const c of createReadStream(file, { highWaterMark: 1 << 20 })) await write(out, c as Buffer);
    out.end();
    return {};
  }
  if (what === 'validate') {
    const { validatePackageFile } = await import('../src/node/package-read.js');
    const files = await validatePackageFile({ path: file, documentUri: pathToFileURL(path.resolve(file)).href }, {});
    return { problems: files.reduce((n, f) => n + f.findings.filter((x) => x.severity !== 'info').length + f.references.reduce((m, r) => m + r.findings.length, 0), 0) };
  }
  if (what === 'mailsplit') {
    // A well-known streaming MIME parser (nodemailer's): split, and decode every body as we do.
    const { default: mailsplit } = await import('@zone-eu/mailsplit');
    const splitter = new mailsplit.Splitter();
    let bytesOut = 0;
    let decoder: NodeJS.ReadWriteStream | null = null;
    const pending: Promise<unknown>[] = [];
    splitter.on('data', (data: any) => {
      if (data.type === 'node') {
        decoder?.end();
        decoder = data.getDecoder() as NodeJS.ReadWriteStream;
        decoder.on('data', (d: Buffer) => { bytesOut += d.length; });
        pending.push(once(decoder, 'end'));
      } else if (data.type === 'body' && decoder) decoder.write(data.value);
    });
    const done = once(splitter, 'end');
    createReadStream(file, { highWaterMark: 1 << 20 }).pipe(splitter);
    await done;
    (decoder as NodeJS.ReadWriteStream | null)?.end();
    await Promise.all(pending);
    return { bytesOut };
  }
  if (what === 'yauzl') {
    // yauzl: open the zip and read every entry (stored: no inflating), as unpack would without writing.
    const { default: yauzl } = await import('yauzl');
    let bytesOut = 0;
    await new Promise<void>((resolve, reject) => yauzl.open(file, { lazyEntries: true }, (err, zip) => {
      if (err || !zip) return reject(err);
      zip.readEntry();
      zip.on('entry', (e) => zip.openReadStream(e, (err2, s) => {
        if (err2 || !s) return reject(err2);
        s.on('data', (c: Buffer) => { bytesOut += c.length; });
        s.on('end', () => zip.readEntry());
      }));
      zip.on('end', () => resolve());
    }));
    return { bytesOut };
  }
  if (what === 'unpack') {
    const { unpackPackage } = await import('../src/node/package-unpack.js');
    const dir = await mkdtemp(path.join(arg ?? os.tmpdir(), 'jdf-unpack-'));
    try {
      const r = await unpackPackage(file, dir);
      return { bytesOut: r.parts.reduce((n, p) => n + p.size, 0), problems: r.problems.length };
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }
  throw new Error(`unknown measurement ${what}`);
}

const t0 = performance.now();
main().then((extra) => {
  process.stdout.write(JSON.stringify({ ms: performance.now() - t0, peak: peak(), maxrss: process.resourceUsage().maxRSS * 1024, ...extra }) + '\n');
}, (error: unknown) => {
  process.stderr.write(String(error instanceof Error ? error.stack : error) + '\n');
  process.exitCode = 1;
});
