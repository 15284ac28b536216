// serve's retention (src/node/jmf/retention.ts, --keep): which outbox folders a sweep removes is laid down here by
// hand (status.json as the outbox writes it, ages set with utimes against a clock the sweep is given), never taken
// from the sweep itself; what a sender is answered for a removed entry is read back with Python's xml.etree, a
// parser of its own, against the JDF 1.x ReturnCode table (105: the QueueEntryID is not known).
import { existsSync, mkdirSync, readdirSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
// sweepOutbox as a library user has it: from jdf-filespec/node's entry point (test/package.test.ts: the installed package).
import { handleJmf, sweepOutbox, type JmfOptions, type SweepOptions } from '../src/node/index.js';
import { listRecords } from '../src/node/jmf/outbox.js';
import type { HttpRequest } from '../src/node/serve/types.js';
import { startRetention } from '../src/cli/serve-retention.js';
import { keepDuration } from '../src/cli/serve-server-options.js';
import { projectRoot, pythonJson, removeTempFolders, tempFolder } from './helpers.js';
import { runCli } from './in-process.js';

test.after(removeTempFolders);

const DAY = 86_400_000;
const KEEP = 30 * DAY;
const IN_PROGRESS = 120_000;
const JMF_NS = 'http://www.CIP4.org/JDFSchema_1_1';

/** Sets the modification time of `file` to `ageMs` before `now`. */
function age(file: string, now: number, ageMs: number): void {
  const when = new Date(now - ageMs);
  utimesSync(file, when, when);
}

/** An entry folder as the outbox keeps it: the files named, status.json with `status` (none: no status yet),
 * every file and the folder itself last touched `ageMs` ago. */
function entry(outbox: string, id: string, status: string | undefined, now: number, ageMs: number): string {
  const dir = path.join(outbox, id);
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, 'submission.jmf'), '<JMF/>');
  if (status !== undefined) {
    writeFileSync(path.join(dir, 'report.json'), '{}');
    writeFileSync(path.join(dir, 'report.sarif'), '{}');
    writeFileSync(path.join(dir, 'status.json'), JSON.stringify({ queueEntryId: id, status, returnCode: status === 'Aborted' ? 200 : 0, submitted: new Date(now - ageMs).toISOString() }));
  }
  for (const name of readdirSync(dir)) age(path.join(dir, name), now, ageMs);
  age(dir, now, ageMs);
  return dir;
}

/** A claim folder under .claims/: claim.0, and answer.json when answered, `ageMs` old. */
function claim(outbox: string, key: string, answered: boolean, now: number, ageMs: number, queueEntryId = key): void {
  const dir = path.join(outbox, '.claims', key);
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, 'claim.0'), JSON.stringify({ sender: 's', id: key, queueEntryId, claimed: now - ageMs, pid: 1 }));
  if (answered) writeFileSync(path.join(dir, 'answer.json'), '{"returnCode":0}');
  for (const name of readdirSync(dir)) age(path.join(dir, name), now, ageMs);
  age(dir, now, ageMs);
}

const visible = (dir: string) => readdirSync(dir).filter((n) => !n.startsWith('.')).sort();

