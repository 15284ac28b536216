// pack then unpack: content files come back byte-identical, the unpacked ticket's references resolve to them,
// and the ticket's bytes outside the URL values are as they were; on every sample and on generated jobs, as MIME
// and as zip. Files are found and compared with Node's own URL functions (fileURLToPath), not ours.
import { randomBytes } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import fc from 'fast-check';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { validateTicket } from '../src/index.js';
import type { PrefixMap } from '../src/node/local-files.js';
import { packJob } from '../src/node/package-pack.js';
import { safeSegment, unpackPackage } from '../src/node/package-unpack.js';
import { projectRoot } from './helpers.js';
import { handZip } from './zip-by-hand.js';
import { runCli } from './in-process.js';

const root = fileURLToPath(projectRoot);
const run = (...args: string[]) => runCli(args, { encoding: 'utf8', cwd: root });
const work = mkdtempSync(path.join(tmpdir(), 'jdf-pack-'));
let n = 0;
const fresh = () => { const d = path.join(work, String(n++)); mkdirSync(d); return d; };

/** The ticket with every URL="..." value blanked: what must not change. */
const withoutDirectory = (text: string) => text.replace(/(<(?:[\w-]+:)?(?:RunList|Preview)\b[^>]*?)\s+Directory\s*=\s*(?:"[^"]*"|'[^']*')/g, '$1');
const outsideUrls = (bytes: Buffer) => bytes.toString('latin1').replace(/(URL\s*=\s*)("[^"]*"|'[^']*')/g, '$1""');

/** Every local file the ticket's references name, created (random bytes) under `fs` by Node's reading of the URL; returns their contents by path. */
function createReferenced(ticket: string, fs: string): Map<string, Buffer> {
  const made = new Map<string, Buffer>();
  for (const ref of validateTicket(readFileSync(ticket), { documentUri: pathToFileURL(ticket).href }).references) {
    if (ref.role !== 'url' || ref.resolved === null || ref.scheme === 'cid' || ref.baseSource === 'container' || !/^file:\/\/\//.test(ref.resolved)) continue;
    let segments: string[];
    try {
      segments = new URL(ref.resolved).pathname.split('/').filter((s) => s !== '').map(decodeURIComponent);
    } catch { continue; }
    if (segments.some((s) => s === '..' || s.includes('/') || s.includes('\u0000'))) continue;
    const file = path.join(fs, ...segments);
    if (made.has(file) || existsSync(file)) continue;
    try {
      mkdirSync(path.dirname(file), { recursive: true });
      const content = randomBytes(1 + (made.size * 997) % 5000);
      writeFileSync(file, content);
      made.set(file, content);
    } catch { /* a name this file system refuses */ }
  }
  return made;
}

/** Unpacks, then checks every reference that was rewritten resolves (by Node's fileURLToPath) to a file with the original content. */
/** A file URL as a path, its escaped octets read in the ticket's encoding (JDF appendix section 3), by Node's URL functions. */
function toPath(url: string, encoding: string): string {
  if (!/^ISO-8859-1|WINDOWS-1252$/i.test(encoding)) return fileURLToPath(url);
  return decodeURIComponent(new URL(url).pathname.replace(/%([89A-F][0-9A-F])/gi, (_, h: string) => encodeURIComponent(String.fromCharCode(parseInt(h, 16)))));
}

async function roundTrip(ticket: string, format: 'mime' | 'zip', options: { maps?: PrefixMap[]; allowMissing?: boolean }, originals: Map<string, Buffer>, cli = false, locate: (resolved: string, encoding: string) => string | null = (r, e) => { try { return toPath(r, e); } catch { return null; } }, names?: (got: string, original: string) => boolean): Promise<void> {
  const dir = fresh();
  const pkg = path.join(dir, format === 'zip' ? 'job.zip' : 'job.mjm');
  const out = path.join(dir, 'out');
  let u: { status: number | null; stdout: string; stderr: string };
  /** "line:column" of each reference pack reported and left as it was. */
  let leftAlone: string[];
  if (cli) {
    const maps = (options.maps ?? []).flatMap((m) => ['--map', `${m.prefix}=${m.folder}`]);
    const p = await run('pack', ticket, '-o', pkg, '--format', format, ...maps, ...(options.allowMissing ? ['--allow-missing'] : []));
    assert.is(p.status, 0, p.stdout + p.stderr);
    leftAlone = [...p.stdout.matchAll(/:(\d+):(\d+): not packed/g)].map((m) => `${m[1]}:${m[2]}`);
    u = await run('unpack', pkg, '-o', out);
  } else {
    const packed = await packJob(ticket, { output: pkg, format, ...options });
    assert.ok(packed.written, JSON.stringify(packed.problems));
    leftAlone = packed.problems.map((x) => `${x.line}:${x.column}`);
    const r = await unpackPackage(pkg, out);
    u = { status: r.problems.length > 0 ? 1 : 0, stdout: r.problems.join('\n'), stderr: '' };
  }
  // A cid: the ticket held before packing names no part: pack leaves it (--allow-missing), unpack reports it.
  const dangling = format === 'mime' && validateTicket(readFileSync(ticket)).references.some((r) => r.scheme === 'cid');
  assert.is(u.status, dangling ? 1 : 0, u.stdout + u.stderr);
  if (dangling) assert.ok(u.stdout.includes('cid-no-part'));
  const unpacked = readdirSync(out, { recursive: true }).map(String).find((f) => f.endsWith(path.extname(ticket)) && !f.includes(path.sep))!;
  const back = path.join(out, unpacked);
  // A zip drops each RunList's and Preview's Directory (folded into the references it based); nothing else changes.
  const expected = format === 'zip' ? withoutDirectory(outsideUrls(readFileSync(ticket))) : outsideUrls(readFileSync(ticket));
  assert.is(outsideUrls(readFileSync(back)), expected, `${ticket}: bytes outside the URL values`);
  const beforeReport = validateTicket(readFileSync(ticket), { documentUri: pathToFileURL(ticket).href });
  // The references compared one to one: in a zip without the dropped Directories.
  const kept = (r: { attribute: string; element: string }) => format !== 'zip' || !(r.attribute === 'Directory' && /(?:RunList|Preview)(?:\[[^\]]*\])?$/.test(r.element));
  const before = beforeReport.references.filter(kept);
  const beforeEncoding = beforeReport.encoding;
  const afterReport = validateTicket(readFileSync(back), { documentUri: pathToFileURL(back).href });
  const after = afterReport.references.filter(kept);
  const encoding = afterReport.encoding;
  assert.is(after.length, before.length);
  let resolvedHere = 0;
  let explained = 0;
  for (let k = 0; k < after.length; k++) {
    // Every reference that named a file we made must now name, inside the unpacked folder, a file with its bytes.
    const original = before[k]!.resolved === null ? null : locate(before[k]!.resolved!, beforeEncoding);
    if (original === null || !originals.has(original)) continue;
    // Unless pack said why it left this one as it was (a value naming two files through rRefs, a URL it reads otherwise).
    if (after[k]!.value === before[k]!.value && leftAlone.includes(`${before[k]!.line}:${before[k]!.column}`)) { explained++; continue; }
    const file = toPath(after[k]!.resolved!, encoding);
    assert.ok(file.startsWith(out), `${after[k]!.value} stays inside the unpacked folder`);
    assert.ok(readFileSync(file).equals(originals.get(original)!), `${after[k]!.value} holds the bytes of ${original}`);
    if (names) assert.ok(names(path.basename(file), path.basename(original)), `${format}: ${path.basename(original)} came back as ${path.basename(file)}`);
    resolvedHere++;
  }
  assert.ok(originals.size === 0 || resolvedHere + explained > 0, `${ticket}: some reference was packed or explained`);
}

const samples = readdirSync(path.join(root, 'samples')).filter((f) => /\.(jdf|xjdf|jmf)$/.test(f));
for (const name of samples) {
  test(`pack then unpack samples/${name}: MIME and zip`, async () => {
    const dir = fresh();
    const ticket = path.join(dir, name);
    copyFileSync(path.join(root, 'samples', name), ticket);
    const fs = path.join(dir, 'fs');
    const made = createReferenced(ticket, fs);
    const options = { maps: [{ prefix: 'file:///', folder: `${fs}/` }], allowMissing: true };
    const locate = (resolved: string) => {
      try {
        return /^file:\/\/\//.test(resolved) ? path.join(fs, ...new URL(resolved).pathname.split('/').filter((x) => x !== '').map(decodeURIComponent)) : null;
      } catch { return null; }
    };
    await roundTrip(ticket, 'mime', options, made, name === 'appendix-example.jdf', locate);
    // A RunList/@Directory is folded into the references it bases (issue 27): tickets with one go into a zip too.
    await roundTrip(ticket, 'zip', options, made, name === 'ticket.xjdf', locate);
  });
}

/** An unpacked file's name is the original's made safe (safeSegment), with -N when a name was taken and the type's extension when it had none. */
function sameName(got: string, original: string): boolean {
  const safe = safeSegment(original, '\u0000');
  if (safe.includes('\u0000')) return true;
  const ext = path.extname(safe);
  const stem = safe.slice(0, safe.length - ext.length);
  const escape = (t: string) => t.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`^${escape(stem)}(-\\d+)?${ext === '' ? '(\\.pdf)?' : escape(ext)}$`).test(got.normalize('NFC'));
}

test('generated jobs: odd names (?:*<>|", trailing dots, device names, non-ASCII, case-only twins), one name in two folders, a file referenced twice; MIME and zip', async () => {
  const segment = fc.oneof(
    fc.stringMatching(/^[A-Za-z0-9 éü中ø#%&()+,;=@[\]{}~'?:*<>|"-]{1,12}$/),
    fc.constantFrom('CON', 'nul', 'Aux', 'COM1', 'lpt9', 'pré view', 'dot.', 'two..', 'Ünïcödé'),
  ).filter((s) => s.trim() === s && s !== '.' && s !== '..');
  const extension = fc.constantFrom('.pdf', '.pdf', '.', '');
  await fc.assert(fc.asyncProperty(fc.array(fc.tuple(fc.array(segment, { minLength: 0, maxLength: 2 }), segment, extension), { minLength: 1, maxLength: 6 }), async (files) => {
    const dir = fresh();
    const made = new Map<string, Buffer>();
    const urls: string[] = [];
    const [folders0, base0, ext0] = files[0]!;
    const twin = base0.toUpperCase() !== base0 ? base0.toUpperCase() : base0.toLowerCase();
    if (twin !== base0) files.push([folders0, twin, ext0]);
    for (const [folders, base, ext] of files) {
      const rel = [...folders, `${base}${ext}`];
      const file = path.join(dir, 'job', ...rel);
      // A name the generator used both for a folder and for a file: only the first of them is made.
      const clash = (p: string): boolean => p !== path.join(dir, 'job') && ((made.has(p) && p !== file) || clash(path.dirname(p)));
      if (clash(path.dirname(file)) || (!made.has(file) && existsSync(file))) continue;
      if (!made.has(file)) {
        mkdirSync(path.dirname(file), { recursive: true });
        const content = Buffer.concat([Buffer.from('%PDF-1.7\n'), randomBytes(200)]);
        writeFileSync(file, content);
        made.set(file, content);
      }
      urls.push(rel.map(encodeURIComponent).join('/'));
    }
    urls.push(urls[0]!);
    const ticket = path.join(dir, 'job', 'ticket.jdf');
    writeFileSync(ticket, `<?xml version="1.0" encoding="UTF-8"?>\n<JDF ID="n1" Type="Product" Version="1.4">\n<ResourcePool>\n${urls.map((u, k) => `<RunList ID="R${k}" Class="Parameter"><LayoutElement><FileSpec URL="${u.replace(/&/g, '&amp;').replace(/'/g, '&apos;')}"/></LayoutElement></RunList>`).join('\n')}\n</ResourcePool>\n</JDF>\n`);
    await roundTrip(ticket, 'mime', {}, made, false, undefined, sameName);
    // A file named like a drive ("J:x.pdf") is one zip tools take for an absolute path: pack --format zip refuses
    // it, names it and writes nothing (MIME keeps any name, above).
    const driveLike = [...made.keys()].map((f) => path.basename(f)).filter((name) => /^[A-Za-z]:/.test(name));
    if (driveLike.length === 0) {
      await roundTrip(ticket, 'zip', {}, made, false, undefined, sameName);
    } else {
      const pkg = path.join(fresh(), 'job.zip');
      const packed = await packJob(ticket, { output: pkg, format: 'zip' });
      assert.not.ok(packed.written);
      assert.not.ok(existsSync(pkg));
      for (const name of driveLike) assert.ok(packed.problems.some((x) => x.reason.includes(`'${name}'`) && x.reason.includes('drive letter')), JSON.stringify(packed.problems));
    }
  }), { numRuns: 20, endOnFailure: true });
});

test('pack, validate, unpack, validate --check-exists: odd names come back clean, their names intact', async () => {
  const dir = fresh();
  const names = ['CON.pdf', 'x?.pdf', 'dot.', 'a.pdf', 'A.pdf', 'pr\u00e9 view.png', 'M\u00fcller.pdf'];
  for (const n of names) writeFileSync(path.join(dir, n), n.endsWith('.png') ? Buffer.from('89504e470d0a1a0a', 'hex') : '%PDF-1.7\n%%EOF');
  const ticket = path.join(dir, 't.jdf');
  writeFileSync(ticket, `<?xml version="1.0" encoding="UTF-8"?>\n<JDF ID="n1" Type="Product" Version="1.4"><ResourcePool>${names.map((n, k) => `<RunList ID="R${k}" Class="Parameter"><LayoutElement><FileSpec URL="${encodeURIComponent(n)}"/></LayoutElement></RunList>`).join('')}</ResourcePool></JDF>\n`);
  for (const format of ['zip', 'mime']) {
    const pkg = path.join(dir, `job.${format}`);
    const p = await run('pack', ticket, '-o', pkg, '--format', format);
    assert.is(p.status, 0, p.stdout + p.stderr);
    const v = await run('validate', pkg);
    assert.is(v.status, 0, `${format}: ${v.stdout}`);
    const out = path.join(dir, `out-${format}`);
    const u = await run('unpack', pkg, '-o', out);
    assert.is(u.status, 0, u.stdout + u.stderr);
    const written = readdirSync(out, { recursive: true }).map(String).map((f) => path.basename(f)).sort();
    for (const expected of ['_CON.pdf', 'x_.pdf', 'a.pdf', 'pr\u00e9 view.png', 'M\u00fcller.pdf']) assert.ok(written.includes(expected), `${format}: ${expected} in ${written}`);
    // A.pdf beside a.pdf: -2 where they share a folder (MIME), content/2/ where pack put it (zip).
    assert.ok(written.includes(format === 'mime' ? 'A-2.pdf' : 'A.pdf'), `${format}: ${written}`);
    const back = readdirSync(out).find((f) => f.endsWith('.jdf'))!;
    const c = await run('validate', path.join(out, back), '--check-exists');
    assert.is(c.status, 0, `${format}: ${c.stdout}`);
  }
});

test('a missing file: error, exit 1, no package; --allow-missing packs the rest and leaves that reference as it was', async () => {
  const dir = fresh();
  writeFileSync(path.join(dir, 'a.pdf'), '%PDF-1.7\n');
  const ticket = path.join(dir, 't.jdf');
  writeFileSync(ticket, '<JDF ID="n1" Type="Product" Version="1.4"><ResourcePool><RunList ID="R1" Class="Parameter"><LayoutElement><FileSpec URL="a.pdf"/><FileSpec URL="gone.pdf"/></LayoutElement></RunList></ResourcePool></JDF>');
  const out = path.join(dir, 'job.mjm');
  const r = await run('pack', ticket, '-o', out);
  assert.is(r.status, 1);
  assert.ok(r.stdout.includes('gone.pdf'), r.stdout);
  assert.not.ok(existsSync(out), 'no package');
  assert.equal(readdirSync(dir).sort(), ['a.pdf', 't.jdf'], 'no temporary file left');
  const s = await run('pack', ticket, '-o', out, '--allow-missing');
  assert.is(s.status, 0, s.stdout + s.stderr);
  const text = readFileSync(out, 'latin1');
  assert.ok(text.includes('URL="gone.pdf"'));
  assert.ok(/URL="cid:[^"]+"/.test(text));
  const v = await run('validate', out);
  assert.not.ok(v.stdout.includes('cid-no-part'), 'never a dangling cid:');
});

test('--root: a file outside it is refused and nothing is written', async () => {
  const dir = fresh();
  mkdirSync(path.join(dir, 'root'));
  writeFileSync(path.join(dir, 'secret.pdf'), 'x');
  const ticket = path.join(dir, 'root', 't.jdf');
  writeFileSync(ticket, '<JDF ID="n1" Type="Product" Version="1.4"><ResourcePool><FileSpec URL="../secret.pdf"/></ResourcePool></JDF>');
  const r = await run('pack', ticket, '-o', path.join(dir, 'job.mjm'), '--root', path.join(dir, 'root'));
  assert.is(r.status, 1);
  assert.ok(r.stdout.includes('outside --root'), r.stdout);
  assert.not.ok(existsSync(path.join(dir, 'job.mjm')));
});

test('unpack: hostile names stay inside the folder, made safe and never the same twice', async () => {
  const dir = fresh();
  const part = (disposition: string, body: string) => `--B\r\nContent-Type: application/octet-stream\r\nContent-Disposition: attachment; filename="${disposition}"\r\n\r\n${body}\r\n`;
  const mjm = path.join(dir, 'evil.mjm');
  writeFileSync(mjm, 'Content-Type: multipart/related; boundary=B\r\n\r\n' + part('../../escape.txt', '1') + part('CON.pdf', '2') + part('a\\\\..\\\\b.pdf', '3') + part('same.pdf', '4') + part('SAME.pdf', '5') + part('..', '6') + '--B--\r\n');
  const out = path.join(dir, 'out');
  const r = await run('unpack', mjm, '-o', out);
  assert.is(r.status, 0, r.stdout + r.stderr);
  assert.equal(readdirSync(out).sort(), ['_CON.pdf', 'b.pdf', 'escape.txt', 'part-6', 'same.pdf', 'SAME-2.pdf'].sort());
  assert.equal(readdirSync(dir).sort(), ['evil.mjm', 'out']);
});

test('unpack: zip slip entries and bombs are refused; a symbolic link in the folder is not followed', async () => {
  const dir = fresh();
  const zip = path.join(dir, 'slip.zip');
  writeFileSync(zip, handZip([{ name: 'job.xjdf', data: '<XJDF/>' }, { name: '../../escape.txt', data: 'x' }, { name: '/abs.txt', data: 'x' }, { name: 'content/a.pdf', data: '%PDF' }]));
  const out = path.join(dir, 'out');
  const r = await run('unpack', zip, '-o', out);
  assert.is(r.status, 1);
  assert.equal(readdirSync(out, { recursive: true }).map(String).sort(), ['content', path.join('content', 'a.pdf'), 'job.xjdf']);
  assert.equal(readdirSync(dir).sort(), ['out', 'slip.zip']);
  const bomb = path.join(dir, 'bomb.zip');
  writeFileSync(bomb, handZip([{ name: 'job.xjdf', data: '<XJDF/>' }, { name: 'z.bin', data: new Uint8Array(8 << 20), deflate: true }]));
  const b = await run('unpack', bomb, '-o', path.join(dir, 'bomb-out'));
  assert.is(b.status, 1);
  assert.ok(b.stdout.includes('zip-bomb'));
  const linked = path.join(dir, 'linked');
  mkdirSync(linked);
  mkdirSync(path.join(dir, 'elsewhere'));
  symlinkSync(path.join(dir, 'elsewhere'), path.join(linked, 'content'));
  const l = await run('unpack', zip, '-o', linked);
  assert.is(l.status, 2);
  assert.equal(readdirSync(path.join(dir, 'elsewhere')), [], 'nothing written through the link');
});

test.after(() => rmSync(work, { recursive: true, force: true }));
test.run();
