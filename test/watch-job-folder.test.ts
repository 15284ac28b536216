// watch: a job folder (a folder holding a ticket and its files, as MIS and prepress systems drop them) is one job
// (issue 27): settled as a whole, claimed as a whole, its one ticket found, its relative references resolved
// inside it and looked for only there, routed as a whole with NAME.report.json beside it, a link in it never
// followed out of it. Expected verdicts come from the appendix and the fixtures: a clean relative URL naming a
// file that is there has no finding; a missing one is file-missing; a link out of the root is outside-root.
import { appendFileSync, lstatSync, mkdirSync, readdirSync, readFileSync, renameSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { makeDirs, sleep, stopAll, ticketXml, until, watchHere, type Dirs } from './watch-helpers.js';

/** A job folder staged beside IN and renamed in at once: `files` maps a path inside it to its content. */
function dropFolder(d: Dirs, name: string, files: Record<string, string>): void {
  const staged = path.join(d.stage, name);
  for (const [rel, content] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(staged, rel)), { recursive: true });
    writeFileSync(path.join(staged, rel), content);
  }
  renameSync(staged, path.join(d.in, name));
}

const report = (folder: string, name: string) => JSON.parse(readFileSync(path.join(folder, `${name}.report.json`), 'utf8')) as {
  summary: { error: number; warning: number };
  files: Array<{ path: string; findings: Array<{ code: string }>; references: Array<{ value: string; resolved: string; findings: Array<{ code: string }> }> }>;
};

const local = (root: string) => ({ local: { checkExists: true, maps: [], root } });

test('a job folder with a clean ticket and its PDF: routed to OK as a whole, its report beside it, the reference resolved inside it', async () => {
  const d = makeDirs();
  // --root names a folder the job folder is not in: a job folder's files are confined to the job folder itself.
  const w = await watchHere(d, local(path.join(d.base, 'jobs')));
  const pdf = '%PDF-1.4 the book\n';
  dropFolder(d, 'job-4711', { 'job.jdf': ticketXml('jf', { urls: ['pages/book.pdf'] }), 'pages/book.pdf': pdf });
  await until(() => w.count('ok') + w.count('error') === 1, 30_000, 'the job folder to be routed');
  await w.hot.stop();
  assert.equal(readdirSync(d.ok).sort(), ['job-4711', 'job-4711.report.json']);
  assert.equal(readdirSync(d.in), []);
  assert.is(readFileSync(path.join(d.ok, 'job-4711', 'pages', 'book.pdf'), 'utf8'), pdf);
  assert.is(readFileSync(path.join(d.ok, 'job-4711', 'job.jdf'), 'utf8'), ticketXml('jf', { urls: ['pages/book.pdf'] }));
  const r = report(d.ok, 'job-4711');
  assert.is(r.summary.error, 0);
  assert.is(r.files[0]!.path, path.join(d.in, 'job-4711', 'job.jdf'));
  // RFC 3986 5.2: pages/book.pdf against the ticket where it arrived, IN/job-4711/job.jdf.
  assert.is(r.files[0]!.references[0]!.resolved, `${pathToFileURL(path.join(d.in, 'job-4711')).href}/pages/book.pdf`);
  assert.equal(r.files[0]!.references[0]!.findings, []);
  const ok = w.events.find((e) => e.event === 'ok') as { ticket: string; to: string; report: string };
  assert.equal([ok.ticket, ok.to, ok.report], ['job-4711', path.join(d.ok, 'job-4711'), path.join(d.ok, 'job-4711.report.json')]);
});

test('a job folder missing a file under --check-exists and --wait-for-files: it waits, then goes to ERROR as a whole', async () => {
  const d = makeDirs();
  const w = await watchHere(d, { ...local(d.base), waitForFilesMs: 1500 });
  dropFolder(d, 'job-4712', { 'job.jdf': ticketXml('jm', { urls: ['book.pdf', 'cover.pdf'] }), 'book.pdf': '%PDF-1.4\n' });
  await until(() => w.count('error') === 1, 30_000, 'the job folder to be routed');
  await w.hot.stop();
  const waiting = w.events.filter((e) => e.event === 'waiting') as Array<{ ticket: string; missing: Array<{ url: string; code: string }> }>;
  assert.equal(waiting.map((e) => [e.ticket, e.missing.map((m) => m.code)]), [['job-4712', ['file-missing']]]);
  assert.is(waiting[0]!.missing[0]!.url, `${pathToFileURL(path.join(d.in, 'job-4712')).href}/cover.pdf`);
  assert.equal(readdirSync(d.error).sort(), ['job-4712', 'job-4712.report.json']);
  assert.equal(readdirSync(d.error + '/job-4712').sort(), ['book.pdf', 'job.jdf']);
  const e = w.events.find((x) => x.event === 'error') as { reason: string };
  assert.match(e.reason, /1 referenced file\(s\) still missing after 1500 ms/);
  const refs = report(d.error, 'job-4712').files[0]!.references;
  assert.equal(refs.map((r) => [r.value, r.findings.map((f) => f.code)]), [['book.pdf', []], ['cover.pdf', ['file-missing']]]);
  // The operator is told where the file was expected as the job arrived, not in the watcher's work folder.
  assert.match((refs[1]!.findings[0] as unknown as { message: string }).message, `No file at ${path.join(d.in, 'job-4712', 'cover.pdf')};`);
});