test('a sweep removes exactly the finished entries (Completed, Aborted) untouched for longer than keep, and nothing in progress', async () => {
  const outbox = tempFolder('jmf-retention-');
  const now = Date.now();
  entry(outbox, 'old-completed', 'Completed', now, KEEP + DAY);
  entry(outbox, 'old-aborted', 'Aborted', now, KEEP + 60_000);
  entry(outbox, 'young-completed', 'Completed', now, KEEP - 60_000);
  entry(outbox, 'young-aborted', 'Aborted', now, DAY);
  // Waiting: accepted and still in the queue (no forward, no hot folder took it): not finished.
  entry(outbox, 'old-waiting', 'Waiting', now, KEEP + DAY);
  // Being checked: the submission is there, its status not yet.
  entry(outbox, 'in-progress', undefined, now, 5_000);
  // An old Aborted entry being resubmitted: its new submission has just been renamed in.
  const resubmitted = entry(outbox, 'resubmitting', 'Aborted', now, KEEP + DAY);
  age(path.join(resubmitted, 'submission.jmf'), now, 1_000);
  // What an instance that died between the submission and its status left, long ago.
  entry(outbox, 'old-orphan', undefined, now, KEEP + DAY);
  claim(outbox, 'a'.repeat(40), true, now, KEEP + DAY);
  claim(outbox, 'b'.repeat(40), true, now, DAY);
  claim(outbox, 'c'.repeat(40), false, now, 10_000);
  claim(outbox, 'd'.repeat(40), false, now, KEEP + DAY);
  // The claims of an old Waiting entry (kept) and of an old Completed one (removed).
  claim(outbox, 'e'.repeat(40), true, now, KEEP + DAY, 'old-waiting');
  claim(outbox, 'f'.repeat(40), true, now, KEEP + DAY, 'old-completed');
  mkdirSync(path.join(outbox, '.incoming'));
  writeFileSync(path.join(outbox, '.incoming', 'old-body'), 'x');
  age(path.join(outbox, '.incoming', 'old-body'), now, KEEP + DAY);
  writeFileSync(path.join(outbox, '.incoming', 'arriving-body'), 'x');

  const swept = await sweepOutbox(outbox, { keepMs: KEEP, inProgressMs: IN_PROGRESS, now: () => now });
  assert.equal(swept.entries.sort(), ['old-aborted', 'old-completed', 'old-orphan']);
  assert.equal(visible(outbox), ['in-progress', 'old-waiting', 'resubmitting', 'young-aborted', 'young-completed']);
  assert.equal(readdirSync(path.join(outbox, '.claims')).sort(), ['b'.repeat(40), 'c'.repeat(40), 'e'.repeat(40)]);
  assert.is(swept.claims, 3);
  assert.equal(readdirSync(path.join(outbox, '.incoming')), ['arriving-body']);
  assert.equal(readdirSync(path.join(outbox, '.removed')), [], 'nothing is left in the trash');
  // Within keep of a clock set a day on, the young ones go too; the unfinished never.
  const later = await sweepOutbox(outbox, { keepMs: KEEP, inProgressMs: IN_PROGRESS, now: () => now + 2 * DAY });
  assert.equal(later.entries.sort(), ['young-completed']);
});

test('two sweeps at once: each entry removed by one of them, no error, and a reader sees an entry whole or not at all', async () => {
  const outbox = tempFolder('jmf-retention-race-');
  const now = Date.now();
  const expired = Array.from({ length: 60 }, (_, i) => `old-${i}`);
  for (const id of expired) entry(outbox, id, i(id) % 2 ? 'Completed' : 'Aborted', now, KEEP + DAY);
  for (let n = 0; n < 20; n += 1) entry(outbox, `young-${n}`, 'Completed', now, DAY);
  let reading = true;
  const torn: string[] = [];
  const reader = (async () => {
    while (reading) {
      for (const id of expired.slice(0, 40)) {
        const names = await readdir(path.join(outbox, id)).catch(() => undefined);
        if (names !== undefined && names.length !== 4) torn.push(`${id}: ${names.join(', ')}`);
      }
    }
  })();
  const options = { keepMs: KEEP, inProgressMs: IN_PROGRESS, now: () => now };
  const [a, b] = await Promise.all([sweepOutbox(outbox, options), sweepOutbox(outbox, options)]);
  reading = false;
  await reader;
  assert.equal([...a.entries, ...b.entries].sort(), [...expired].sort(), 'each expired entry removed once, by one sweep');
  assert.equal(torn, []);
  assert.equal(visible(outbox), Array.from({ length: 20 }, (_, n) => `young-${n}`).sort());
  assert.equal(readdirSync(path.join(outbox, '.removed')), []);
});

function i(id: string): number {
  return Number(id.replace(/\D/g, ''));
}

