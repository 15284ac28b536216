// watch: a job folder is never lost nor routed twice when the watcher is killed (issue 27). Each state a kill can
// leave between the steps of a job folder's claim and route (src/node/watch/job-folder.ts) is built by hand in
// the claim of a gone owner, as a killed watcher leaves it, and the next start must route it exactly once; then
// SIGKILL at random moments over a run of job folders, as the ticket kill tests do (longer runs: npm run test:soak).
import { chmodSync, existsSync, linkSync, mkdirSync, readdirSync, readFileSync, renameSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { defaultWork, jobFolder, killFolderRun, makeDirs, routedFolders, sleep, stopAll, until, watchHere, type Dirs } from './watch-helpers.js';

/** The claim folder a watcher on another host, gone a minute ago, left for the job folder `name`: 0700 folders, as it makes them. */
function goneClaim(d: Dirs, name: string): string {
  const owner = path.join(defaultWork(d), 'otherhost.1.gone');
  const claim = path.join(owner, `0000~${name}`);
  mkdirSync(claim, { recursive: true, mode: 0o700 });
  chmodSync(owner, 0o700);
  chmodSync(claim, 0o700);
  return claim;
}

/** The route record the watcher writes before it places anything (route.ts), and the report it places first. */
function recordRoute(claim: string, name: string): void {
  writeFileSync(path.join(claim, 'report.json'), '{"placed":"before the kill"}\n', { mode: 0o600 });
  const record = { to: 'ok', name, counts: { error: 0, warning: 0, info: 0 }, formats: ['json'], reason: 'no error finding', temp: '.jdf-filespec-0badc0de.part' };
  writeFileSync(path.join(claim, 'route.json'), JSON.stringify(record), { mode: 0o600 });
}

function ownerGoneAMinuteAgo(d: Dirs): void {
  const past = new Date(Date.now() - 60_000);
  utimesSync(path.join(defaultWork(d), 'otherhost.1.gone'), past, past);
}

const leftInWork = (d: Dirs) => (existsSync(defaultWork(d)) ? (readdirSync(defaultWork(d), { recursive: true }) as string[]).filter((p) => p.endsWith('job.jdf')) : []);

test('killed just after the claim (the folder in the claim, nothing recorded): the next start routes it once', async () => {
  const d = makeDirs();
  jobFolder(path.join(goneClaim(d, 'job-a'), 'job-a'), 'a');
  ownerGoneAMinuteAgo(d);
  const w = await watchHere(d, { staleMs: 1000 });
  await until(() => w.count('ok') === 1, 30_000, 'the job folder to be routed');
  await sleep(600); // a few heartbeats and sweeps more: nothing else happens to it
  await w.hot.stop();
  assert.is(w.count('resumed'), 1);
  assert.equal([...routedFolders(d)], [['a', [path.join(d.ok, 'job-a')]]]);
  assert.equal(readdirSync(d.ok).sort(), ['job-a', 'job-a.report.json']);
  assert.equal(leftInWork(d), []);
});

test('killed after its report was placed, before the folder was moved: the next start moves it under the same name, once', async () => {
  const d = makeDirs();
  const claim = goneClaim(d, 'job-b');
  jobFolder(path.join(claim, 'job-b'), 'b');
  recordRoute(claim, 'job-b');
  mkdirSync(d.ok);
  linkSync(path.join(claim, 'report.json'), path.join(d.ok, 'job-b.report.json')); // the report, placed by link
  ownerGoneAMinuteAgo(d);
  const w = await watchHere(d, { staleMs: 1000 });
  await until(() => w.count('ok') === 1, 30_000, 'the job folder to be routed');
  await w.hot.stop();
  assert.equal(readdirSync(d.ok).sort(), ['job-b', 'job-b.report.json'], 'no job-b-2: the placed report is known as ours');
  assert.equal([...routedFolders(d)], [['b', [path.join(d.ok, 'job-b')]]]);
  assert.is(readFileSync(path.join(d.ok, 'job-b.report.json'), 'utf8'), '{"placed":"before the kill"}\n');
  assert.equal(leftInWork(d), []);
});

test('killed after the folder was moved, before the claim was removed: the next start only tidies up', async () => {
  const d = makeDirs();
  const claim = goneClaim(d, 'job-c');
  recordRoute(claim, 'job-c');
  mkdirSync(d.ok);
  jobFolder(path.join(d.stage, 'job-c'), 'c');
  renameSync(path.join(d.stage, 'job-c'), path.join(d.ok, 'job-c')); // moved by the killed watcher
  linkSync(path.join(claim, 'report.json'), path.join(d.ok, 'job-c.report.json'));
  ownerGoneAMinuteAgo(d);
  const w = await watchHere(d, { staleMs: 1000 });
  await until(() => w.count('resumed') === 1 && !existsSync(claim), 30_000, 'the claim to be taken up and removed');
  await sleep(600);
  await w.hot.stop();
  assert.equal(readdirSync(d.ok).sort(), ['job-c', 'job-c.report.json']);
  assert.equal([...routedFolders(d)], [['c', [path.join(d.ok, 'job-c')]]]);
  assert.is(w.count('ok') + w.count('error'), 0, 'not routed a second time');
  assert.equal(leftInWork(d), []);
});

test('a claim holding a job folder that others could have written is untrusted: reported, left, never routed', async () => {
  const d = makeDirs();
  const claim = goneClaim(d, 'job-d');
  jobFolder(path.join(claim, 'job-d'), 'd');
  chmodSync(claim, 0o777); // anyone could have put the folder there
  ownerGoneAMinuteAgo(d);
  const w = await watchHere(d, { staleMs: 1000 });
  await until(() => w.count('untrusted') === 1, 30_000, 'the claim to be reported');
  await sleep(600);
  await w.hot.stop();
  const e = w.events.find((x) => x.event === 'untrusted') as { path: string; reason: string };
  assert.equal([e.path, e.reason], [claim, 'group or others can write it (mode 0777)']);
  assert.equal([...routedFolders(d)], []);
  assert.ok(existsSync(path.join(claim, 'job-d', 'job.jdf')), 'left where it is');
});

test('SIGKILL 3 times over a run of 15 job folders, then a restart: none lost, none twice, each where its ticket says', async () => {
  assert.equal(await killFolderRun(15, 3), []);
});

test.after.each(stopAll);

test.run();
