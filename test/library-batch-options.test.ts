// validateBatch and validateSources from jdf-filespec/node's entry (src/node/index.ts), with their options object
// (`{ maxBytes, jobs, local, onProgress, ... }`), on tickets made here; what each must say comes from the tickets.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { validateBatch, validateSources, type TicketSource } from '../src/node/index.js';
import { projectRoot, removeTempFolders, tempFolder } from './helpers.js';

test.after(removeTempFolders);

const ticket = (url: string, pad = '') => `<?xml version="1.0" encoding="UTF-8"?>
<JDF xmlns="http://www.CIP4.org/JDFSchema_1_1" ID="n1" Type="Product" Version="1.4" Status="Waiting">${pad}
  <ResourcePool>
    <RunList ID="RL1" Class="Parameter" Status="Available">
      <LayoutElement>
        <FileSpec URL="${url}"/>
      </LayoutElement>
    </RunList>
  </ResourcePool>
</JDF>
`;

/** The fixture: a clean ticket, one whose URL holds a space, one over LIMIT bytes, and a path with no file. */
const LIMIT = 2000;
function fixture(): { folder: string; sources: TicketSource[] } {
  const folder = tempFolder('jdf-batch-options-');
  const write = (name: string, text: string) => {
    writeFileSync(path.join(folder, name), text);
    return { path: path.join(folder, name), documentUri: pathToFileURL(path.join(folder, name)).href };
  };
  const clean = write('clean.jdf', ticket('a.pdf'));
  const spaced = write('spaced.jdf', ticket('my docs/a.pdf'));
  const big = write('big.jdf', ticket('a.pdf', `\n<!-- ${'x'.repeat(LIMIT)} -->`));
  const missing = { path: path.join(folder, 'missing.jdf'), documentUri: pathToFileURL(path.join(folder, 'missing.jdf')).href };
  return { folder, sources: [clean, spaced, missing, big] };
}

/** What the fixture's reports must say, from the tickets: codes by file, the one reference's value and where it resolves. */
function expectFixture(files: any[], unreadable: any[], sources: TicketSource[]) {
  const [clean, spaced, missing, big] = sources;
  assert.equal(files.map((f) => f.path), [clean!.path, spaced!.path, big!.path]);
  // "a.pdf" against the ticket's own URL (RFC 3986 5.2; WHATWG URL as the oracle): no finding.
  assert.equal(files[0].references.map((r: any) => [r.value, r.resolved, r.line]), [['a.pdf', new URL('a.pdf', clean!.documentUri).href, 6]]);
  assert.equal(files[0].findings, []);
  assert.equal(files[0].references[0].findings, []);
  // A space must be escaped (JDF file-URL appendix; RFC 3986 2.1): the reference on line 6 says so.
  assert.equal(files[1].references.map((r: any) => [r.value, r.line]), [['my docs/a.pdf', 6]]);
  assert.ok(files[1].references[0].findings.some((f: any) => f.code === 'unescaped-space'), JSON.stringify(files[1].references[0].findings));
  // Over maxBytes: read no further, its one finding.
  assert.equal(files[2].findings.map((f: any) => f.code), ['file-too-large']);
  assert.equal(files[2].references, []);
  assert.equal(unreadable.map((u) => u.path), [missing!.path]);
}

test('validateBatch: the reports the tickets call for, each source taken up in turn', async () => {
  const { sources } = fixture();
  const calls: Array<[number, number]> = [];
  const byObject = await validateBatch(sources, { profile: 'jdf' }, { maxBytes: LIMIT, jobs: 1, onProgress: (done, total) => calls.push([done, total]) });
  expectFixture(byObject.files, byObject.unreadable, sources);
  assert.equal(calls, [0, 1, 2, 3].map((done) => [done, 4]));
});

test('validateBatch with two threads: the order of the sources, each report as with one', async () => {
  const { sources } = fixture();
  // Three chunks' worth (a worker claims eight at a time), so that a worker takes part.
  const many = Array.from({ length: 6 }, () => sources).flat();
  let progress = 0;
  const two = await validateBatch(many, { profile: 'jdf' }, { maxBytes: LIMIT, jobs: 2, onProgress: () => progress++ });
  const one = await validateBatch(many, { profile: 'jdf' }, { maxBytes: LIMIT, jobs: 1 });
  assert.is(two.files.length, 18);
  for (let i = 0; i < 6; i++) expectFixture(two.files.slice(3 * i, 3 * i + 3), two.unreadable.slice(i, i + 1), sources);
  assert.equal(JSON.parse(JSON.stringify(two)), JSON.parse(JSON.stringify(one)));
  assert.is(progress, 24);
});

test('options form: maxBytes left out is the ticket options\' maxBytes', async () => {
  const { sources } = fixture();
  const { files } = await validateBatch(sources, { profile: 'jdf', maxBytes: LIMIT });
  expectFixture(files, (await validateBatch(sources, {}, { maxBytes: LIMIT })).unreadable, sources);
});

test('validateSources: the reports in the order of the sources, each source taken up once', async () => {
  const { sources } = fixture();
  let taken = 0;
  const byObject = await validateSources(sources, { profile: 'jdf' }, { maxBytes: LIMIT, onTicket: () => taken++ });
  const files = byObject.filter((r) => !('reason' in r));
  expectFixture(files, byObject.filter((r) => 'reason' in r), sources);
  assert.is(taken, 4);
});

test('the README\'s jdf-filespec/node example, run as written, reports what its tickets hold', () => {
  const readme = readFileSync(new URL('README.md', projectRoot), 'utf8');
  const section = readme.slice(readme.indexOf('### Many tickets from Node'));
  let example = /```js\n([\s\S]*?)```/.exec(section)![1]!;
  // The package's own entry points (package.json "exports"), as an installed copy would resolve them.
  const exports = JSON.parse(readFileSync(new URL('package.json', projectRoot), 'utf8')).exports;
  for (const [name, entry] of [['jdf-filespec', exports['.'].import], ['jdf-filespec/node', exports['./node'].import]]) {
    example = example.replace(`'${name}'`, `'${new URL(entry, projectRoot).href}'`);
  }
  const folder = tempFolder('jdf-batch-readme-');
  mkdirSync(path.join(folder, 'tickets'));
  writeFileSync(path.join(folder, 'tickets', 'clean.jdf'), ticket('a.pdf'));
  writeFileSync(path.join(folder, 'tickets', 'a.pdf'), '%PDF-1.4\n');
  writeFileSync(path.join(folder, 'tickets', 'spaced.jdf'), ticket('my docs/a.pdf'));
  writeFileSync(path.join(folder, 'example.mjs'), example);
  const r = spawnSync(process.execPath, ['example.mjs'], { cwd: folder, encoding: 'utf8' });
  assert.is(r.status, 0, r.stderr);
  // Progress for each of the two tickets, then SARIF: the clean ticket's a.pdf is there; the other's URL holds a
  // space and, with checkExists, names a file that is not there.
  assert.is(r.stderr, '\r1/2\r2/2');
  const sarif = JSON.parse(r.stdout);
  const results = sarif.runs[0].results.map((x: any) => [path.basename(fileURLToPath(new URL(x.locations[0].physicalLocation.artifactLocation.uri, pathToFileURL(`${folder}/`)))), x.ruleId]).sort();
  assert.equal(results, [['spaced.jdf', 'file-missing'], ['spaced.jdf', 'unescaped-space']]);
});

test.run();
