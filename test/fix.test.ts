import { copyFileSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { validateTicket } from '../src/index.js';
import { projectRoot, removeTempFolders, tempFolder } from './helpers.js';
import { runCli } from './in-process.js';

const root = fileURLToPath(projectRoot);
const cli = (...args: string[]) => runCli(args, { encoding: 'utf8' });
const dir = tempFolder('jfs-fix-');

/** The bytes of `s` in the file's encoding, for the oracle below. */
function encode(s: string, encoding: string): Buffer {
  if (encoding === 'UTF-16LE') return Buffer.from(s, 'utf16le');
  if (encoding === 'UTF-16BE') return Buffer.from(s, 'utf16le').swap16();
  return Buffer.from(s, encoding === 'UTF-8' ? 'utf8' : 'latin1');
}

/**
 * Independent oracle: the expected file is the original bytes with each changed value's old raw text replaced,
 * left to right, by its new text; nothing else may differ. It searches bytes; it does not reuse our offsets.
 */
function expectedBytes(original: Buffer, changes: Array<{ from: string; to: string; line: number }>, encoding: string): Buffer {
  const parts: Buffer[] = [];
  let at = 0;
  for (const c of changes) {
    const needle = encode(`"${c.from}"`, encoding);
    const i = original.indexOf(needle, at);
    assert.ok(i !== -1, `old value ${c.from} found in the original`);
    parts.push(original.subarray(at, i), encode(`"${c.to}"`, encoding));
    at = i + needle.length;
  }
  parts.push(original.subarray(at));
  return Buffer.concat(parts);
}

/** The URL-attribute values that differ between two reports of the same ticket, in document order. */
function changedValues(before: Buffer, after: Buffer) {
  const a = validateTicket(new Uint8Array(before), { documentUri: 'file:///srv/t.jdf' });
  const b = validateTicket(new Uint8Array(after), { documentUri: 'file:///srv/t.jdf' });
  const seen = new Set<string>();
  const out: Array<{ from: string; to: string; line: number }> = [];
  a.references.forEach((r, i) => {
    const key = `${r.line}:${r.column}`;
    if (seen.has(key)) return;
    seen.add(key);
    if (r.value !== b.references[i]!.value) out.push({ from: r.value, to: b.references[i]!.value, line: r.line });
  });
  return { out, encoding: a.encoding, after: b };
}

const samples = readdirSync(path.join(root, 'samples')).filter((f) => /\.(jdf|xjdf|jmf)$/.test(f));

for (const name of samples) {
  test(`fix is byte-exact on samples/${name}, and what it fixed is not reported again`, async () => {
    const file = path.join(dir, name);
    copyFileSync(path.join(root, 'samples', name), file);
    const original = readFileSync(file);
    const r = await cli('fix', file);
    const fixed = readFileSync(file);
    const { out, encoding, after } = changedValues(original, fixed);
    assert.ok(fixed.equals(expectedBytes(original, out, encoding)), 'only the changed values differ');
    // As eslint --fix: exit 1 while the fixed file still holds an error.
    const left = validateTicket(new Uint8Array(fixed), { documentUri: pathToFileURL(file).href });
    const errors = [...left.findings, ...left.references.flatMap((x) => x.findings)].filter((f) => f.severity === 'error').length;
    assert.is(r.status, errors > 0 ? 1 : 0, r.stderr);
    // Every finding left with a fix belongs to a value the command reported as not fixed, at the finding's place.
    const notFixed = new Set([...r.stderr.matchAll(/:(\d+):(\d+): not fixed/g)].map((m) => `${m[1]}:${m[2]}`));
    for (const ref of after.references) {
      const first = ref.findings.find((f) => f.fix !== undefined);
      for (const f of ref.findings) if (f.fix !== undefined && f.severity !== 'info') assert.ok(notFixed.has(`${first!.line}:${first!.column}`), `${ref.value}: ${f.code} still has a fix`);
    }
  });
}

test('fix on table4-bad.jdf changes exactly the appendix examples with a safe fix', async () => {
  const file = path.join(dir, 't4.jdf');
  copyFileSync(path.join(root, 'samples', 'table4-bad.jdf'), file);
  const original = readFileSync(file);
  await cli('fix', file);
  const { out } = changedValues(original, readFileSync(file));
  assert.equal(out.map((c) => [c.from, c.to]), [
    ['file:/c:/folder/a.pdf', 'file:///c:/folder/a.pdf'],
    ['file://c:/folder/a.pdf', 'file:///c:/folder/a.pdf'],
    ['file:///c:/my docs/a.pdf', 'file:///c:/my%20docs/a.pdf'],
    ['file:///c:\\folder\\a.pdf', 'file:///c:/folder/a.pdf'],
    ['file:///c%3a%2ffolder%2fa%2epdf', 'file:///c%3a/folder/a%2epdf'],
  ]);
});

const variants: Array<[string, (s: string) => Buffer]> = [
  ['CRLF', (s) => Buffer.from(s.replace(/\n/g, '\r\n'))],
  ['CR only', (s) => Buffer.from(s.replace(/\n/g, '\r'))],
  ['UTF-8 BOM', (s) => Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(s)])],
  ['UTF-16LE BOM', (s) => Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(s.replace('UTF-8', 'UTF-16'), 'utf16le')])],
  ['UTF-16BE BOM', (s) => Buffer.concat([Buffer.from([0xfe, 0xff]), Buffer.from(s.replace('UTF-8', 'UTF-16'), 'utf16le').swap16()])],
  ['ISO-8859-1', (s) => Buffer.from(s.replace('UTF-8', 'ISO-8859-1'), 'latin1')],
];
const TICKET = `<?xml version="1.0" encoding="UTF-8"?>
<!-- a comment with a URL="x y.pdf" that is not an attribute -->
<JDF   Version="1.2"  ID='n1'>
  <ResourcePool>
    <RunList ID="RL1" Directory='file:///srv/jobs/4711'  Class="Parameter">
      <LayoutElement><FileSpec MimeType="application/pdf" URL="my docs/Müller &amp; Co.pdf"/></LayoutElement>
      <LayoutElement><FileSpec URL='art\\logo.eps'/></LayoutElement>
      <LayoutElement><FileSpec URL="job#1.pdf"/></LayoutElement>
    </RunList>
  </ResourcePool>
</JDF>
`;

