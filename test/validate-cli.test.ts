import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Ajv } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { projectRoot, removeTempFolders, tempFolder } from './helpers.js';
import { sarifSchema } from './sarif-schema.js';
import { runCli } from './in-process.js';

const root = fileURLToPath(projectRoot);
const run = (args: string[], input?: string) => runCli(args, { encoding: 'utf8', cwd: root, ...(input !== undefined ? { input } : {}) });

const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;
const ajv = addFormats(new Ajv({ allErrors: true, strict: false }));
const reportSchema = ajv.compile<any>(JSON.parse(readFileSync(path.join(root, 'schemas/report.schema.json'), 'utf8')));

test('validate samples/ --format json: valid against schemas/report.schema.json', async () => {
  const r = await run(['validate', 'samples', '--format', 'json']);
  assert.is(r.status, 1, r.stderr);
  const report: any = JSON.parse(r.stdout);
  assert.ok(reportSchema(report), JSON.stringify(reportSchema.errors, null, 1));
  // Every ticket and package in samples/ (a package reports each of its parts under its own path; its zip is a job package).
  const expected = readdirSync(path.join(root, 'samples')).filter((n) => /\.(jdf|xjdf|jmf|xjmf|xml|ptk|mjm|mjd|zip)$/i.test(n)).sort();
  assert.equal([...new Set(report.files.map((f: any) => path.basename(f.path)))], expected);
  assert.ok(report.files.every((f: any) => f.documentUri.startsWith(pathToFileURL(path.join(root, 'samples')).href)));
});

test('the report schema rejects what it should (it is not vacuous)', async () => {
  assert.not.ok(reportSchema({ tool: { name: 'jdf-filespec', version: '1' }, files: [{ path: 'a', encoding: 'UTF-8', references: [{ element: 'x' }], findings: [] }], summary: { files: 1, references: 1, error: 0, warning: 0, info: 0 } }));
});

test('validate samples/ --format sarif: valid SARIF 2.1.0 with rules, results, regions and fixes', async () => {
  const r = await run(['validate', 'samples', '--format', 'sarif']);
  const sarif: any = JSON.parse(r.stdout);
  assert.ok(sarifSchema(sarif), JSON.stringify(sarifSchema.errors, null, 1));
  const results = sarif.runs[0].results;
  const rules = sarif.runs[0].tool.driver.rules;
  assert.ok(results.length > 10);
  for (const res of results) assert.is(rules[res.ruleIndex].id, res.ruleId);
  const space = results.find((x: any) => x.ruleId === 'unescaped-space' && x.locations[0].physicalLocation.artifactLocation.uri === 'samples/table4-bad.jdf' && x.locations[0].physicalLocation.artifactLocation.uriBaseId === '%SRCROOT%');
  // The region ends where the value ends: column 61, just past 'a.pdf' on the sample's line 11 (the value starts at 37).
  assert.equal(space.locations[0].physicalLocation.region, { startLine: 11, startColumn: 50, endLine: 11, endColumn: 61 });
  assert.is(space.fixes[0].artifactChanges[0].replacements[0].insertedContent.text, 'file:///c:/my%20docs/a.pdf');
  assert.not.ok(sarifSchema({ version: '2.1.0', runs: [{ tool: { driver: { name: 'x' } }, results: [{ message: { text: 'm' }, level: 'bogus' }] }] }), 'the SARIF schema rejects a bad level');
});

test('validate text output: grouped by file, line:column severity message code, and a summary', async () => {
  const r = await run(['validate', 'samples/table4-bad.jdf']);
  assert.is(r.status, 1);
  const lines = r.stdout.split('\n');
  assert.is(lines[0], 'samples/table4-bad.jdf');
  assert.match(r.stdout, /\n {2}11:50 +error +The URL holds a space.* {2}unescaped-space\n/);
  assert.match(lines[lines.length - 2]!, /^1 file, 9 references: \d+ errors, \d+ warnings, 0 info$/);
});

test('validate --quiet shows errors only; clean tickets exit 0', async () => {
  const q = await run(['validate', 'samples/rref.jdf', '--quiet']);
  assert.not.match(q.stdout, /warning /);
  assert.match(q.stdout, /dangling-rref/);
  assert.is((await run(['validate', 'samples/appendix-example.jdf'])).status, 0);
  assert.is((await run(['validate', 'samples/hot-folder.jdf', '--platform', 'unix'])).status, 0);
});

