// validate on packages from the command line: told from the bytes (not the name), findings with the part named
// and line:column inside it, standard input, JSON valid against the schema, Container members looked up in a
// local zip with --check-exists.
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv } from 'ajv';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { projectRoot, removeTempFolders, tempFolder } from './helpers.js';
import { handZip } from './zip-by-hand.js';
import { runCli } from './in-process.js';

const root = fileURLToPath(projectRoot);
const run = (args: string[], input?: Buffer) => runCli(args, { encoding: 'utf8', cwd: root, ...(input !== undefined ? { input } : {}) });
const schema = new Ajv({ allErrors: true, strict: false }).compile<any>(JSON.parse(readFileSync(path.join(root, 'schemas/report.schema.json'), 'utf8')));
const dir = tempFolder('jdf-pkg-cli-');

test('the sample packages are clean; JSON names the parts and is valid against the schema', async () => {
  const r = await run(['validate', 'samples/submit-queue-entry.mjm', 'samples/xjdf-package.zip', '--format', 'json']);
  assert.is(r.status, 0, r.stderr);
  const report = JSON.parse(r.stdout);
  assert.ok(schema(report), JSON.stringify(schema.errors));
  assert.equal(report.files.map((f: any) => f.part ?? null), [null, '<submit.jmf@mis.example.com>', '<ticket.jdf@mis.example.com>', null, 'job.xjdf']);
  assert.equal(report.files[0].package.parts.map((p: any) => [p.name, p.sniffed, p.ticket]), [
    ['<submit.jmf@mis.example.com>', 'xml', true], ['<ticket.jdf@mis.example.com>', 'xml', true], ['<book.pdf@mis.example.com>', 'pdf', false],
  ]);
});

test('a package is told from its bytes, whatever its name; the part is named and the position is inside it', async () => {
  const bytes = readFileSync(path.join(root, 'samples/submit-queue-entry.mjm'), 'latin1').replace('cid:book.pdf@', 'cid:bok.pdf@');
  const file = path.join(dir, 'looks-like-a.jdf');
  writeFileSync(file, bytes, 'latin1');
  const r = await run(['validate', file]);
  assert.is(r.status, 1);
  const lines = r.stdout.split('\n');
  const at = lines.indexOf(`${file} [part <ticket.jdf@mis.example.com>]`);
  assert.ok(at > 0, r.stdout);
  // Line 7 of the JDF part: `        <FileSpec URL="` is 23 characters, so the value starts in column 24.
  assert.match(lines[at + 1]!, /^ {2}7:24 +error +No part of the package has the Content-ID <bok\.pdf@mis\.example\.com>.*cid-no-part$/);
  const s = await run(['validate', '-'], Buffer.from(bytes, 'latin1'));
  assert.is(s.status, 1);
  assert.ok(s.stdout.includes('- [part <ticket.jdf@mis.example.com>]'), s.stdout);
  assert.ok((await run(['validate', '-'], readFileSync(path.join(root, 'samples/xjdf-package.zip')))).status === 0);
});

test('--check-exists looks a Container member up in the local zip, without extracting it', async () => {
  const zip = handZip([{ name: 'pages/page1.pdf', data: '%PDF-1.7\n' }]);
  writeFileSync(path.join(dir, 'package.zip'), zip);
  const ticket = (member: string) => `<JDF ID="n1" Type="Product" Version="1.4"><ResourcePool><RunList ID="RL1" Class="Parameter"><LayoutElement><FileSpec URL="${member}"><Container><FileSpec URL="package.zip"/></Container></FileSpec></LayoutElement></RunList></ResourcePool></JDF>`;
  writeFileSync(path.join(dir, 'in.jdf'), ticket('pages/page1.pdf'));
  writeFileSync(path.join(dir, 'out.jdf'), ticket('pages/page2.pdf'));
  assert.is((await run(['validate', path.join(dir, 'in.jdf'), '--check-exists'])).status, 0);
  const r = await run(['validate', path.join(dir, 'out.jdf'), '--check-exists']);
  assert.is(r.status, 1);
  assert.ok(r.stdout.includes(`'pages/page2.pdf' inside ${path.join(dir, 'package.zip')}`), r.stdout);
});

test('--check-exists in a Latin-1 ticket: a Container member escaped in Latin-1 names the entry by its character (JDF appendix section 3)', async () => {
  const sub = mkdtempSync(path.join(dir, 'latin1-'));
  writeFileSync(path.join(sub, 'package.zip'), handZip([{ name: 'pages/Gr\u00f6\u00dfe.pdf', data: '%PDF-1.7\n' }]));
  const ticket = (member: string) => Buffer.from(`<?xml version="1.0" encoding="ISO-8859-1"?>\n<JDF ID="n1" Type="Product" Version="1.4"><!-- Gr\u00f6\u00dfe --><ResourcePool><RunList ID="RL1" Class="Parameter"><LayoutElement><FileSpec URL="${member}"><Container><FileSpec URL="package.zip"/></Container></FileSpec></LayoutElement></RunList></ResourcePool></JDF>\n`, 'latin1');
  writeFileSync(path.join(sub, 'in.jdf'), ticket('pages/Gr%F6%DFe.pdf'));
  const r = await run(['validate', path.join(sub, 'in.jdf'), '--check-exists']);
  assert.is(r.status, 0, r.stdout);
  // The same octets read as UTF-8 would be no name at all: a UTF-8 ticket with them names no entry.
  writeFileSync(path.join(sub, 'utf8.jdf'), ticket('pages/Gr%F6%DFe.pdf').toString('latin1').replace('ISO-8859-1', 'UTF-8').replace('Gr\u00f6\u00dfe -->', 'Gr -->'));
  assert.is((await run(['validate', path.join(sub, 'utf8.jdf'), '--check-exists'])).status, 1);
});