for (const [label, make] of variants) {
  test(`fix keeps ${label}, quoting, attribute order and comments byte for byte`, async () => {
    const file = path.join(dir, `v-${label.replace(/\W/g, '')}.jdf`);
    const original = make(TICKET);
    writeFileSync(file, original);
    const r = await cli('fix', file);
    assert.is(r.status, 1, 'job#1.pdf is left: exit 1');
    const fixed = readFileSync(file);
    const after = validateTicket(new Uint8Array(fixed), { documentUri: pathToFileURL(file).href });
    const values = after.references.map((x) => x.value);
    // Escapes in the declared encoding (JDF appendix section 3): ü is C3 BC in UTF-8 (UTF-16 tickets' escapes are
    // read as UTF-8), FC in ISO-8859-1.
    const muller = label === 'ISO-8859-1' ? 'M%FCller' : 'M%C3%BCller';
    assert.equal(values, ['file:///srv/jobs/4711/', `my%20docs/${muller}%20&%20Co.pdf`, 'art/logo.eps', 'job#1.pdf']);
    const enc = after.encoding;
    const expected = [
      ['file:///srv/jobs/4711', 'file:///srv/jobs/4711/'],
      ['my docs/Müller &amp; Co.pdf', `my%20docs/${muller}%20&amp;%20Co.pdf`],
      ['art\\logo.eps', 'art/logo.eps'],
    ];
    let bytes = original;
    for (const [from, to] of expected) {
      for (const q of ['"', "'"]) {
        const needle = encode(`${q}${from}${q}`, enc);
        const i = bytes.indexOf(needle);
        if (i !== -1) {
          bytes = Buffer.concat([bytes.subarray(0, i), encode(`${q}${to}${q}`, enc), bytes.subarray(i + needle.length)]);
          break;
        }
      }
    }
    assert.ok(fixed.equals(bytes), `${label}: only the three values changed`);
    assert.match(r.stderr, /not fixed: .*"job#1\.pdf".*"#"/);
  });
}

