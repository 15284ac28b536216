// A value with two plausible meanings is never fixed silently (issue 28 section 5): `file:/host/share/x.pdf` may be
// the UNC share \\host\share (a "/" missing before the server, RFC 8089 E.3.1) or the folder /host on this machine
// (RFC 8089 2 reads "file:/path" so). Both are offered as suggestions, ESLint's word, separate from `fix`: in JSON
// (valid against schemas/report.schema.json), in SARIF as two fixes (valid against the SARIF 2.1.0 schema, which
// lets `fixes` hold several), in the text report; `fix` applies neither. A path whose first folder every POSIX or
// macOS root holds (`/Users/...`: FHS 3.0, macOS) has one meaning and is fixed as before.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { projectRoot, removeTempFolders, tempFolder } from './helpers.js';
import { runCli } from './in-process.js';
import { sarifSchema } from './sarif-schema.js';

const dir = tempFolder('jfs-suggestions-');
const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;
const reportSchema = addFormats(new Ajv({ allErrors: true, strict: false })).compile<any>(JSON.parse(readFileSync(path.join(fileURLToPath(projectRoot), 'schemas/report.schema.json'), 'utf8')));

const TWO = 'file:/host/share/dir1/x.pdf';
const ONE = 'file:/Users/me/a.pdf';
const TICKET = `<?xml version="1.0" encoding="UTF-8"?>
<JDF xmlns="http://www.CIP4.org/JDFSchema_1_1" Type="Product" ID="n" JobPartID="p" Status="Waiting" Version="1.4">
  <ResourcePool>
    <RunList ID="R1" Class="Parameter" Status="Available"><LayoutElement><FileSpec URL="${TWO}"/></LayoutElement></RunList>
    <RunList ID="R2" Class="Parameter" Status="Available"><LayoutElement><FileSpec URL="${ONE}"/></LayoutElement></RunList>
  </ResourcePool>
</JDF>
`;
const LOCAL = 'file:///host/share/dir1/x.pdf';
const UNC = 'file://host/share/dir1/x.pdf';

test('JSON: two suggestions and no fix on the value with two meanings; the report is valid', async () => {
  const file = path.join(dir, 'json.jdf');
  writeFileSync(file, TICKET);
  const report = JSON.parse((await runCli(['validate', '--format', 'json', file])).stdout);
  assert.ok(reportSchema(report), JSON.stringify(reportSchema.errors));
  const refs = report.files[0].references as Array<{ value: string; fixed?: string; findings: Array<{ code: string; fix?: string; suggestions?: Array<{ desc: string; fix: string }> }> }>;
  const two = refs.find((r) => r.value === TWO)!;
  const f = two.findings.find((x) => x.code === 'file-without-authority')!;
  assert.is(f.fix, undefined);
  assert.equal(f.suggestions!.map((s) => s.fix), [LOCAL, UNC]);
  assert.ok(f.suggestions!.every((s) => s.desc.length > 0));
  assert.is(two.fixed, undefined, 'not fixed');
  const one = refs.find((r) => r.value === ONE)!;
  assert.is(one.fixed, 'file:///Users/me/a.pdf', 'one meaning: fixed as before');
  assert.is(one.findings.find((x) => x.code === 'file-without-authority')!.suggestions, undefined);
});

test('SARIF: each suggestion a fix of the result; valid against SARIF 2.1.0', async () => {
  const file = path.join(dir, 'sarif.jdf');
  writeFileSync(file, TICKET);
  const sarif = JSON.parse((await runCli(['validate', '--format', 'sarif', file])).stdout);
  assert.ok(sarifSchema(sarif), JSON.stringify(sarifSchema.errors));
  type Fix = { description: { text: string }; artifactChanges: Array<{ replacements: Array<{ insertedContent: { text: string } }> }> };
  const results = sarif.runs[0].results as Array<{ ruleId: string; locations: Array<{ physicalLocation: { region: { startLine: number } } }>; fixes?: Fix[] }>;
  const r = results.find((x) => x.ruleId === 'file-without-authority' && x.locations[0]!.physicalLocation.region.startLine === 4)!;
  assert.equal(r.fixes!.map((x) => x.artifactChanges[0]!.replacements[0]!.insertedContent.text), [LOCAL, UNC]);
  assert.ok(r.fixes!.every((x) => x.description.text.startsWith('Suggestion: ')));
});

test('text: the suggestions shown; fix applies neither', async () => {
  const file = path.join(dir, 'fix.jdf');
  writeFileSync(file, TICKET);
  const text = (await runCli(['validate', file])).stdout;
  assert.ok(text.includes(`): ${LOCAL}`) && text.includes(`): ${UNC}`), text);
  const r = await runCli(['fix', file]);
  assert.is(r.status, 1, 'the error with suggestions is left');
  const written = readFileSync(file, 'utf8');
  assert.ok(written.includes(`URL="${TWO}"`), 'left as written');
  assert.ok(written.includes('URL="file:///Users/me/a.pdf"'), 'the one-meaning value fixed');
});

test.after(removeTempFolders);
test.run();