test('standard input with --stdin-filename is read as the same bytes under that name: base, --check-exists, streaming', async () => {
  const sub = mkdtempSync(path.join(dir, 'stdin-'));
  writeFileSync(path.join(sub, 'here.pdf'), '%PDF-1.7\n%%EOF');
  const xjdf = '<?xml version="1.0"?>\n<XJDF JobID="j1" Types="Product"><ResourceSet Name="RunList"><Resource><RunList>\n<FileSpec URL="content/book.pdf"/>\n<FileSpec URL="content/gone.pdf"/>\n</RunList></Resource></ResourceSet></XJDF>\n';
  const zip = handZip([{ name: 'job.xjdf', data: xjdf }, { name: 'content/book.pdf', data: '%PDF-1.7\n%%EOF' }]);
  const big = '%PDF-1.7\n' + 'x'.repeat(3 << 20) + '\n%%EOF';
  const mime = [
    'MIME-Version: 1.0', 'Content-Type: multipart/related; boundary=B; start="<jdf@x>"', '',
    '--B', 'Content-Type: application/vnd.cip4-jdf+xml', 'Content-ID: <jdf@x>', '',
    '<JDF ID="n1" Type="Product" Version="1.4"><ResourcePool><RunList ID="RL1"><LayoutElement><FileSpec URL="cid:pdf@x"/></LayoutElement></RunList>'
      + '<RunList ID="RL2"><LayoutElement><FileSpec URL="here.pdf"/></LayoutElement></RunList><RunList ID="RL3"><LayoutElement><FileSpec URL="missing.pdf"/></LayoutElement></RunList></ResourcePool></JDF>',
    '--B', 'Content-Type: application/pdf', 'Content-ID: <pdf@x>', '', big, '--B--', '',
  ].join('\r\n');
  for (const [name, bytes] of [['job.zip', zip], ['job.mjm', Buffer.from(mime, 'latin1')]] as const) {
    const file = path.join(sub, name);
    writeFileSync(file, bytes);
    // --max-bytes under the MIME body's size: a package on standard input streams like a file; only its ticket counts.
    const args = ['--check-exists', '--format', 'json', '--max-bytes', String(1 << 20)];
    const fromFile = await run(['validate', file, ...args]);
    const fromStdin = await run(['validate', '-', '--stdin-filename', file, ...args], bytes);
    assert.is(fromStdin.status, 1, fromStdin.stderr);
    const found = (r: typeof fromFile) => JSON.parse(r.stdout).files.map((f: any) => [f.path, f.part ?? null, [...f.findings, ...f.references.flatMap((x: any) => x.findings)].map((x: any) => [x.code, x.message])]);
    assert.equal(found(fromStdin), found(fromFile), name);
    const codes = found(fromStdin).flatMap((f: any) => f[2].map((c: any) => c[0]));
    assert.not.ok(codes.includes('no-base') || codes.includes('file-too-large'), `${name}: ${codes}`);
    assert.ok(codes.includes('file-missing'), `${name}: ${codes}`);
  }
});

test('--check-exists: a zip reference that leaves the package is looked for on disk beside it, not inside it', async () => {
  const sub = mkdtempSync(path.join(dir, 'leave-'));
  const xjdf = '<?xml version="1.0"?>\n<XJDF JobID="j1" Types="Product"><ResourceSet Name="RunList"><Resource><RunList><FileSpec URL="../outside.pdf"/></RunList></Resource></ResourceSet></XJDF>\n';
  const file = path.join(sub, 'job.zip');
  writeFileSync(file, handZip([{ name: 'job.xjdf', data: xjdf }]));
  const missing = await run(['validate', file, '--check-exists']);
  assert.is(missing.status, 1);
  assert.ok(missing.stdout.includes(path.join(sub, 'outside.pdf')) && !missing.stdout.includes('inside the package'), missing.stdout);
  writeFileSync(path.join(sub, 'outside.pdf'), '%PDF-1.7\n%%EOF');
  const there = await run(['validate', file, '--check-exists']);
  assert.is(there.status, 0, there.stdout);
});

test('a hostile zip on the command line: findings, exit 1, nothing written', async () => {
  const file = path.join(dir, 'slip.zip');
  writeFileSync(file, handZip([{ name: 'job.xjdf', data: '<XJDF JobID="1" Types="Product"/>' }, { name: '../../escape.txt', data: 'x' }]));
  const before = readdirSync(dir, { recursive: true }).map(String).sort();
  const r = await run(['validate', file]);
  assert.is(r.status, 1);
  assert.ok(r.stdout.includes('zip-slip'));
  assert.equal(readdirSync(dir, { recursive: true }).map(String).sort(), before, 'nothing written');
  assert.not.ok(existsSync(path.join(dir, '..', 'escape.txt')) || existsSync(path.join(dir, '..', '..', 'escape.txt')), 'nothing written outside');
});

test.after(removeTempFolders);
test.run();