test('what a sweep cut short left in .removed/ is removed by the next sweep (of any instance), once it is 10 minutes old', async () => {
  const outbox = tempFolder('jmf-retention-leftover-');
  const left = path.join(outbox, '.removed', 'entry-x.00000000-0000-0000-0000-000000000000');
  mkdirSync(path.join(left, 'deep'), { recursive: true });
  writeFileSync(path.join(left, 'deep', 'report.json'), '{}');
  writeFileSync(path.join(left, 'status.json'), JSON.stringify({ queueEntryId: 'x', status: 'Completed', returnCode: 0 }));
  // Meanwhile the queue does not show it: it was gone the moment it was renamed.
  assert.equal(await listRecords(outbox), []);
  const options = { keepMs: KEEP, inProgressMs: IN_PROGRESS };
  // Just put there (its ctime is now): maybe another instance's sweep still removing it.
  assert.is((await sweepOutbox(outbox, { ...options, now: () => Date.now() })).leftovers, 0);
  assert.is((await sweepOutbox(outbox, { ...options, now: () => Date.now() + 11 * 60_000 })).leftovers, 1);
  assert.equal(readdirSync(path.join(outbox, '.removed')), []);
});

function request(body: string, contentType = 'application/vnd.cip4-jmf+xml', method = 'POST', url = '/jmf'): HttpRequest {
  const bytes = Buffer.from(body, 'utf8');
  return { method, url, headers: { 'content-type': contentType, host: 'serve.example:8080' }, body: (async function* () { yield bytes; })(), signal: new AbortController().signal };
}

/** The bundled sample split as HTTP carries it. */
function sample(): { contentType: string; body: string } {
  const text = readFileSync(new URL('samples/submit-queue-entry.mjm', projectRoot)).toString('latin1');
  const blank = /\r?\n\r?\n/.exec(text)!;
  return { contentType: /Content-Type: ([^\r\n]+)/.exec(text.slice(0, blank.index))![1]!, body: text.slice(blank.index + blank[0].length) };
}

type Read = Array<{ tag: string; attrs: Record<string, string>; entries: string[]; comments: string[] }>;

/** JMF answers read by Python's xml.etree (one process for all): each Response's attributes, QueueEntry IDs and Comments. */
function parsed(answers: string[]): Read[] {
  const script = [
    'import sys, json, xml.etree.ElementTree as ET',
    'ns = "{http://www.CIP4.org/JDFSchema_1_1}"',
    'def read(text):',
    '    root = ET.fromstring(text.encode("utf-8"))',
    '    assert root.tag == ns + "JMF", root.tag',
    '    return [{"tag": r.tag[len(ns):], "attrs": dict(r.attrib), "entries": [q.get("QueueEntryID") for q in r.iter(ns + "QueueEntry")], "comments": [c.text for c in r.iter(ns + "Comment")]} for r in root if r.tag == ns + "Response"]',
    'print(json.dumps([read(t) for t in json.load(sys.stdin)]))',
  ].join('\n');
  return pythonJson<Read[]>(script, answers);
}

