// fix escapes non-ASCII in the ticket's declared encoding: "all encoded octets must use the encoding declared on
// the XML document header's encoding attribute" (JDF appendix section 3). So a Latin-1 ticket's fixed copy names
// the file it named before, and `validate --check-exists` finds it. The expected escapes come from Python's codec
// tables (urllib.parse.quote with the charset), the files on disk are made by Python, named in UTF-8 as Linux
// names them.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { removeTempFolders, tempFolder } from './helpers.js';
import { runCli } from './in-process.js';

const dir = tempFolder('jfs-fix-encoding-');

/** Python: each name escaped in `charset` (quote with the codec), after the file was created on disk under it. */
function python(names: string[], charset: string, folder: string): string[] {
  const script = [
    'import json, os, sys, urllib.parse',
    'names, charset, folder = json.loads(sys.argv[1]), sys.argv[2], sys.argv[3]',
    'out = []',
    'for n in names:',
    '    open(os.path.join(folder, n), "wb").write(b"%PDF-1.4\\n")',
    '    out.append(urllib.parse.quote(n, safe="", encoding=charset))',
    'print(json.dumps(out))',
  ].join('\n');
  const run = spawnSync('python3', ['-c', script, JSON.stringify(names), charset, folder], { encoding: 'utf8' });
  assert.is(run.status, 0, run.stderr);
  return JSON.parse(run.stdout) as string[];
}

/** A ticket in `encoding` (its declaration says so), its FileSpecs' URLs as given; bytes by Python's codec too. */
function ticket(file: string, encoding: string, codec: string, urls: string[]): void {
  const text = [
    `<?xml version="1.0" encoding="${encoding}"?>`,
    '<JDF xmlns="http://www.CIP4.org/JDFSchema_1_1" Type="Product" ID="j" JobPartID="p" Status="Waiting" Version="1.2">',
    '  <ResourcePool>',
    ...urls.map((u, i) => `    <RunList ID="r${i}" Class="Parameter" Status="Available"><LayoutElement><FileSpec URL="${u}"/></LayoutElement></RunList>`),
    '  </ResourcePool>',
    '</JDF>',
    '',
  ].join('\n');
  const run = spawnSync('python3', ['-c', 'import sys; open(sys.argv[1], "wb").write(sys.argv[2].encode(sys.argv[3], "xmlcharrefreplace"))', file, text, codec]);
  assert.is(run.status, 0, String(run.stderr));
}

/** The URL attributes of a ticket's bytes, read as the codec reads them. */
const urlsOf = (file: string): string[] => [...readFileSync(file).toString('latin1').matchAll(/URL="([^"]*)"/g)].map((m) => m[1]!);

for (const [encoding, codec, names] of [
  ['ISO-8859-1', 'latin-1', ['résumé.pdf', 'Größe ½.pdf']],
  ['windows-1252', 'cp1252', ['Preis€.pdf', 'naïve – Entwurf.pdf']],
] as const) {
  test(`fix on a ${encoding} ticket escapes in ${encoding}, and validate --check-exists finds the fixed names`, async () => {
    const folder = path.join(dir, codec);
    mkdirSync(folder);
    const expected = python([...names], codec, folder);
    const file = path.join(folder, 't.jdf');
    ticket(file, encoding, codec, [...names]);
    const before = await runCli(['validate', '--check-exists', '--format', 'json', file]);
    assert.match(before.stdout, /"non-ascii"/, 'the raw names are reported');
    assert.match(before.stdout, new RegExp(`escape it as ${encoding} octets`), 'the advice names the encoding');
    const fixed = await runCli(['fix', file]);
    assert.is(fixed.status, 0, fixed.stderr);
    // quote(safe="") leaves only letters, digits and "-._~" raw, as the fix does with these names.
    assert.equal(urlsOf(file), expected);
    const after = await runCli(['validate', '--check-exists', '--format', 'json', file]);
    assert.is(after.status, 0, after.stdout);
    const report = JSON.parse(after.stdout) as { files: Array<{ references: Array<{ findings: Array<{ code: string }> }> }> };
    const codes = report.files.flatMap((f) => f.references.flatMap((r) => r.findings.map((x) => x.code)));
    assert.equal(codes, [], 'the fixed names are found on disk, with nothing to report');
  });
}

test('a character the declared encoding cannot hold gets no fix, and the message says why', async () => {
  const folder = path.join(dir, 'unheld');
  mkdirSync(folder);
  const file = path.join(folder, 't.jdf');
  // Python writes "Ł" (U+0141, not in Latin-1) as a character reference: the value holds it, the escapes cannot.
  ticket(file, 'ISO-8859-1', 'latin-1', ['Łódź.pdf']);
  const original = readFileSync(file);
  assert.ok(original.includes('&#321;'), 'the fixture holds a character reference');
  const shown = await runCli(['validate', '--format', 'json', file]);
  assert.match(shown.stdout, /has no octet for 'Ł'/);
  assert.not.match(shown.stdout, /"fix"/);
  const fixed = await runCli(['fix', file]);
  assert.is(fixed.status, 1, 'the error is left');
  assert.ok(readFileSync(file).equals(original), 'nothing written');
});

test.after(removeTempFolders);
test.run();
