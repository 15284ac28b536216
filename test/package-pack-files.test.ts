// Which file pack reads for a reference: through --map as validate reads it (whole segments: /a/b does not take
// /a/bc/x.pdf), with a Latin-1 ticket's escapes read as Latin-1 (JDF appendix section 3: M%FCller.pdf is the
// file Müller.pdf, named as this system names it); and names a zip cannot carry. The jobs are made here, byte by byte.
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { inflateRawSync } from 'node:zlib';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { packJob } from '../src/node/package-pack.js';
import { runCli } from './in-process.js';

const work = mkdtempSync(path.join(tmpdir(), 'jdf-pack-files-'));
let n = 0;
const fresh = () => { const d = path.join(work, String(n++)); mkdirSync(d, { recursive: true }); return d; };
const jdf = (urls: string[], declaration = '<?xml version="1.0" encoding="UTF-8"?>') => `${declaration}\n<JDF ID="n1" Type="Product" Version="1.4"><ResourcePool><RunList ID="R1" Class="Parameter">${urls.map((u) => `<LayoutElement><FileSpec URL="${u}"/></LayoutElement>`).join('')}</RunList></ResourcePool></JDF>\n`;
const put = (file: string, text: string) => { mkdirSync(path.dirname(file), { recursive: true }); writeFileSync(file, text); };

test('--map matches whole segments, as validate does: file:///…/a/b maps …/a/b/y.pdf, not …/a/bc/x.pdf', async () => {
  const dir = fresh();
  const prefix = pathToFileURL(path.join(dir, 'a', 'b')).href; // no trailing slash, as users write it
  const folder = path.join(dir, 'X');
  // Where a match inside the segment "bc" would lead (X + "c/x.pdf"), and where the URL itself points.
  put(path.join(folder, 'c', 'x.pdf'), '%PDF-wrong\n');
  put(path.join(dir, 'a', 'bc', 'x.pdf'), '%PDF-right\n');
  put(path.join(folder, 'y.pdf'), '%PDF-mapped\n');
  const ticket = path.join(dir, 't.jdf');
  writeFileSync(ticket, jdf([`${prefix}c/x.pdf`, `${prefix}/y.pdf`]));
  const r = await packJob(ticket, { output: path.join(dir, 'job.mjm'), maps: [{ prefix, folder }] });
  assert.equal(r.problems, []);
  assert.equal(r.files.map((f) => path.relative(dir, f.path)), [path.join('a', 'bc', 'x.pdf'), path.join('X', 'y.pdf')]);
  // With the trailing slash, the same.
  const again = await packJob(ticket, { output: path.join(dir, 'job2.mjm'), maps: [{ prefix: `${prefix}/`, folder: `${folder}/` }] });
  assert.equal(again.files.map((f) => path.relative(dir, f.path)), [path.join('a', 'bc', 'x.pdf'), path.join('X', 'y.pdf')]);
});

test('--map: the longest matching prefix wins, whatever the order given', async () => {
  const dir = fresh();
  const server = 'file:///jobs';
  put(path.join(dir, 'all', 'special', 'a.pdf'), '%PDF-all\n');
  put(path.join(dir, 'special', 'a.pdf'), '%PDF-special\n');
  const ticket = path.join(dir, 't.jdf');
  writeFileSync(ticket, jdf([`${server}/special/a.pdf`]));
  const r = await packJob(ticket, { output: path.join(dir, 'job.mjm'), maps: [{ prefix: `${server}/`, folder: path.join(dir, 'all') }, { prefix: `${server}/special/`, folder: path.join(dir, 'special') }] });
  assert.equal(r.files.map((f) => path.relative(dir, f.path)), [path.join('special', 'a.pdf')]);
});

test('a Latin-1 ticket: M%FCller.pdf is the file Müller.pdf (UTF-8 on this disk), relative, absolute and through --map', async () => {
  const dir = fresh();
  put(path.join(dir, 'M\u00fcller.pdf'), '%PDF-1.7\n');
  put(path.join(dir, 'mapped', 'Gr\u00f6\u00dfe.pdf'), '%PDF-1.7\n');
  const ticket = path.join(dir, 't.jdf');
  // The ticket's bytes in Latin-1, its comment holding a raw 0xFC: the declaration is what the bytes are.
  const text = jdf(['M%FCller.pdf', `${pathToFileURL(dir).href}/M%FCller.pdf`, 'file:///srv/Gr%F6%DFe.pdf'], '<?xml version="1.0" encoding="ISO-8859-1"?>').replace('<JDF', '<!-- f\u00fcr M\u00fcller --><JDF');
  writeFileSync(ticket, Buffer.from(text, 'latin1'));
  const r = await packJob(ticket, { output: path.join(dir, 'job.zip'), format: 'zip', maps: [{ prefix: 'file:///srv/', folder: path.join(dir, 'mapped') }] });
  assert.equal(r.problems, []);
  assert.equal(r.files.map((f) => [path.relative(dir, f.path), f.references]), [['M\u00fcller.pdf', 2], [path.join('mapped', 'Gr\u00f6\u00dfe.pdf'), 1]]);
  // The zip's references are written for the Latin-1 ticket again (one octet a character).
  assert.equal(r.files.map((f) => f.reference), ['content/M%FCller.pdf', 'content/Gr%F6%DFe.pdf']);
  // The ticket is the zip's first entry (APPNOTE 4.3.7: sizes at 18, name and extra lengths at 26 and 28), deflated.
  const zip = readFileSync(path.join(dir, 'job.zip'));
  const start = 30 + zip.readUInt16LE(26) + zip.readUInt16LE(28);
  const packed = inflateRawSync(zip.subarray(start, start + zip.readUInt32LE(18)));
  assert.equal(packed, Buffer.from(text.replace('URL="M%FCller.pdf"', 'URL="content/M%FCller.pdf"').replace(`URL="${pathToFileURL(dir).href}/M%FCller.pdf"`, 'URL="content/M%FCller.pdf"').replace('file:///srv/Gr%F6%DFe.pdf', 'content/Gr%F6%DFe.pdf'), 'latin1'));
});

