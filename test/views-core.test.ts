// The view table (src/views, src/config/parse.ts): matching on whole segments, drive wildcards, case folding,
// NFC/NFD, fallbacks, and the config's schema errors with line and column. Expected values are written by hand.
import { readFileSync } from 'node:fs';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { parseConfig } from '../src/config/parse.js';
import { buildTable, inView, machineCandidates, matchView, prefixUrl, withMaps, type ViewsConfig } from '../src/views/index.js';
import { projectRoot } from './helpers.js';

const schema = JSON.parse(readFileSync(new URL('schemas/config.schema.json', projectRoot), 'utf8'));

const config: ViewsConfig = {
  machine: 'rip',
  views: { mis: { caseFolding: true }, rip: {}, mac: { caseFolding: true }, web: {} },
  storage: {
    jobs: { mis: ['file://fileserver/Jobs/', 'file:///*:/Jobs/'], rip: ['/mnt/jobs/', '/mnt/archive/jobs/', './'], mac: 'file:///Volumes/Jobs/', web: 'https://files.example.com/jobs/' },
    fonts: { mis: 'file://fileserver/Jobs/Fonts/', rip: '/opt/fonts/' },
  },
};
const { table, problems } = buildTable(config, 'any-host');

const matched = (url: string) => {
  const m = matchView(url, table);
  return m && { storage: m.storage.name, view: m.entry.view, entry: m.entry.prefix, rest: m.rest };
};

test('the table builds without problems; paths become file URLs ending in "/"', () => {
  assert.equal(problems, []);
  assert.equal(prefixUrl('/mnt/jobs'), 'file:///mnt/jobs/');
  assert.equal(prefixUrl('Z:\\Jobs\\'), 'file:///Z:/Jobs/');
  assert.equal(prefixUrl('\\\\fileserver\\Jobs'), 'file://fileserver/Jobs/');
  assert.equal(prefixUrl('*:\\Jobs'), 'file:///*:/Jobs/');
  assert.equal(prefixUrl('/Volumes/Job Files/'), 'file:///Volumes/Job%20Files/');
  assert.equal(prefixUrl('./'), './');
  assert.throws(() => prefixUrl('jobs/'), /neither a URL/);
});

test('a prefix matches whole segments only: Jobs/ does not take JobsOld/', () => {
  assert.equal(matched('file://fileserver/Jobs/4711/a.pdf'), { storage: 'jobs', view: 'mis', entry: 'file://fileserver/Jobs/', rest: '4711/a.pdf' });
  assert.equal(matched('file://fileserver/JobsOld/4711/a.pdf'), null);
  assert.equal(matched('file:///mnt/jobsX/a.pdf'), null);
  assert.equal(matched('file:///mnt/jobs'), null, 'the folder itself without "/" is not under it');
});

test('the most specific entry wins: Jobs/Fonts/ is the fonts storage', () => {
  assert.equal(matched('file://fileserver/Jobs/Fonts/Myriad.otf'), { storage: 'fonts', view: 'mis', entry: 'file://fileserver/Jobs/Fonts/', rest: 'Myriad.otf' });
});

test('case folding only in views whose file system folds; hosts never care', () => {
  assert.equal(matched('file://FILESERVER/jobs/4711/a.pdf')?.view, 'mis');
  assert.equal(matched('file:///MNT/jobs/a.pdf'), null, 'rip does not fold');
  assert.equal(matched('file:///volumes/JOBS/a.pdf')?.view, 'mac');
  assert.equal(matched('HTTPS://FILES.example.com/jobs/a.pdf')?.view, 'web');
  assert.equal(matched('https://files.example.com/Jobs/a.pdf'), null, 'web does not fold');
});

test('drive wildcard: any letter, either case, ":" or "|"; the drive carries over to another wildcard entry', () => {
  for (const url of ['file:///Z:/Jobs/a.pdf', 'file:///z:/jobs/a.pdf', 'file:///Q|/Jobs/a.pdf', 'file:z:/Jobs/a.pdf']) {
    assert.equal(matched(url)?.entry, 'file:///*:/Jobs/', url);
  }
  assert.equal(matched('file:///Jobs/a.pdf'), null);
});

test('escaping and Unicode normalization do not hide a match; the rest keeps its escaping', () => {
  const t = buildTable({ views: { mac: { caseFolding: true }, rip: {} }, storage: { s: { mac: 'file:///Volumes/M\u00fcller/', rip: '/srv/m/' } } }, '').table;
  const nfd = matchView('file:///Volumes/Mu%CC%88ller/caf%C3%A9%201.pdf', t);
  assert.ok(nfd);
  assert.equal(nfd!.rest, 'caf%C3%A9%201.pdf');
  assert.ok(matchView('file:///Volumes/M%C3%BCller/x', t));
  assert.ok(matchView('file:///%56olumes/M%C3%BCller/x', t), '%56 is V');
  assert.equal(inView(nfd!, 'rip')!.url, 'file:///srv/m/caf%C3%A9%201.pdf');
});

