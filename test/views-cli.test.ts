// validate with a view table, on real folders: the config found upward or named, fallbacks, mappedBy in
// JSON, SARIF and text, --map added to the config, network references never fetched, bad configs with line:column.
import { mkdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Ajv } from 'ajv';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { projectRoot, removeTempFolders, tempFolder } from './helpers.js';
import { runCli } from './in-process.js';

const top = realpathSync(tempFolder('jfs-views-'));
const jobs = path.join(top, 'mnt', 'jobs');
const archive = path.join(top, 'archive', 'jobs');
const hot = path.join(top, 'shop', 'hot');
for (const d of [path.join(jobs, '4711'), path.join(archive, '4711'), path.join(hot, '4711'), path.join(top, 'local-z')]) mkdirSync(d, { recursive: true });
writeFileSync(path.join(jobs, '4711', 'a.pdf'), '%PDF-1.4');
writeFileSync(path.join(archive, '4711', 'b.pdf'), '%PDF-1.4');
writeFileSync(path.join(hot, '4711', 'c.pdf'), '%PDF-1.4');
writeFileSync(path.join(top, 'local-z', 'z.pdf'), '%PDF-1.4');
const config = {
  machine: 'rip',
  views: { mis: { caseFolding: true }, rip: {}, web: {} },
  storage: { jobs: { mis: ['file://fileserver/Jobs/', 'file:///*:/Jobs/'], rip: [jobs + '/', archive + '/', './'], web: 'https://files.example.com/jobs/' } },
};
writeFileSync(path.join(top, 'shop', 'jdf-filespec.config.json'), JSON.stringify(config, null, 2));

const urls = [
  'file://FILESERVER/jobs/4711/a.pdf', // mis, folded; first fallback
  'file:///Q:/Jobs/4711/b.pdf', // mis by drive wildcard; second fallback
  'https://files.example.com/jobs/4711/c.pdf', // web; the hot folder
  'file://fileserver/Jobs/4711/d.pdf', // nowhere
  'https://cdn.example.com/x.pdf', // never fetched
  'file://otherhost/x.pdf', // no entry
  'file://fs2/Z/z.pdf', // --map
];
const ticket = `<JDF Version="1.4"><ResourcePool><RunList>${urls.map((u) => `<LayoutElement><FileSpec URL="${u}"/></LayoutElement>`).join('')}</RunList></ResourcePool></JDF>`;
writeFileSync(path.join(hot, 't.jdf'), ticket);

function run(args: string[], cwd = hot) {
  return runCli(['validate', ...args], { encoding: 'utf8', cwd });
}

const byValue = (stdout: string) => Object.fromEntries(JSON.parse(stdout).files[0].references.map((r: any) => [r.value, r]));

