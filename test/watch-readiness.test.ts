// watch: a ticket is taken only when it is complete, and waits for the files it references.
import { appendFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { makeDirs, routed, sleep, ticketXml, until, watchHere, stopAll } from './watch-helpers.js';

test('a ticket written slowly in pieces, with a pause longer than the settle time, is taken once, whole', async () => {
  const d = makeDirs();
  const w = await watchHere(d, { settleMs: 150, parseWaitMs: 5000 });
  const xml = ticketXml('slow-1');
  const pieces = [xml.slice(0, 40), xml.slice(40, 120), xml.slice(120, 200), xml.slice(200)];
  const file = path.join(d.in, 'slow.jdf');
  for (const [k, piece] of pieces.entries()) {
    appendFileSync(file, piece);
    await sleep(k === 1 ? 600 : 60); // 600 ms: four settle times with half a ticket in the folder
  }
  const pickedBeforeLastPiece = w.count('picked-up');
  await until(() => w.count('ok') + w.count('error') === 1, 20_000, 'the ticket to be routed');
  await w.hot.stop();
  assert.is(pickedBeforeLastPiece, 0, 'taken before it was complete');
  assert.is(w.count('picked-up'), 1);
  const r = routed(d);
  assert.equal(r.map((x) => [x.folder, x.name, x.id]), [['ok', 'slow.jdf', 'slow-1']]);
  assert.is(readFileSync(path.join(d.ok, 'slow.jdf'), 'utf8'), xml);
});

test('a ticket that never becomes whole goes to ERROR once the parse wait is over, with the XML finding', async () => {
  const d = makeDirs();
  const w = await watchHere(d, { parseWaitMs: 500 });
  writeFileSync(path.join(d.in, 'cut.jdf'), ticketXml('cut').slice(0, 100));
  await until(() => w.count('error') === 1, 20_000, 'the cut ticket to be routed');
  await w.hot.stop();
  const report = JSON.parse(readFileSync(path.join(d.error, 'cut.jdf.report.json'), 'utf8'));
  assert.ok(report.files[0].findings.some((f: { code: string }) => f.code === 'xml-malformed'));
});

/** A job folder under the root, and a ticket whose RunList/@Directory points there. */
function job(d: { base: string }, name: string) {
  const folder = path.join(d.base, 'root', 'jobs', name);
  mkdirSync(folder, { recursive: true });
  return { folder, xml: ticketXml(name, { directory: pathToFileURL(folder).href + '/', urls: ['p1.pdf'] }) };
}

test('--wait-for-files: a PDF that arrives 3 s after its ticket (written in pieces) sends the ticket to OK', async () => {
  const d = makeDirs();
  const j = job(d, '4711');
  // A settle time well above the 60 ms between the PDF's pieces, so that a loaded machine cannot stretch one pause past it.
  const w = await watchHere(d, { settleMs: 500, waitForFilesMs: 15_000, local: { checkExists: true, maps: [], root: path.join(d.base, 'root') } });
  writeFileSync(path.join(d.in, '4711.jdf'), j.xml);
  await until(() => w.count('waiting') === 1, 10_000, 'the ticket to wait');
  await sleep(3000 - 200);
  const pdf = path.join(j.folder, 'p1.pdf');
  for (let k = 0; k < 5; k++) {
    appendFileSync(pdf, `%PDF piece ${k}\n`);
    await sleep(60);
  }
  const routedBeforeLastPiece = w.count('ok') + w.count('error');
  await until(() => w.count('ok') + w.count('error') === 1, 20_000, 'the ticket to be routed');
  await w.hot.stop();
  assert.is(routedBeforeLastPiece, 0, 'routed while its PDF was still being written');
  assert.equal(routed(d).map((x) => [x.folder, x.name]), [['ok', '4711.jdf']]);
  const waiting = w.events.find((e) => e.event === 'waiting') as { missing: Array<{ code: string; url: string }> };
  assert.equal(waiting.missing.map((m) => [m.code, m.url]), [['file-missing', pathToFileURL(pdf).href]]);
  const report = JSON.parse(readFileSync(path.join(d.ok, '4711.jdf.report.json'), 'utf8'));
  assert.is(report.summary.error, 0);
});

test('--wait-for-files: a PDF that never arrives sends the ticket to ERROR after the timeout, naming the file', async () => {
  const d = makeDirs();
  const j = job(d, '4712');
  const w = await watchHere(d, { waitForFilesMs: 1000, local: { checkExists: true, maps: [], root: path.join(d.base, 'root') } });
  writeFileSync(path.join(d.in, '4712.jdf'), j.xml);
  await until(() => w.count('error') === 1, 20_000, 'the ticket to be routed');
  await w.hot.stop();
  assert.is(w.count('waiting'), 1);
  const report = JSON.parse(readFileSync(path.join(d.error, '4712.jdf.report.json'), 'utf8'));
  const missing = report.files[0].references.flatMap((r: { findings: Array<{ code: string; message: string }> }) => r.findings).filter((f: { code: string }) => f.code === 'file-missing');
  assert.is(missing.length, 1);
  assert.ok(missing[0].message.includes(path.join(j.folder, 'p1.pdf')), missing[0].message);
  const ev = w.events.find((e) => e.event === 'error') as { reason: string };
  assert.match(ev.reason, /missing/);
});

test('without --wait-for-files a missing PDF is an error at once (no waiting state)', async () => {
  const d = makeDirs();
  const j = job(d, '4713');
  const w = await watchHere(d, { local: { checkExists: true, maps: [] } });
  writeFileSync(path.join(d.in, '4713.jdf'), j.xml);
  await until(() => w.count('error') === 1, 20_000, 'the ticket to be routed');
  await w.hot.stop();
  assert.is(w.count('waiting'), 0);
});

test.after.each(stopAll);

test.run();