test('a removed entry: QueueStatus no longer lists it, QueueEntryStatus and ResubmitQueueEntry answer ReturnCode 105 in a proper JMF Response', async () => {
  const hot = tempFolder('jmf-retention-hot-');
  const o: JmfOptions = { outbox: tempFolder('jmf-retention-q-'), validate: { profile: 'jdf' }, maxBytes: 10 * 1024 * 1024, toolVersion: 'test', hotFolder: hot };
  const { contentType, body } = sample();
  const submitted = String((await handleJmf(request(body, contentType), o)).body);
  const id = /QueueEntryID="([^"]+)"/.exec(submitted)![1]!;
  const statusQuery = `<JMF xmlns="${JMF_NS}" SenderID="mis" Version="1.4"><Query ID="Q1" Type="QueueEntryStatus"><QueueEntryDef QueueEntryID="${id}"/></Query></JMF>`;
  const queueQuery = `<JMF xmlns="${JMF_NS}" SenderID="mis" Version="1.4"><Query ID="Q2" Type="QueueStatus"/></JMF>`;
  const resubmit = `<JMF xmlns="${JMF_NS}" SenderID="mis" Version="1.4"><Command ID="C9" Type="ResubmitQueueEntry"><ResubmissionParams QueueEntryID="${id}" URL="cid:x"/></Command></JMF>`;
  const ask = async (xml: string) => String((await handleJmf(request(xml), o)).body);
  const before = [await ask(queueQuery), await ask(statusQuery)];

  const swept = await sweepOutbox(o.outbox, { keepMs: KEEP, inProgressMs: IN_PROGRESS, now: () => Date.now() + KEEP + DAY });
  assert.equal(swept.entries, [id]);

  const unknown = await handleJmf(request(statusQuery), o);
  assert.is(unknown.status, 200);
  assert.match(String(unknown.headers['content-type']), /^application\/vnd\.cip4-jmf\+xml/);
  const report = await handleJmf(request('', '', 'GET', `/jmf/reports/${id}/report.json`), o);
  assert.is(report.status, 404);
  const [queueBefore, statusBefore, status, queue, again] = parsed([...before, String(unknown.body), await ask(queueQuery), await ask(resubmit)]);
  assert.equal(queueBefore![0]!.entries, [id], 'listed before the sweep');
  assert.is(statusBefore![0]!.attrs.ReturnCode, '0');
  const response = status![0]!;
  assert.is(response.tag, 'Response');
  assert.is(response.attrs.Type, 'QueueEntryStatus');
  assert.is(response.attrs.refID, 'Q1');
  assert.is(response.attrs.ReturnCode, '105');
  assert.ok(response.comments.some((c) => c.includes(id)), 'the Comment names the entry');
  assert.is(queue![0]!.attrs.ReturnCode, '0');
  assert.equal(queue![0]!.entries, []);
  assert.is(again![0]!.attrs.Type, 'ResubmitQueueEntry');
  assert.is(again![0]!.attrs.ReturnCode, '105');
});

test('--keep: days, the other durations, forever; under an hour or not a duration is a usage error', () => {
  assert.is(keepDuration('30d'), 30 * 24 * 60 * 60 * 1000);
  assert.is(keepDuration('1.5d'), 36 * 60 * 60 * 1000);
  assert.is(keepDuration('12h'), 12 * 60 * 60 * 1000);
  assert.is(keepDuration('90m'), 90 * 60 * 1000);
  assert.is(keepDuration('forever'), 'forever');
  for (const bad of ['30m', '0', 'soon', '-1d', '']) assert.throws(() => keepDuration(bad), (e: Error) => e.message.startsWith('--keep takes'));
});

test('serve --keep under an hour is a usage error (exit 2, one line), before anything listens', async () => {
  const run = await runCli(['serve', '--outbox', tempFolder('jmf-retention-cli-'), '--port', '0', '--keep', '10m']);
  assert.is(run.status, 2);
  assert.match(run.stderr, /--keep takes a duration of 1h or more/);
  assert.not.match(run.stdout, /listening/);
});

test('startRetention sweeps at once; stop() ends the timer and waits for the sweep in progress, whose signal it aborts', async () => {
  let calls = 0;
  let told: AbortSignal | undefined;
  let finish!: () => void;
  const sweep = ((_outbox: string, o: SweepOptions) => {
    calls += 1;
    told = o.signal;
    return new Promise((resolve) => { finish = () => resolve({ entries: [], claims: 0, leftovers: 0, failed: [], stopped: true }); });
  }) as typeof sweepOutbox;
  const lines: string[] = [];
  const retention = startRetention(sweep, '/nowhere', KEEP, IN_PROGRESS, (line) => lines.push(line));
  await new Promise((resolve) => setImmediate(resolve));
  assert.is(calls, 1);
  assert.is(told?.aborted, false);
  let stopped = false;
  const stopping = retention.stop().then(() => { stopped = true; });
  assert.is(told?.aborted, true);
  await new Promise((resolve) => setImmediate(resolve));
  assert.is(stopped, false, 'stop waits for the sweep in progress');
  finish();
  await stopping;
  assert.is(calls, 1);
  assert.equal(lines, []);
});

