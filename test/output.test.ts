// Reports are written in pieces (a million references is more text than one string may hold). The oracle for
// the JSON pieces is JSON.stringify itself; for the CLI, a parse of what it wrote.
import fc from 'fast-check';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { validateTicket } from '../src/index.js';
import { jsonPieces } from '../src/report/json-pieces.js';
import { projectRoot, removeTempFolders, tempFolder } from './helpers.js';
import { runCli } from './in-process.js';

const RUNS = Number(process.env.FC_RUNS ?? 2000);
const join = (pieces: Iterable<string>) => [...pieces].join('');

test('jsonPieces is JSON.stringify(value, null, 2) on every sample report, whatever the piece limit', async () => {
  const dir = new URL('samples/', projectRoot);
  for (const name of readdirSync(dir).filter((n) => /\.(jdf|xjdf|jmf)$/.test(n))) {
    const report = { files: [{ path: name, ...validateTicket(readFileSync(new URL(name, dir)), { documentUri: 'file:///srv/hot/t.jdf' }) }] };
    const expected = JSON.stringify(report, null, 2);
    for (const limit of [0, 1, 3, 64]) assert.is(join(jsonPieces(report, '', limit)), expected, `${name} at ${limit}`);
  }
});

test('jsonPieces is JSON.stringify(value, null, 2) on random values (undefined, empty and nested containers)', async () => {
  const leaf = fc.oneof(fc.jsonValue({ maxDepth: 1 }), fc.constant(undefined), fc.constant([]), fc.constant({}));
  const value = fc.letrec((tie) => ({
    node: fc.oneof({ depthSize: 'small' }, leaf, fc.array(tie('node'), { maxLength: 6 }), fc.dictionary(fc.string({ maxLength: 4 }), tie('node'), { maxKeys: 5 })),
  })).node;
  fc.assert(fc.property(value, fc.nat({ max: 4 }), (v, limit) => {
    fc.pre(v !== undefined);
    assert.is(join(jsonPieces(v, '', limit)), JSON.stringify(v, null, 2));
  }), { numRuns: RUNS });
});

test('jsonPieces at an indent is JSON.stringify(value, null, 2) with each line after the first at that indent', async () => {
  const leaf = fc.oneof(fc.jsonValue({ maxDepth: 1 }), fc.constant(undefined), fc.constant([]), fc.constant({}), fc.constant(new Date(0)));
  const value = fc.letrec((tie) => ({
    node: fc.oneof({ depthSize: 'small' }, leaf, fc.array(tie('node'), { maxLength: 6 }), fc.dictionary(fc.string({ maxLength: 4 }), tie('node'), { maxKeys: 5 })),
  })).node;
  const indent = fc.oneof(fc.nat({ max: 6 }).map((n) => ' '.repeat(n)), fc.constantFrom('\t', ' \t', '    '));
  fc.assert(fc.property(value, indent, fc.nat({ max: 80 }), (v, at, limit) => {
    fc.pre(v !== undefined);
    assert.is(join(jsonPieces(v, at, limit)), JSON.stringify(v, null, 2).split('\n').join('\n' + at));
  }), { numRuns: RUNS });
});

const dir = tempFolder('jfs-output-');
const big = path.join(dir, 'big.jdf');
const count = 3000; // about 1.3 million characters of JSON: more than one block of the writer
writeFileSync(big, `<JDF><ResourcePool><RunList Directory="file:///srv/jobs/">${Array.from({ length: count }, (_, i) => `<LayoutElement><FileSpec URL="p ${i}.pdf"/></LayoutElement>`).join('\n')}</RunList></ResourcePool></JDF>`);

test('validate --format json and sarif: a report written in several blocks parses whole', async () => {
  const json = await runCli(['validate', big, '--platform', 'unix', '--format', 'json'], { encoding: 'utf8', maxBuffer: 1 << 28 });
  assert.is(json.status, 1, json.stderr);
  assert.ok(json.stdout.length > 1 << 20);
  const report = JSON.parse(json.stdout);
  assert.is(report.files[0].references.length, count + 1);
  assert.equal(report.files[0].references[count].value, `p ${count - 1}.pdf`);
  const sarif = await runCli(['validate', big, '--platform', 'unix', '--format', 'sarif'], { encoding: 'utf8', maxBuffer: 1 << 28 });
  assert.is(sarif.status, 1, sarif.stderr);
  assert.is(JSON.parse(sarif.stdout).runs[0].results.length, count);
});

test('validate as text: more than one piece of lines, every finding once, in order, then the summary', async () => {
  const r = await runCli(['validate', big, '--platform', 'unix'], { encoding: 'utf8', maxBuffer: 1 << 28 });
  assert.is(r.status, 1, r.stderr);
  const lines = r.stdout.split('\n');
  assert.is(lines[0], big);
  const findingLines = lines.filter((l) => l.endsWith('unescaped-space'));
  assert.is(findingLines.length, count);
  // Each FileSpec is on its own line (line i + 1 for FileSpec i), so the findings must come out by line number.
  assert.equal(findingLines.map((l) => Number(l.trim().split(':')[0])), Array.from({ length: count }, (_, i) => i + 1));
  assert.is(lines.at(-2), `1 file, ${count + 1} references: ${count} errors, 0 warnings, 0 info`);
  assert.is(lines.at(-1), '');
});

test.after(removeTempFolders);
test.run();