test('a job folder still being written is not taken until it has settled as a whole (a nested file changing)', async () => {
  const d = makeDirs();
  const w = await watchHere(d, { settleMs: 1500 });
  const folder = path.join(d.in, 'job-4713');
  mkdirSync(path.join(folder, 'pages'), { recursive: true });
  writeFileSync(path.join(folder, 'job.jdf'), ticketXml('jw', { urls: ['pages/book.pdf'] }));
  const pdf = path.join(folder, 'pages', 'book.pdf');
  writeFileSync(pdf, '%PDF-1.4\n');
  // The PDF grows every 100 ms, well within --settle (1500 ms), 25 times: the folder is never still for long enough.
  for (let i = 0; i < 25; i++) {
    await sleep(100);
    assert.is(w.count('picked-up'), 0, `taken while a file in it was still changing (after ${i} appends)`);
    appendFileSync(pdf, `${i}\n`);
  }
  await until(() => w.count('ok') === 1, 30_000, 'the job folder to be routed once still');
  await w.hot.stop();
  const expected = '%PDF-1.4\n' + Array.from({ length: 25 }, (_, i) => `${i}\n`).join('');
  assert.is(readFileSync(path.join(d.ok, 'job-4713', 'pages', 'book.pdf'), 'utf8'), expected);
});

test('a job folder with two tickets, or none, goes to ERROR as a whole with a report saying why', async () => {
  const d = makeDirs();
  const w = await watchHere(d);
  dropFolder(d, 'two', { 'a.jdf': ticketXml('a'), 'b.xjdf': ticketXml('b'), 'pages/p.pdf': '%PDF' });
  dropFolder(d, 'none', { 'notes.xml': '<notes/>', 'p.pdf': '%PDF' });
  await until(() => w.count('error') === 2, 30_000, 'both folders to be routed');
  await w.hot.stop();
  assert.equal(readdirSync(d.error).sort(), ['none', 'none.report.json', 'two', 'two.report.json']);
  assert.equal(readdirSync(path.join(d.error, 'two')).sort(), ['a.jdf', 'b.xjdf', 'pages']);
  const two = report(d.error, 'two').files[0]!;
  assert.equal(two.findings.map((f) => f.code), ['job-folder-ticket']);
  assert.is(two.path, path.join(d.in, 'two'));
  const reasons = Object.fromEntries((w.events.filter((e) => e.event === 'error') as Array<{ ticket: string; first?: { code: string; message: string } }>).map((e) => [e.ticket, e.first]));
  assert.is(reasons.two!.code, 'job-folder-ticket');
  assert.match(reasons.two!.message, /2 tickets at its top level \(a\.jdf, b\.xjdf\)/);
  assert.match(reasons.none!.message, /no ticket at its top level/);
});

test('a symbolic link inside a job folder pointing outside it is never followed; a link to a folder in IN is not a job folder', async () => {
  const d = makeDirs();
  const elsewhere = path.join(d.base, 'elsewhere');
  mkdirSync(elsewhere);
  const secret = path.join(elsewhere, 'secret.pdf');
  writeFileSync(secret, '%PDF secret');
  const staged = path.join(d.stage, 'job-4714');
  mkdirSync(staged);
  writeFileSync(path.join(staged, 'job.jdf'), ticketXml('jl', { urls: ['book.pdf'] }));
  symlinkSync(secret, path.join(staged, 'book.pdf'));
  symlinkSync(elsewhere, path.join(staged, 'more')); // a link to a folder outside: not walked when settling
  renameSync(staged, path.join(d.in, 'job-4714'));
  symlinkSync(elsewhere, path.join(d.in, 'linked-job'));
  // --root is the base, which holds `elsewhere`: the job folder, not the root given, is what confines it.
  const w = await watchHere(d, local(d.base));
  await until(() => w.count('error') === 1 && w.count('ignored') === 1, 30_000, 'the job folder to be routed and the link reported');
  await w.hot.stop();
  const refs = report(d.error, 'job-4714').files[0]!.references;
  assert.equal(refs.map((r) => [r.value, r.findings.map((f) => f.code)]), [['book.pdf', ['outside-root']]]);
  assert.ok(lstatSync(path.join(d.error, 'job-4714', 'book.pdf')).isSymbolicLink(), 'the link moved as a link');
  assert.is(readFileSync(secret, 'utf8'), '%PDF secret');
  assert.equal(readdirSync(elsewhere), ['secret.pdf']);
  const ignored = w.events.find((e) => e.event === 'ignored') as { name: string; reason: string };
  assert.equal([ignored.name, ignored.reason.startsWith('a symbolic link')], ['linked-job', true]);
  assert.ok(lstatSync(path.join(d.in, 'linked-job')).isSymbolicLink());
});

test('a folder named as a file the watcher keeps beside a claimed job (route.json) is not taken: reported once and left', async () => {
  const d = makeDirs();
  const w = await watchHere(d);
  dropFolder(d, 'route.json', { 'job.jdf': ticketXml('rj') });
  dropFolder(d, 'job-4715', { 'job.jdf': ticketXml('ok') });
  await until(() => w.count('ignored') === 1 && w.count('ok') === 1, 30_000, 'the folder to be reported and the other routed');
  await w.hot.stop();
  const e = w.events.find((x) => x.event === 'ignored') as { name: string; reason: string };
  assert.is(e.name, 'route.json');
  assert.match(e.reason, /rename it/);
  assert.equal(readdirSync(d.in), ['route.json']);
  assert.equal(readdirSync(d.ok).sort(), ['job-4715', 'job-4715.report.json']);
});

test.after.each(stopAll);

test.run();
