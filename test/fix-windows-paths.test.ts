// The Windows paths a person would fix, in the shapes the corpus holds them (issue 28 section 5): a Directory
// written with backslashes (a drive folder ending in "\", a UNC share after "file://"), a UNC path with its
// backslashes escaped (file://%5C%5CHOST%5C...), the scheme written twice (file://file:/c:/...). Every reading of
// each that names a file names the Windows path below, so fix writes the URL RFC 8089 gives for it (E.2 a drive,
// E.3.1 a UNC share's server as the host), and the ticket it wrote validates with no error on them. Python's
// nturl2path (the standard library's file-URL-to-Windows-path reader), where python3 is, confirms each fixed
// URL names that path. Values with two meanings stay refused: a Windows path holding "%20" (a name with "%20" in
// it, or an escaped space?), and a folder with a backslash and no drive (on POSIX "\" is part of a name).
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { validateTicket } from '../src/index.js';
import { removeTempFolders, tempFolder } from './helpers.js';
import { runCli } from './in-process.js';

const dir = tempFolder('jfs-fix-windows-');

// [attribute, value as written, the URL fix writes, the Windows path both name]
const FIXED: Array<['Directory' | 'URL', string, string, string]> = [
  ['Directory', 'file:///C:/Jobs/Current\\', 'file:///C:/Jobs/Current/', 'C:\\Jobs\\Current\\'],
  ['Directory', 'file://\\\\PRINECT-1\\Jobs\\job9\\System\\Pagefiles\\Current\\', 'file://PRINECT-1/Jobs/job9/System/Pagefiles/Current/', '\\\\PRINECT-1\\Jobs\\job9\\System\\Pagefiles\\Current\\'],
  ['Directory', 'file://\\\\PRINECT-1\\Jobs\\job9\\Hotfolders\\target', 'file://PRINECT-1/Jobs/job9/Hotfolders/target/', '\\\\PRINECT-1\\Jobs\\job9\\Hotfolders\\target\\'],
  ['URL', 'file://%5C%5CPRINECT-1%5CTestArea%5CHot%20Folders%5CSUB_1.jdf', 'file://PRINECT-1/TestArea/Hot%20Folders/SUB_1.jdf', '\\\\PRINECT-1\\TestArea\\Hot Folders\\SUB_1.jdf'],
  ['URL', 'file://file:/c:/program1/editor/Product3.jdf', 'file:///c:/program1/editor/Product3.jdf', 'C:\\program1\\editor\\Product3.jdf'],
  ['URL', 'file://file:/E:/docs/a.jdf', 'file:///E:/docs/a.jdf', 'E:\\docs\\a.jdf'],
];
const REFUSED: Array<['Directory' | 'URL', string]> = [
  ['URL', 'E:\\JDFs\\Heidelberg%20Prinect_001.ppf'],
  ['Directory', 'file:///Jobs\\Current\\'],
];

const attr = (v: string) => v.replace(/&/g, '&amp;').replace(/"/g, '&quot;');
const resource = ([a, v]: ['Directory' | 'URL', string], i: number) => a === 'Directory'
  ? `<RunList ID="R${i}" Class="Parameter" Status="Available" Directory="${attr(v)}"><LayoutElement><FileSpec URL="a.pdf"/></LayoutElement></RunList>`
  : `<RunList ID="R${i}" Class="Parameter" Status="Available"><LayoutElement><FileSpec URL="${attr(v)}"/></LayoutElement></RunList>`;
const TICKET = `<?xml version="1.0" encoding="UTF-8"?>
<JDF xmlns="http://www.CIP4.org/JDFSchema_1_1" Type="Product" ID="n" JobPartID="p" Status="Waiting" Version="1.3">
  <ResourcePool>
    ${[...FIXED.map(([a, v]) => [a, v] as ['Directory' | 'URL', string]), ...REFUSED].map(resource).join('\n    ')}
  </ResourcePool>
</JDF>
`;

test('a Windows path every reading agrees on is fixed, and the fixed ticket validates clean there', async () => {
  const file = path.join(dir, 'windows.jdf');
  writeFileSync(file, TICKET);
  const report = validateTicket(new Uint8Array(readFileSync(file)), { documentUri: pathToFileURL(file).href });
  for (const [attribute, value, fixed] of FIXED) {
    const ref = report.references.find((r) => r.attribute === attribute && r.value === value)!;
    assert.is(ref.fixed, fixed, `${value}: reported fixed`);
    assert.is(ref.fixRefused, undefined);
  }
  for (const [attribute, value] of REFUSED) {
    const ref = report.references.find((r) => r.attribute === attribute && r.value === value)!;
    assert.is(ref.fixed, undefined, `${value}: two meanings, not fixed`);
    assert.ok(ref.fixRefused !== undefined);
  }
  const r = await runCli(['fix', file]);
  assert.is(r.status, 1, 'the refused values leave their errors');
  const written = readFileSync(file, 'utf8');
  for (const [attribute, , fixed] of FIXED) assert.ok(written.includes(`${attribute}="${fixed}"`), `fix wrote ${fixed}`);
  for (const [attribute, value] of REFUSED) assert.ok(written.includes(`${attribute}="${attr(value)}"`), `fix left ${value}`);
  const again = validateTicket(new Uint8Array(readFileSync(file)), { documentUri: pathToFileURL(file).href });
  for (const [attribute, , fixed] of FIXED) {
    const ref = again.references.find((x) => x.attribute === attribute && x.value === fixed)!;
    assert.equal(ref.findings.filter((f) => f.severity === 'error').map((f) => f.code), [], `${fixed} validates with no error`);
  }
});

const python = spawnSync('python3', ['--version']).status === 0;
test('Python\'s nturl2path reads each fixed URL as the Windows path the value was written for', () => {
  if (!python) return console.log('  note: python3 is absent; nturl2path not asked');
  const urls = FIXED.map(([, , fixed]) => fixed.slice('file:'.length));
  const out = spawnSync('python3', ['-c', 'import sys, json, nturl2path; print(json.dumps([nturl2path.url2pathname(u) for u in sys.argv[1:]]))', ...urls], { encoding: 'utf8' });
  const paths = JSON.parse(out.stdout) as string[];
  // nturl2path keeps a UNC folder's trailing "\" and drops a drive folder's: compared without it.
  const bare = (p: string) => p.replace(/\\$/, '').toLowerCase();
  assert.equal(paths.map(bare), FIXED.map(([, , , windows]) => bare(windows)));
});

test.after(removeTempFolders);
test.run();
