// A finding offers a fix (its `fix`: in the JSON report, SARIF's fixes, the text report's "fix:" lines, the page)
// only where `fix` would write it: never on a value whose fix the report refuses (`fixRefused`), and on a value it
// fixes, never a step that alone would leave the value naming another file. The refused values: a raw "#" or "?"
// (RFC 3986 3.5: the rest is a fragment, so no reading of the original names the escaped file). The oracle for
// the fixed one is RFC 8089 E.2 (a drive letter is the first segment of a file URL's path) and what fix wrote.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { removeTempFolders, tempFolder } from './helpers.js';
import { runCli } from './in-process.js';

const dir = tempFolder('jfs-fix-offered-');

const REFUSED = ['file:///c:/a b#c.pdf', 'file:///c:/a b?c.pdf'];
const FIXED = 'E:\\Jobs\\a.pdf';
const TICKET = `<?xml version="1.0" encoding="UTF-8"?>
<JDF xmlns="http://www.CIP4.org/JDFSchema_1_1" Type="Product" ID="n" JobPartID="p" Status="Waiting" Version="1.3">
  <ResourcePool>
    <RunList ID="RL1" Class="Parameter" Status="Available"><LayoutElement><FileSpec URL="${REFUSED[0]}"/></LayoutElement></RunList>
    <RunList ID="RL2" Class="Parameter" Status="Available"><LayoutElement><FileSpec URL="${REFUSED[1]}"/></LayoutElement></RunList>
    <RunList ID="RL3" Class="Parameter" Status="Available"><LayoutElement><FileSpec URL="${FIXED}"/></LayoutElement></RunList>
  </ResourcePool>
</JDF>
`;

interface Ref { value: string; line: number; fixed?: string; fixRefused?: { fixed: string }; findings: Array<{ code: string; fix?: string }> }

test('no finding offers a fix on a value whose fix is refused, in JSON, SARIF and text', async () => {
  const file = path.join(dir, 'refused.jdf');
  writeFileSync(file, TICKET);
  const json = JSON.parse((await runCli(['validate', '--format', 'json', file])).stdout) as { files: Array<{ references: Ref[] }> };
  const refs = json.files[0]!.references;
  const refused = refs.filter((r) => r.fixRefused !== undefined);
  assert.equal(refused.map((r) => r.value), REFUSED);
  for (const r of refused) assert.equal(r.findings.filter((f) => f.fix !== undefined).map((f) => f.code), [], `${r.value}: no finding's fix`);

  const sarif = JSON.parse((await runCli(['validate', '--format', 'sarif', file])).stdout) as { runs: Array<{ results: Array<{ locations: Array<{ physicalLocation: { region?: { startLine: number } } }>; fixes?: unknown[] }> }> };
  const refusedLines = new Set(refused.map((r) => r.line));
  const offered = sarif.runs[0]!.results.filter((r) => refusedLines.has(r.locations[0]!.physicalLocation.region!.startLine) && r.fixes !== undefined);
  assert.is(offered.length, 0, 'SARIF offers no fix on a refused value');

  const text = (await runCli(['validate', file])).stdout;
  const fixLines = text.split('\n').map((l) => l.trim()).filter((l) => l.startsWith('fix: '));
  assert.ok(fixLines.length > 0);
  assert.equal(fixLines.filter((l) => !l.startsWith('fix: file:///E:')), [], 'the text report shows only the fixed value\'s fixes');

  // What fix does: leaves both.
  const result = await runCli(['fix', file]);
  assert.is(result.status, 1);
  const written = readFileSync(file, 'utf8');
  for (const v of REFUSED) assert.ok(written.includes(`URL="${v}"`), `${v} left as it was`);
});

test('on a value fix writes, no finding offers a step fix would not write', async () => {
  const file = path.join(dir, 'fixed.jdf');
  writeFileSync(file, TICKET);
  const json = JSON.parse((await runCli(['validate', '--format', 'json', file])).stdout) as { files: Array<{ references: Ref[] }> };
  const ref = json.files[0]!.references.find((r) => r.value === FIXED)!;
  // RFC 8089 E.2: the drive letter begins the path of a file URL with an empty authority.
  assert.is(ref.fixed, 'file:///E:/Jobs/a.pdf');
  const fixes = ref.findings.filter((f) => f.fix !== undefined);
  assert.ok(fixes.length >= 2, 'the backslash and the drive letter each offer a fix');
  // The backslash fix alone ("E:/Jobs/a.pdf") reads as a URL of the scheme "e", another file: not offered; the
  // backslash finding offers the value's fix. (The drive letter's alone, file:///E:\Jobs\a.pdf, names E:\Jobs\a.pdf
  // in every reading that names a file: offered.)
  assert.not.ok(fixes.some((f) => f.fix === 'E:/Jobs/a.pdf'));
  assert.is(fixes.find((f) => f.code === 'backslash')?.fix, 'file:///E:/Jobs/a.pdf', 'backslash offers the value\'s fix');
  await runCli(['fix', file]);
  assert.ok(readFileSync(file, 'utf8').includes('URL="file:///E:/Jobs/a.pdf"'), 'and fix wrote it');
});

test.after(removeTempFolders);
test.run();