test('inView: the first entry that can name it, query and fragment kept', () => {
  const m = matchView('file:///K:/Jobs/4711/a%20b.pdf', table)!;
  assert.equal(inView(m, 'rip')!.url, 'file:///mnt/jobs/4711/a%20b.pdf');
  assert.equal(inView(m, 'mac')!.url, 'file:///Volumes/Jobs/4711/a%20b.pdf');
  assert.equal(inView(m, 'mis')!.url, 'file://fileserver/Jobs/4711/a%20b.pdf');
  assert.equal(inView(matchView('https://files.example.com/jobs/a.pdf?v=2#p', table)!, 'rip')!.url, 'file:///mnt/jobs/a.pdf?v=2#p');
  const onlyWild = buildTable({ views: { a: {}, b: {} }, storage: { s: { a: 'file:///srv/x/', b: 'file:///*:/X/' } } }, '').table;
  assert.equal(inView(matchView('file:///srv/x/a.pdf', onlyWild)!, 'b'), null, 'no drive to put in the wildcard');
  assert.equal(inView(matchView('file:///D:/X/a.pdf', onlyWild)!, 'b')!.url, 'file:///D:/X/a.pdf');
});

test('machine candidates in fallback order, "./" as the ticket folder', () => {
  const m = matchView('file://fileserver/Jobs/4711/a.pdf', table)!;
  assert.equal(machineCandidates(m, table, 'rip', 'file:///srv/hot/').map((c) => c.url), [
    'file:///mnt/jobs/4711/a.pdf',
    'file:///mnt/archive/jobs/4711/a.pdf',
    'file:///srv/hot/4711/a.pdf',
  ]);
  assert.equal(machineCandidates(m, table, 'nope'), []);
});

test('--map rows come first and go to the machine view ("local" without a config)', () => {
  const t = withMaps({ views: {}, storages: [] }, [{ prefix: 'file://fs/Jobs/', folderUrl: 'file:///mnt/j' }]);
  assert.equal(t.machine, 'local');
  const m = matchView('file://fs/Jobs/a.pdf', t)!;
  assert.equal(m.entry.view, '--map');
  assert.equal(machineCandidates(m, t, 'local').map((c) => c.url), ['file:///mnt/j/a.pdf']);
  const both = withMaps(table, [{ prefix: 'file://fileserver/Jobs/', folderUrl: 'file:///elsewhere/' }]);
  assert.equal(matchView('file://fileserver/Jobs/a.pdf', both)!.entry.view, '--map');
  assert.equal(matchView('file:///Volumes/Jobs/a.pdf', both)!.entry.view, 'mac', 'the config rows stay');
});

test('machine: a name, or host names to names with "*" for the rest', () => {
  const byHost = { ...config, machine: { 'rip-01': 'rip', 'MAC-7': 'mac', '*': 'mis' } };
  assert.equal(buildTable(byHost, 'rip-01').table.machine, 'rip');
  assert.equal(buildTable(byHost, 'mac-7').table.machine, 'mac');
  assert.equal(buildTable(byHost, 'elsewhere').table.machine, 'mis');
});

const problemsOf = (text: string) => {
  const r = parseConfig(text, schema, 'h');
  return 'config' in r ? [] : r.problems.map((p) => `${p.line}:${p.column} ${p.message}`);
};

test('config: a good one parses', () => {
  const r = parseConfig(readFileSync(new URL('samples/jdf-filespec.config.json', projectRoot), 'utf8'), schema, 'h');
  assert.equal('config' in r ? [] : r.problems, []);
});

test('config: every problem with its line and column', () => {
  assert.equal(problemsOf('{\n  "views": { "rip": {} },\n  "storage": { "jobs": { "rpi": "/mnt/jobs/" } }\n}'), [
    `3:26 storage.jobs.rpi: view 'rpi' is not declared under "views" (declared: rip)`,
  ]);
  assert.equal(problemsOf('{\n  "views": { "rip": { "casefolding": true } }\n}'), ['2:23 views.rip.casefolding: is not a setting jdf-filespec knows']);
  assert.equal(problemsOf('{\n  "machine": "rip",\n  "views": {}\n}'), [`2:14 machine: view 'rip' is not declared under "views"`]);
  assert.equal(problemsOf('{\n  "views": { "rip": {} },\n  "storage": { "s": { "rip": ["/ok/", "relative/"] } }\n}'), [
    `3:39 storage.s.rip.1: 'relative/' is neither a URL, an absolute path, nor "./" (the ticket's folder).`,
  ]);
  assert.equal(problemsOf('{\n  "views": { "rip": { "caseFolding": "yes" } }\n}'), ['2:38 views.rip.caseFolding: must be true or false, not a string']);
  // The schema's oneOf (a view name, or hosts to names) gave "must be string" and "must be object" at one place: one problem.
  assert.equal(problemsOf('{\n  "machine": 3\n}'), ['2:14 machine: must be a string or an object, not a number']);
  assert.equal(problemsOf('{ "views": { "-x": {} } }'), [`1:14 views.-x: '-x' is not a valid name (letters, digits, "_", "." and "-", not first)`]);
  // Words a person reads, one problem per cause: a trailing comma was PropertyNameExpected and ValueExpected at 4:3.
  assert.equal(problemsOf('{\n  "views": {\n    "rip": {},\n  }\n}'), ["3:14 not valid JSON: a trailing comma before '}', which JSON does not allow; remove it"]);
  assert.equal(problemsOf('[1,\n]'), ["1:3 not valid JSON: a trailing comma before ']', which JSON does not allow; remove it"]);
  assert.equal(problemsOf('// comment\n{}'), ['1:1 not valid JSON: a comment, which JSON does not allow; remove it']);
  assert.equal(problemsOf('{"views": {"a": {}} "machine": "a"}'), ["1:21 not valid JSON: ',' was expected between two items"]);
  assert.equal(problemsOf(''), ['1:1 not valid JSON: the file is empty']);
});

test.run();