test('fix exits 1 while errors remain, as eslint --fix; its notes give the line:column validate gives', async () => {
  const file = path.join(dir, 'left.jdf');
  const text = '<JDF Version="1.4"><ResourcePool><RunList ID="r" Directory="file:///srv/jobs/">\n      <LayoutElement><FileSpec URL="job #1.pdf"/></LayoutElement></RunList></ResourcePool></JDF>';
  writeFileSync(file, text);
  const validate = await cli('validate', file, '-f', 'unix');
  // The value starts at 2:37; the space, which validate reports first, at 2:40.
  const space = `${file}:2:${'      <LayoutElement><FileSpec URL="job'.length + 1}: error`;
  assert.ok(validate.stdout.includes(space), validate.stdout);
  for (const dry of [['--dry-run'], []]) {
    const r = await cli('fix', file, ...dry);
    assert.is(r.status, 1, r.stderr);
    assert.match(r.stderr, `${file}:2:${'      <LayoutElement><FileSpec URL="job'.length + 1}: not fixed: `);
    assert.match(r.stderr, /2 errors left/);
  }
  assert.is(readFileSync(file, 'utf8'), text, 'nothing to fix safely');
  // All fixed: exit 0, in a dry run (what the edits would leave) and for real.
  writeFileSync(file, text.replace('job #1.pdf', 'job 1.pdf'));
  assert.is((await cli('fix', file, '--dry-run')).status, 0);
  const r = await cli('fix', file);
  assert.is(r.status, 0, r.stderr);
  assert.match(readFileSync(file, 'utf8'), 'URL="job%201.pdf"');
});

test('--dry-run prints a unified diff and changes nothing; --backup keeps the original', async () => {
  const file = path.join(dir, 'dry.jdf');
  writeFileSync(file, TICKET);
  const r = await cli('fix', file, '--dry-run');
  assert.is(readFileSync(file, 'utf8'), TICKET);
  assert.match(r.stdout, /^--- .*dry\.jdf\n\+\+\+ .*dry\.jdf\n@@ -\d+,\d+ \+\d+,\d+ @@\n/);
  assert.match(r.stdout, /\n- {4}<RunList ID="RL1" Directory='file:\/\/\/srv\/jobs\/4711'/);
  const b = await cli('fix', file, '--backup');
  assert.is(b.status, 1, 'job#1.pdf is left');
  assert.is(readFileSync(`${file}.orig`, 'utf8'), TICKET);
  assert.is.not(readFileSync(file, 'utf8'), TICKET);
});

test('a password is stripped by the fix and never printed', async () => {
  const file = path.join(dir, 'pw.jdf');
  writeFileSync(file, '<JDF><ResourcePool><FileSpec URL="ftp://u:hunter2@h.example.com/a b.pdf"/></ResourcePool></JDF>');
  const dry = await cli('fix', file, '--dry-run');
  const real = await cli('fix', file);
  assert.not.ok((dry.stdout + dry.stderr + real.stdout + real.stderr).includes('hunter2'));
  assert.not.ok(readFileSync(file, 'utf8').includes('hunter2'));
});

test('malformed tickets are not touched', async () => {
  const file = path.join(dir, 'broken.jdf');
  writeFileSync(file, '<JDF><FileSpec URL="a b.pdf"></JDF>');
  const r = await cli('fix', file);
  assert.match(r.stderr, /not fixed: the XML is not well-formed/);
  assert.is(r.stdout, '0 files changed, 0 values fixed\n');
  assert.is(readFileSync(file, 'utf8'), '<JDF><FileSpec URL="a b.pdf"></JDF>');
});

test('fix FOLDER: packages in the folder are left alone (fix works on tickets), not reported as broken XML', async () => {
  const folder = tempFolder('jfs-fix-folder-');
  writeFileSync(path.join(folder, 'a.jdf'), '<JDF><ResourcePool><FileSpec URL="a b.pdf"/></ResourcePool></JDF>');
  const mime = 'MIME-Version: 1.0\r\nContent-Type: multipart/related; boundary=b\r\n\r\n--b\r\nContent-Type: application/vnd.cip4-jdf+xml\r\n\r\n<JDF/>\r\n--b--\r\n';
  writeFileSync(path.join(folder, 'job.mjm'), mime);
  const r = await cli('fix', folder);
  assert.is(r.status, 0, r.stderr);
  assert.not.match(r.stderr, /job\.mjm/);
  assert.ok(r.stdout.endsWith('\n1 file changed, 1 value fixed\n'), r.stdout);
  assert.is(readFileSync(path.join(folder, 'job.mjm'), 'utf8'), mime);
  assert.is(readFileSync(path.join(folder, 'a.jdf'), 'utf8'), '<JDF><ResourcePool><FileSpec URL="a%20b.pdf"/></ResourcePool></JDF>');
});

test.after(removeTempFolders);
test.run();
