// watch --wait-for-files waits only for what waiting can cure (issue 27): a ticket with an error no arriving
// file can change goes to ERROR at once, its reason naming the first such error; one whose only problems are
// files not there yet still waits.
import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { drop, makeDirs, stopAll, ticketXml, until, watchHere } from './watch-helpers.js';

interface Routed { event: string; ticket: string; reason: string; first?: { code: string; message: string } }

const firstUrlFinding = (folder: string, name: string, code: string): { code: string; message: string } => {
  const report = JSON.parse(readFileSync(path.join(folder, `${name}.report.json`), 'utf8'));
  return report.files[0].references.flatMap((r: { findings: Array<{ code: string; message: string }> }) => r.findings).find((f: { code: string }) => f.code === code);
};

test('--wait-for-files 10m: a ticket with URL syntax errors that also names missing files goes to ERROR at once, naming the first syntax error', async () => {
  const d = makeDirs();
  const jobs = path.join(d.base, 'jobs');
  mkdirSync(jobs);
  const w = await watchHere(d, { waitForFilesMs: 600_000, local: { checkExists: true, maps: [], root: jobs } });
  // A raw space is an error by the appendix's Table 1 (unescaped-space); none of the files exists.
  const dir = pathToFileURL(jobs).href + '/';
  drop(d, 'syntax.jdf', ticketXml('syntax', { directory: dir, urls: ['page one.pdf', 'page two.pdf', 'cover.pdf'] }));
  await until(() => w.count('error') === 1, 60_000, 'the ticket to be routed (it waited for files)');
  await w.hot.stop();
  assert.is(w.count('waiting'), 0, 'it waited');
  const e = w.events.find((x) => x.event === 'error') as unknown as Routed;
  const first = firstUrlFinding(d.error, 'syntax.jdf', 'unescaped-space');
  assert.ok(first, 'the report has the unescaped-space finding');
  assert.ok(e.reason.includes(`unescaped-space: ${first.message}`), e.reason);
  assert.equal(e.first, { code: 'unescaped-space', message: first.message });
  // The files it names were looked for, and are named as missing in its report.
  assert.ok(firstUrlFinding(d.error, 'syntax.jdf', 'file-missing'));
});

test('--wait-for-files: a ticket whose only problem is a missing file still waits (and goes to ERROR at the timeout, naming the file)', async () => {
  const d = makeDirs();
  const jobs = path.join(d.base, 'jobs');
  mkdirSync(jobs);
  const w = await watchHere(d, { waitForFilesMs: 800, local: { checkExists: true, maps: [], root: jobs } });
  drop(d, 'only-missing.jdf', ticketXml('m', { directory: pathToFileURL(jobs).href + '/', urls: ['cover.pdf'] }));
  await until(() => w.count('error') === 1, 60_000, 'the ticket to be routed');
  await w.hot.stop();
  assert.is(w.count('waiting'), 1);
  const e = w.events.find((x) => x.event === 'error') as unknown as Routed;
  assert.match(e.reason, /1 referenced file\(s\) still missing after 800 ms/);
  assert.equal(e.first?.code, 'file-missing');
  assert.ok(e.first?.message.includes(path.join(jobs, 'cover.pdf')), e.first?.message);
});

test.after.each(stopAll);

test.run();