test('sweepOutbox\'s options: keepMs is required, a number of 0 or more (TypeError, RangeError); inProgressMs is 2 minutes by default', async () => {
  const outbox = tempFolder('jmf-retention-options-');
  const now = Date.now();
  for (const [o, kind] of [[{}, TypeError], [{ keepMs: '30d' }, TypeError], [{ keepMs: NaN }, RangeError], [{ keepMs: -1 }, RangeError], [{ keepMs: KEEP, inProgressMs: -5 }, RangeError]] as const) {
    const error = await sweepOutbox(outbox, o as unknown as SweepOptions).then(() => undefined, (e: unknown) => e);
    assert.instance(error, kind, JSON.stringify(o));
  }
  assert.equal(readdirSync(outbox), [], 'nothing made or removed');
  // With keepMs 0, an entry without status.json is in progress until 2 minutes (handleJmf's claimStaleMs) pass.
  entry(outbox, 'one-minute', undefined, now, 60_000);
  entry(outbox, 'three-minutes', undefined, now, 180_000);
  assert.equal((await sweepOutbox(outbox, { keepMs: 0, now: () => now })).entries, ['three-minutes']);
  assert.equal(visible(outbox), ['one-minute']);
});

test('sweepOutbox: an outbox that is not there rejects with ENOENT and is not made; a folder of it that cannot be read is in failed, and the rest is swept', async () => {
  const top = tempFolder('jmf-retention-missing-');
  const error = await sweepOutbox(path.join(top, 'typo'), { keepMs: KEEP }).then(() => undefined, (e: unknown) => e);
  assert.is((error as NodeJS.ErrnoException | undefined)?.code, 'ENOENT');
  assert.not.ok(existsSync(path.join(top, 'typo')));
  const outbox = tempFolder('jmf-retention-failed-');
  const now = Date.now();
  entry(outbox, 'old', 'Completed', now, KEEP + DAY);
  writeFileSync(path.join(outbox, '.claims'), 'not a folder');
  const swept = await sweepOutbox(outbox, { keepMs: KEEP, now: () => now });
  assert.equal(swept.entries, ['old']);
  assert.equal(swept.failed.map((f) => [f.path, (f.error as NodeJS.ErrnoException).code]), [[path.join(outbox, '.claims'), 'ENOTDIR']]);
  assert.is(swept.stopped, false);
});

test('sweepOutbox with a signal: aborted before, nothing removed; aborted between two removals, it stops there and resolves with the one removed (stopped)', async () => {
  const outbox = tempFolder('jmf-retention-signal-');
  const now = Date.now();
  for (const id of ['a', 'b', 'c']) entry(outbox, id, 'Completed', now, KEEP + DAY);
  const aborted = new AbortController();
  aborted.abort();
  assert.equal(await sweepOutbox(outbox, { keepMs: KEEP, now: () => now, signal: aborted.signal }), { entries: [], claims: 0, leftovers: 0, failed: [], stopped: true });
  assert.equal(visible(outbox), ['a', 'b', 'c']);
  // A signal that reads as aborted once an entry is gone: the abort comes right after the first removal.
  const signal = new Proxy(new AbortController().signal, { get: (target, key) => (key === 'aborted' ? visible(outbox).length < 3 : Reflect.get(target, key, target)) });
  const swept = await sweepOutbox(outbox, { keepMs: KEEP, now: () => now, signal });
  assert.is(swept.entries.length, 1);
  assert.is(swept.stopped, true);
  assert.equal(visible(outbox).length, 2);
  for (const id of visible(outbox)) assert.equal(readdirSync(path.join(outbox, id)).sort(), ['report.json', 'report.sarif', 'status.json', 'submission.jmf'], 'the others whole');
  assert.equal((await sweepOutbox(outbox, { keepMs: KEEP, now: () => now })).entries.length, 2, 'the next sweep finishes');
});

test.run();