test('the config is found upward from the working folder; mappedBy and fallbacks in JSON', async () => {
  const r = await run(['t.jdf', '--check-exists', '--format', 'json', '--platform', 'unix', '--map', `file://fs2/Z/=${path.join(top, 'local-z')}`]);
  assert.equal(r.status, 1, r.stderr);
  const refs = byValue(r.stdout);
  const codes = (u: string) => refs[u].findings.map((f: any) => f.code);
  assert.equal(refs[urls[0]!].mappedBy, { view: 'mis', storage: 'jobs', entry: 'file://fileserver/Jobs/', index: 0, path: path.join(jobs, '4711', 'a.pdf'), machineEntry: jobs + '/' });
  assert.equal(refs[urls[1]!].mappedBy, { view: 'mis', storage: 'jobs', entry: 'file:///*:/Jobs/', index: 1, path: path.join(archive, '4711', 'b.pdf'), machineEntry: archive + '/' });
  assert.equal(refs[urls[2]!].mappedBy, { view: 'web', storage: 'jobs', entry: 'https://files.example.com/jobs/', index: 0, path: path.join(hot, '4711', 'c.pdf'), machineEntry: './' });
  assert.equal(refs[urls[3]!].mappedBy.path, path.join(jobs, '4711', 'd.pdf'), 'missing everywhere: the first fallback is named');
  assert.equal(refs[urls[6]!].mappedBy, { view: '--map', storage: '--map file://fs2/Z/', entry: 'file://fs2/Z/', index: 0, path: path.join(top, 'local-z', 'z.pdf'), machineEntry: `file://${path.join(top, 'local-z')}` });
  for (const u of [urls[0]!, urls[1]!, urls[2]!, urls[6]!]) assert.equal(codes(u).filter((c: string) => c !== 'consumers-disagree'), [], u);
  assert.ok(codes(urls[3]!).includes('file-missing'));
  assert.equal(codes(urls[4]!), ['remote-not-checked']);
  assert.match(refs[urls[4]!].findings[0].message, "on the host 'cdn.example.com'");
  assert.equal(refs[urls[5]!].mappedBy, undefined);
  assert.equal(codes(urls[5]!), ['not-checked']);
  assert.match(refs[urls[5]!].findings[0].message, 'no view of the config and no --map');
  const schema = new Ajv({ allErrors: true }).compile(JSON.parse(readFileSync(new URL('schemas/report.schema.json', projectRoot), 'utf8')));
  assert.ok(schema(JSON.parse(r.stdout)), JSON.stringify(schema.errors));
});

test('mappedBy without --check-exists, and in SARIF and text --references', async () => {
  const json = byValue((await run(['t.jdf', '--format', 'json'])).stdout);
  assert.equal(json[urls[0]!].mappedBy.view, 'mis');
  assert.equal(json[urls[0]!].findings.filter((f: any) => f.code === 'file-missing'), []);
  const sarif = JSON.parse((await run(['t.jdf', '--check-exists', '--format', 'sarif', '--platform', 'unix'])).stdout);
  const missing = sarif.runs[0].results.find((x: any) => x.ruleId === 'file-missing');
  assert.equal(missing.properties.mappedBy.entry, 'file://fileserver/Jobs/');
  const text = (await run(['t.jdf', '--references', '--platform', 'unix'])).stdout;
  assert.match(text, `mapped by view mis, storage jobs, entry file://fileserver/Jobs/ -> ${path.join(jobs, '4711', 'a.pdf')} (${jobs}/)`);
});

test('--config FILE from anywhere; a ticket path given from another folder', async () => {
  const r = await run([path.join(hot, 't.jdf'), '--config', path.join(top, 'shop', 'jdf-filespec.config.json'), '--format', 'json'], top);
  assert.equal(byValue(r.stdout)[urls[1]!].mappedBy.entry, 'file:///*:/Jobs/');
  const none = await run([path.join(hot, 't.jdf'), '--format', 'json'], top);
  assert.equal(byValue(none.stdout)[urls[1]!].mappedBy, undefined, 'no config above the working folder');
});

test('a bad config is a usage error (exit 2) naming file, line and column', async () => {
  const bad = path.join(top, 'bad.json');
  writeFileSync(bad, '{\n  "views": { "rip": {} },\n  "storage": { "jobs": { "rpi": "/x/" } }\n}\n');
  const r = await run(['t.jdf', '--config', bad]);
  assert.equal(r.status, 2);
  assert.equal(r.stdout, '');
  assert.match(r.stderr, `${bad}:3:26: storage.jobs.rpi: view 'rpi' is not declared`);
  writeFileSync(bad, '{\n  "views": { "rip": {} },\n  "colour": 1\n}\n');
  assert.match((await run(['t.jdf', '--config', bad])).stderr, `${bad}:3:3: colour: is not a setting jdf-filespec knows`);
  const missing = await run(['t.jdf', '--config', path.join(top, 'nope.json')]);
  assert.equal(missing.status, 2);
  assert.match(missing.stderr, 'cannot read the config');
});

test.after(removeTempFolders);
test.run();
