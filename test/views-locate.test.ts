// Where a missing file really is, on real folders: names written on disk in other case (any component), NFD,
// with a literal %20, in Latin-1 bytes; the Directory's last segment dropped or doubled; never guessed when two
// names fit; at most one listing per folder.
import { mkdirSync, readFileSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Ajv } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { Locator } from '../src/node/locate.js';
import { projectRoot, removeTempFolders, tempFolder } from './helpers.js';
import { runCli } from './in-process.js';

const top = realpathSync(tempFolder('jfs-locate-'));
const job = path.join(top, 'job');
mkdirSync(path.join(job, 'Pages'), { recursive: true });
mkdirSync(path.join(job, 'job'));
mkdirSync(path.join(job, 'twins'));
const files = ['Pages/P1.pdf', 'Mu\u0308ller.pdf', 'a%20b.pdf', 'c d.pdf', 'd.pdf', 'twins/x.pdf', 'twins/X.pdf', 'job/e.pdf'];
for (const f of files) writeFileSync(path.join(job, f), '%PDF');
writeFileSync(Buffer.concat([Buffer.from(path.join(job, 'caf')), Buffer.from([0xe9]), Buffer.from('.pdf')]), '%PDF');
const outside = realpathSync(tempFolder('jfs-locate-out-'));
writeFileSync(path.join(outside, 'secret.pdf'), '%PDF');
symlinkSync(outside, path.join(job, 'Link'));
const jobUrl = pathToFileURL(job).href;
const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;
const reportSchema = addFormats(new Ajv({ allErrors: true, strict: false })).compile<any>(JSON.parse(readFileSync(path.join(fileURLToPath(projectRoot), 'schemas/report.schema.json'), 'utf8')));

async function missing(urls: string[], directory = jobUrl + '/', extra: string[] = []) {
  const file = path.join(top, `t${Math.random().toString(36).slice(2)}.jdf`);
  writeFileSync(file, `<JDF Version="1.4"><ResourcePool><RunList Directory="${directory}">${urls.map((u) => `<LayoutElement><FileSpec URL="${u}"/></LayoutElement>`).join('')}</RunList></ResourcePool></JDF>`);
  const r = await runCli(['validate', file, '--check-exists', '--format', 'json', '--platform', 'unix', ...extra], { encoding: 'utf8' });
  const report = JSON.parse(r.stdout);
  assert.ok(reportSchema(report), JSON.stringify(reportSchema.errors));
  const refs = report.files[0].references.filter((x: any) => x.attribute === 'URL');
  return Object.fromEntries(refs.map((x: any) => {
    const f = x.findings.find((y: any) => y.code === 'file-missing');
    // The URL that opens the file found is a suggestion: `fix` never checks the file system, so the finding has no fix.
    assert.equal(f?.fix, undefined, `${x.value}: file-missing carries no fix`);
    const s = f?.suggestions;
    if (s !== undefined) assert.equal(s.length, 1, `${x.value}: one suggestion`);
    return [x.value, f ? { message: f.message, suggested: s?.[0]?.fix, desc: s?.[0]?.desc } : null];
  }));
}

test('other case in every component, NFD on disk, a literal %20, escaped twice', async () => {
  const r = await missing(['pages/p1.pdf', 'M%C3%BCller.pdf', 'a%20b.pdf', 'c%2520d.pdf']);
  assert.equal(r['pages/p1.pdf'].suggested, 'Pages/P1.pdf');
  assert.match(r['pages/p1.pdf'].message, `but there is ${path.join(job, 'Pages', 'P1.pdf')} (other case in 'pages'; other case in 'p1.pdf')`);
  assert.equal(r['pages/p1.pdf'].desc, `the file ${path.join(job, 'Pages', 'P1.pdf')} (other case in 'pages'; other case in 'p1.pdf')`);
  assert.equal(r['M%C3%BCller.pdf'].suggested, 'Mu%CC%88ller.pdf');
  assert.match(r['M%C3%BCller.pdf'].message, 'NFD on disk, NFC in the URL');
  assert.equal(r['a%20b.pdf'].suggested, 'a%2520b.pdf');
  assert.match(r['a%20b.pdf'].message, 'literal');
  assert.equal(r['c%2520d.pdf'].suggested, 'c%20d.pdf');
  assert.match(r['c%2520d.pdf'].message, 'escaped twice');
});

test('Latin-1 bytes on disk: named, no URL fix (rename the file)', async () => {
  const r = await missing(['caf%C3%A9.pdf']);
  assert.match(r['caf%C3%A9.pdf'].message, 'Latin-1 bytes');
  assert.equal(r['caf%C3%A9.pdf'].suggested, undefined);
});

test("the Directory's last segment dropped or doubled", async () => {
  const dropped = await missing(['e.pdf'], `${jobUrl}/job`);
  assert.equal(dropped['e.pdf'].suggested, 'job/e.pdf');
  assert.match(dropped['e.pdf'].message, "no trailing '/'");
  const doubled = await missing(['job/d.pdf']);
  assert.equal(doubled['job/d.pdf'].suggested, 'd.pdf');
  assert.match(doubled['job/d.pdf'].message, "repeats the Directory's last segment 'job'");
});

test('two names fit: nothing is guessed; nothing at all: plain file-missing', async () => {
  const r = await missing(['TWINS/x.PDF', 'nowhere/none.pdf']);
  assert.equal(r['TWINS/x.PDF'], { message: `No file at ${path.join(job, 'TWINS', 'x.PDF')}; put the file there or correct the URL.`, suggested: undefined, desc: undefined });
  assert.equal(r['nowhere/none.pdf'].suggested, undefined);
});

test('with --root, a symbolic link out of the root is never followed to find a candidate', async () => {
  const r = await missing(['link/secret.pdf'], jobUrl + '/', ['--root', top]);
  assert.equal(r['link/secret.pdf']?.suggested, undefined);
  const free = await missing(['link/secret.pdf']);
  assert.equal(free['link/secret.pdf'].suggested, 'Link/secret.pdf', 'without --root the link is a folder like any other');
});

test('bounded: one listing per folder, however many names are looked for', async () => {
  const locator = new Locator(undefined);
  for (const name of ['pages/p1.pdf', 'pages/P1.PDF', 'PAGES/p1.pdf', 'm\u00fcller.pdf', 'A%20B.pdf']) await locator.find(path.join(job, name));
  assert.equal(locator.listed, 2, 'job/ and job/Pages/');
});

test.after(removeTempFolders);
test.run();