test('a UTF-8 ticket: %FC is no character (not UTF-8), and names no Latin-1 file either', async () => {
  const dir = fresh();
  put(path.join(dir, 'M\u00fcller.pdf'), '%PDF-1.7\n');
  const ticket = path.join(dir, 't.jdf');
  writeFileSync(ticket, jdf(['M%FCller.pdf', 'M%C3%BCller.pdf']));
  const r = await packJob(ticket, { output: path.join(dir, 'job.mjm') });
  assert.equal(r.problems.map((p) => [p.value, p.reason]), [['M%FCller.pdf', 'does not exist']]);
  assert.is(r.written, false);
});

const pack = (cwd: string, ...args: string[]) => runCli(['pack', ...args], { encoding: 'utf8', cwd });

test('zip: a file named a\\..\\..\\evil.pdf is an error naming it and saying what to do; no package, nothing left behind', async () => {
  if (process.platform === 'win32') return void console.log('  (skipped: "\\" is a separator here, no file name holds it)');
  const dir = fresh();
  put(path.join(dir, 'a\\..\\..\\evil.pdf'), '%PDF-1.7\n');
  put(path.join(dir, 'ok.pdf'), '%PDF-1.7\n');
  writeFileSync(path.join(dir, 't.jdf'), jdf(['a%5C..%5C..%5Cevil.pdf', 'ok.pdf']));
  const r = await pack(dir, 't.jdf', '-o', 'job.zip', '--format', 'zip');
  assert.is(r.status, 1, r.stdout + r.stderr);
  assert.is(r.stderr, '', 'no raw error from the zip writer');
  const line = r.stdout.split('\n').find((l) => l.includes('evil.pdf'))!;
  assert.ok(line.startsWith('t.jdf:2:'), r.stdout);
  assert.ok(line.includes(`(${path.join(dir, 'a\\..\\..\\evil.pdf')})`), line);
  assert.match(line, /'\\'.*folder separator.*rename the file, or pack as MIME \(--format mime\)/);
  assert.equal(readdirSync(dir).sort(), ['a\\..\\..\\evil.pdf', 'ok.pdf', 't.jdf'], 'no package, no temporary file');
  // --allow-missing packs the rest and leaves that reference as written.
  const rest = await pack(dir, 't.jdf', '-o', 'job.zip', '--format', 'zip', '--allow-missing');
  assert.is(rest.status, 0, rest.stdout + rest.stderr);
  assert.ok(existsSync(path.join(dir, 'job.zip')));
  // As MIME it packs: the name travels in Content-Disposition (RFC 2231), where "\\" is only a character.
  const mime = await pack(dir, 't.jdf', '-o', 'job.mjm');
  assert.is(mime.status, 0, mime.stdout + mime.stderr);
  assert.ok(readFileSync(path.join(dir, 'job.mjm'), 'latin1').includes("filename*=UTF-8''a%5C..%5C..%5Cevil.pdf"));
});

test('zip: a ticket whose own name holds "\\" or starts like a drive (c:t.jdf) cannot be the top-level entry: an error, no package', async () => {
  if (process.platform === 'win32') return void console.log('  (skipped: such names are not file names here)');
  const dir = fresh();
  for (const name of ['c:t.jdf', 'x\\t.jdf']) {
    writeFileSync(path.join(dir, name), jdf([]));
    const r = await pack(dir, name, '-o', 'job.zip', '--format', 'zip');
    assert.is(r.status, 1, r.stdout + r.stderr);
    assert.is(r.stderr, '');
    assert.ok(r.stdout.startsWith(`${name}:1:1: error: the ticket cannot be the zip's top-level entry: it is named '${name}'`), r.stdout);
    // --allow-missing cannot help here, so it is not suggested.
    assert.ok(r.stdout.endsWith('\nNo package written.\n'), r.stdout);
    assert.not.ok(existsSync(path.join(dir, 'job.zip')));
  }
});

test('a ticket that is not well-formed: one error naming the ticket, no --allow-missing hint (it cannot help), no package', async () => {
  const dir = fresh();
  writeFileSync(path.join(dir, 't.jdf'), '<JDF><FileSpec URL="a.pdf"></JDF>');
  for (const extra of [[], ['--allow-missing']]) {
    const r = await pack(dir, 't.jdf', '-o', 'job.mjm', ...extra);
    assert.is(r.status, 1, r.stdout + r.stderr);
    const lines = r.stdout.trimEnd().split('\n');
    assert.is(lines.length, 2, r.stdout);
    assert.match(lines[0]!, /^t\.jdf:\d+:\d+: error: the ticket cannot be rewritten: /);
    assert.is(lines[1], 'No package written.');
    assert.not.ok(existsSync(path.join(dir, 'job.mjm')));
  }
});

test.after(() => rmSync(work, { recursive: true, force: true }));
test.run();