test('validate - reads standard input: relative URLs unresolved without --base, resolved with it', async () => {
  const ticket = readFileSync(path.join(root, 'samples/hot-folder.jdf'), 'utf8');
  const without = await run(['validate', '-', '--format', 'json'], ticket);
  const refs = JSON.parse(without.stdout).files[0].references;
  assert.equal(refs.map((x: any) => [x.baseSource, x.resolved]), [['none', null], ['none', null]]);
  assert.match((await run(['validate', '-'], ticket)).stdout, /no-base/);
  const withBase = JSON.parse((await run(['validate', '-', '--base', 'file:///srv/hot/', '--format', 'json'], ticket)).stdout);
  assert.equal(withBase.files[0].references.map((x: any) => x.resolved), ['file:///srv/hot/a.pdf', 'file:///srv/hot/art/logo.eps']);
});

test('validate: a folder is searched recursively; an unreadable path exits 2 after the rest is reported', async () => {
  const dir = tempFolder('jfs-');
  writeFileSync(path.join(dir, 'ok.jdf'), '<JDF><ResourcePool><FileSpec URL="a.pdf"/></ResourcePool></JDF>');
  writeFileSync(path.join(dir, 'broken.jdf'), '<JDF><ResourcePool></JDF>');
  writeFileSync(path.join(dir, 'notes.txt'), 'not a ticket');
  const r = await run(['validate', dir, path.join(dir, 'missing.jdf'), '--format', 'json']);
  assert.is(r.status, 2);
  assert.match(r.stderr, /cannot read .*missing\.jdf/);
  const report: any = JSON.parse(r.stdout);
  assert.equal(report.files.map((f: any) => path.basename(f.path)), ['broken.jdf', 'ok.jdf']);
  assert.is(report.files[0].findings[0].code, 'xml-malformed');
  assert.is(report.files[1].references[0].resolved, pathToFileURL(path.join(dir, 'a.pdf')).href);
});

test('validate --max-bytes reports a larger file without reading it', async () => {
  const r = await run(['validate', 'samples/appendix-example.jdf', '--max-bytes', '100', '--format', 'json']);
  assert.is(JSON.parse(r.stdout).files[0].findings[0].code, 'file-too-large');
  assert.is(r.status, 1);
});

test('validate --jobs: worker threads give the same report, in the same order, as one thread', async () => {
  const dir = tempFolder('jfs-jobs-');
  for (let i = 0; i < 240; i++) writeFileSync(path.join(dir, `t${String(i).padStart(3, '0')}.jdf`), `<JDF Version="1.4"><ResourcePool><RunList Directory="file:///srv/${i}/"><LayoutElement><FileSpec URL="${i % 7 === 0 ? 'a b' : 'a'}.pdf"/></LayoutElement></RunList></ResourcePool></JDF>`);
  const one = await run(['validate', dir, '--format', 'json', '--jobs', '1']);
  const two = await run(['validate', dir, '--format', 'json', '--jobs', '2']);
  const auto = await run(['validate', dir, '--format', 'json']);
  assert.is(one.status, 1);
  assert.ok(one.stdout.length > 1000);
  const text = await run(['validate', dir]);
  assert.is(text.stderr, '', 'no progress line in a pipe');
  assert.is(two.stdout, one.stdout);
  assert.is(auto.stdout, one.stdout);
});

test('validate --strict-xml also finds malformed attributes on elements that hold no reference', async () => {
  const dir = tempFolder('jfs-strict-');
  const file = path.join(dir, 't.jdf');
  writeFileSync(file, '<JDF Version="1.4"><ResourcePool><Component ID="C1" ID="C2"/><FileSpec URL="a.pdf"/></ResourcePool></JDF>');
  assert.is((await run(['validate', file, '--platform', 'unix'])).status, 0);
  const strict = await run(['validate', file, '--strict-xml', '--format', 'json']);
  assert.is(JSON.parse(strict.stdout).files[0].findings[0].code, 'xml-malformed');
});

test('validate usage errors exit 2', async () => {
  assert.is((await run(['validate', 'samples', '--max-bytes'])).status, 2);
  assert.is((await run(['validate', 'samples', '--format', 'xml'])).status, 2);
});

test.after(removeTempFolders);
test.run();
