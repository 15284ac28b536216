// watch: nothing in IN is silently ignored (issue 27). A file that is neither a ticket nor a job package (a PDF
// dropped alone, good.jdf.tmp) is reported once, as an event and in the status file, and left where it is; a
// folder is a job folder and is taken (test/watch-job-folder.test.ts); a sender's hidden temporary (a name
// starting with ".") stays unreported, as the README says.
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { drop, makeDirs, sleep, stopAll, ticketXml, until, watchHere } from './watch-helpers.js';

interface Ignored { event: string; name: string; reason: string; left: string }

test('a PDF alone and good.jdf.tmp in IN are each reported once (event and status file) and left; a ticket and a job folder beside them are routed', async () => {
  const d = makeDirs();
  const statusFile = path.join(d.base, 'status.json');
  const w = await watchHere(d, { statusFile });
  writeFileSync(path.join(d.in, 'book.pdf'), '%PDF-1.4 alone\n');
  writeFileSync(path.join(d.in, 'good.jdf.tmp'), ticketXml('tmp'));
  mkdirSync(path.join(d.in, 'job-4711'));
  writeFileSync(path.join(d.in, 'job-4711', 'job.jdf'), ticketXml('in-folder'));
  writeFileSync(path.join(d.in, '.sending.jdf'), ticketXml('hidden'));
  drop(d, 'good.jdf', ticketXml('good'));
  await until(() => w.count('ignored') >= 2 && w.count('ok') === 2, 30_000, 'two ignored events, the ticket and the job folder routed');
  // Several sweeps and heartbeats more: each is still reported once.
  await sleep(1000);
  const status = JSON.parse(readFileSync(statusFile, 'utf8')) as { ignored?: Array<{ name: string; reason: string }> };
  await w.hot.stop();
  const ignored = w.events.filter((e) => e.event === 'ignored') as unknown as Ignored[];
  assert.equal(ignored.map((e) => e.name).sort(), ['book.pdf', 'good.jdf.tmp']);
  for (const e of ignored) {
    assert.is(e.left, path.join(d.in, e.name));
    assert.ok(existsSync(e.left), `${e.name} was not left in IN`);
  }
  const why = Object.fromEntries(ignored.map((e) => [e.name, e.reason]));
  assert.match(why['book.pdf']!, /not a ticket or job package/);
  assert.equal((status.ignored ?? []).map((x) => x.name).sort(), ['book.pdf', 'good.jdf.tmp']);
  assert.ok(existsSync(path.join(d.ok, 'job-4711', 'job.jdf')), 'the job folder was routed');
  assert.ok(existsSync(path.join(d.in, '.sending.jdf')));
});

test('a file renamed to its ticket name within the settle time is never reported as ignored', async () => {
  const d = makeDirs();
  const w = await watchHere(d, { settleMs: 1500 });
  writeFileSync(path.join(d.in, 'quick.jdf.part'), ticketXml('quick'));
  await sleep(300);
  renameSync(path.join(d.in, 'quick.jdf.part'), path.join(d.in, 'quick.jdf'));
  await until(() => w.count('ok') === 1, 30_000, 'the ticket to be routed');
  await w.hot.stop();
  assert.is(w.count('ignored'), 0);
});

test.after.each(stopAll);

test.run();
