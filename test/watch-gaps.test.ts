// watch: the gaps an audit of issue 16 found, one test (or a few) each, on real temporary folders.
import { spawnSync } from 'node:child_process';
import { appendFileSync, copyFileSync, existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, readlinkSync, renameSync, rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { projectRoot } from './helpers.js';
import { defaultWork, drop, exited, makeDirs, routed, sleep, stopAll, ticketsUnder, ticketXml, until, watchChild, watchHere } from './watch-helpers.js';

const main = fileURLToPath(new URL('dist/src/cli/main.js', projectRoot));
const sample = (name: string) => fileURLToPath(new URL(`samples/${name}`, projectRoot));

/** What `validate FILE --format json` says of each file (the watch tests' options: platform unix, profile jdf). */
function validateFiles(file: string): unknown {
  const r = spawnSync(process.execPath, [main, 'validate', file, '--format', 'json', '--platform', 'unix'], { encoding: 'utf8' });
  return JSON.parse(r.stdout).files;
}

const reportFiles = (folder: string, name: string): unknown => JSON.parse(readFileSync(path.join(folder, `${name}.report.json`), 'utf8')).files;

test('job packages (.mjm, .mim, .zip) are picked up and routed by their findings, each report that of validate PACKAGE', async () => {
  const d = makeDirs();
  const mjm = readFileSync(sample('submit-queue-entry.mjm'), 'utf8');
  copyFileSync(sample('submit-queue-entry.mjm'), path.join(d.in, 'job.mjm'));
  copyFileSync(sample('submit-queue-entry.mjm'), path.join(d.in, 'job.mim'));
  copyFileSync(sample('xjdf-package.zip'), path.join(d.in, 'job.zip'));
  writeFileSync(path.join(d.in, 'bad.mjm'), mjm.replace('URL="cid:book.pdf@mis.example.com"', 'URL="pages/page one.pdf"'));
  const names = ['job.mjm', 'job.mim', 'job.zip', 'bad.mjm'];
  const expected = Object.fromEntries(names.map((n) => [n, validateFiles(path.join(d.in, n))]));
  const w = await watchHere(d);
  await until(() => w.count('ok') + w.count('error') === 4, 30_000, 'the four packages to be routed');
  await w.hot.stop();
  assert.equal(readdirSync(d.ok).sort(), ['job.mim', 'job.mim.report.json', 'job.mjm', 'job.mjm.report.json', 'job.zip', 'job.zip.report.json']);
  assert.equal(readdirSync(d.error).sort(), ['bad.mjm', 'bad.mjm.report.json']);
  for (const n of names) assert.equal(reportFiles(n === 'bad.mjm' ? d.error : d.ok, n), expected[n], n);
  assert.ok(JSON.stringify(expected['bad.mjm']).includes('unescaped-space'));
});

test('a package still being written (half a zip, half a MIME package, then a pause past the settle time) is not taken until whole', async () => {
  const d = makeDirs();
  const zip = readFileSync(sample('xjdf-package.zip'));
  const mjm = readFileSync(sample('submit-queue-entry.mjm'));
  const w = await watchHere(d, { settleMs: 150, parseWaitMs: 10_000 });
  appendFileSync(path.join(d.in, 'slow.zip'), zip.subarray(0, 300));
  appendFileSync(path.join(d.in, 'slow.mjm'), mjm.subarray(0, 700));
  await sleep(900); // six settle times with half of each package in IN
  const pickedBefore = w.count('picked-up');
  appendFileSync(path.join(d.in, 'slow.zip'), zip.subarray(300));
  appendFileSync(path.join(d.in, 'slow.mjm'), mjm.subarray(700));
  await until(() => w.count('ok') + w.count('error') === 2, 30_000, 'both packages to be routed');
  await w.hot.stop();
  assert.is(pickedBefore, 0, 'taken before it was whole');
  assert.equal(readdirSync(d.ok).sort(), ['slow.mjm', 'slow.mjm.report.json', 'slow.zip', 'slow.zip.report.json']);
  for (const n of ['slow.zip', 'slow.mjm']) {
    copyFileSync(path.join(d.ok, n), path.join(d.in, n)); // validate it where it arrived: the same base
    assert.equal(reportFiles(d.ok, n), validateFiles(path.join(d.in, n)), n);
  }
});

test('a symbolic link in IN (to a ticket outside every folder of the step) is left in place, reported once, never read', async () => {
  const d = makeDirs();
  const elsewhere = path.join(d.base, 'elsewhere');
  mkdirSync(elsewhere);
  writeFileSync(path.join(elsewhere, 'secret.jdf'), ticketXml('secret'));
  symlinkSync(path.join(elsewhere, 'secret.jdf'), path.join(d.in, 'link.jdf'));
  spawnSync('mkfifo', [path.join(d.in, 'pipe.jdf')]);
  mkdirSync(path.join(d.in, 'folder.jdf'));
  drop(d, 'plain.jdf', ticketXml('plain'));
  const status = path.join(d.base, 'status.json');
  const w = await watchHere(d, { statusFile: status });
  await until(() => w.count('ok') === 1, 20_000, 'the plain ticket to be routed');
  await sleep(1500); // several poll intervals (200 ms) and sweeps: each one looks at the link again
  const skipped = w.events.filter((e) => e.event === 'skipped') as Array<{ ticket: string; reason: string; left: string }>;
  assert.equal(skipped.map((e) => [e.ticket, e.reason, e.left]).sort(), [
    ['folder.jdf', 'a folder', path.join(d.in, 'folder.jdf')],
    ['link.jdf', 'a symbolic link', path.join(d.in, 'link.jdf')],
    ...(existsSync(path.join(d.in, 'pipe.jdf')) ? [['pipe.jdf', 'a FIFO', path.join(d.in, 'pipe.jdf')]] : []),
  ]);
  const listed = JSON.parse(readFileSync(status, 'utf8')).skipped as Array<{ ticket: string }>;
  assert.ok(listed.some((s) => s.ticket === 'link.jdf'), JSON.stringify(listed));
  // A regular file put in the link's place is a ticket like any other.
  drop(d, 'link.jdf', ticketXml('replaced'));
  await until(() => w.count('ok') === 2, 20_000, 'the replacement to be routed');
  await w.hot.stop();
  assert.equal(routed(d).map((r) => r.id).sort(), ['plain', 'replaced']);
  assert.ok(lstatSync(path.join(d.in, 'pipe.jdf')).isFIFO());
  assert.is(readFileSync(path.join(elsewhere, 'secret.jdf'), 'utf8'), ticketXml('secret'));
});

test('a symbolic link found in a claim (swapped in before the rename, or adopted after a crash) goes back to IN unread', async () => {
  const d = makeDirs();
  const elsewhere = path.join(d.base, 'elsewhere');
  mkdirSync(elsewhere);
  writeFileSync(path.join(elsewhere, 'secret.jdf'), ticketXml('secret'));
  // The claim folder of a watcher on another host that has been gone longer than staleMs.
  const gone = path.join(defaultWork(d), 'otherhost.1.gone');
  const claim = path.join(gone, '0000~adopt.jdf');
  mkdirSync(claim, { recursive: true });
  symlinkSync(path.join(elsewhere, 'secret.jdf'), path.join(claim, 'adopt.jdf'));
  const past = new Date(Date.now() - 60_000);
  utimesSync(gone, past, past);
  const w = await watchHere(d, { staleMs: 1000 });
  await until(() => w.count('skipped') === 1, 20_000, 'the link to be skipped');
  await sleep(1000);
  await w.hot.stop();
  assert.is(w.count('skipped'), 1);
  const e = w.events.find((x) => x.event === 'skipped') as { left: string; reason: string };
  assert.equal([e.left, e.reason], [path.join(d.in, 'adopt.jdf'), 'a symbolic link']);
  assert.is(readlinkSync(path.join(d.in, 'adopt.jdf')), path.join(elsewhere, 'secret.jdf'));
  assert.equal(routed(d), []);
  assert.equal(existsSync(gone) ? readdirSync(gone) : [], []);
});

test('tickets with the longest legal names are routed; every name made (claim folder, routed ticket, each report) fits in 255 bytes', async () => {
  const d = makeDirs();
  const names = ['a'.repeat(246) + '.jdf', 'b'.repeat(251) + '.jdf', 'b'.repeat(250) + 'c.jdf', '\u00e9'.repeat(125) + '.jdf'];
  for (const [i, name] of names.entries()) {
    assert.ok(Buffer.byteLength(name) <= 255 && Buffer.byteLength(name) >= 250, name);
    writeFileSync(path.join(d.stage, `s${i}`), ticketXml(`long${i}`));
    renameSync(path.join(d.stage, `s${i}`), path.join(d.in, name));
  }
  const w = await watchHere(d, { reportFormats: ['json', 'sarif', 'txt'] });
  await until(() => w.count('ok') === names.length, 30_000, 'every long name to be routed');
  await w.hot.stop();
  assert.is(w.count('failed'), 0);
  const oks = w.events.filter((e) => e.event === 'ok') as Array<{ ticket: string; to: string; report: string }>;
  assert.equal(oks.map((e) => e.ticket).sort(), [...names].sort());
  assert.is(new Set(oks.map((e) => e.to)).size, names.length, 'routed names are unique');
  for (const e of oks) {
    const routedName = path.basename(e.to);
    for (const suffix of ['', '.report.json', '.report.sarif', '.report.txt']) {
      assert.ok(Buffer.byteLength(routedName + suffix) <= 255, routedName + suffix);
      assert.ok(existsSync(path.join(d.ok, routedName + suffix)), routedName + suffix);
    }
    assert.ok(routedName.startsWith(e.ticket.slice(0, 100)), `${routedName} keeps the start of ${e.ticket}`);
    assert.is(JSON.parse(readFileSync(e.report, 'utf8')).files[0].path, path.join(d.in, e.ticket));
  }
  assert.equal(ticketsUnder(d.in), []);
});

test('a permanent failure is tried a bounded number of times, then the ticket goes to ERROR saying what went wrong', async () => {
  const d = makeDirs();
  const w = await watchHere(d);
  rmSync(d.ok, { recursive: true });
  writeFileSync(d.ok, 'not a folder'); // every link into OK fails with ENOTDIR
  drop(d, 'clean.jdf', ticketXml('clean'));
  await until(() => w.count('error') === 1, 30_000, 'the ticket to be given up to ERROR');
  await sleep(1500);
  await w.hot.stop();
  const failed = w.events.filter((e) => e.event === 'failed') as Array<{ attempt: number; final: boolean; message: string }>;
  assert.equal(failed.map((e) => [e.attempt, e.final]), [[1, false], [2, false], [3, false], [4, false], [5, true]]);
  assert.match(failed[0]!.message, /ENOTDIR/);
  const ev = w.events.find((e) => e.event === 'error') as { reason: string };
  assert.match(ev.reason, /gave up after 5 failed attempts: .*ENOTDIR/);
  const report = JSON.parse(readFileSync(path.join(d.error, 'clean.jdf.report.json'), 'utf8'));
  assert.equal(report.files[0].findings.map((f: { code: string }) => f.code), ['internal-error']);
  assert.match(report.files[0].findings[0].message, /ENOTDIR/);
  assert.equal(readdirSync(d.error).sort(), ['clean.jdf', 'clean.jdf.report.json']);
});

test('when even ERROR cannot be reached, the ticket is left in its claim, said once, and not tried again', async () => {
  const d = makeDirs();
  const status = path.join(d.base, 'status.json');
  const w = await watchHere(d, { statusFile: status });
  for (const dir of [d.ok, d.error]) {
    rmSync(dir, { recursive: true });
    writeFileSync(dir, 'not a folder');
  }
  drop(d, 'stuck.jdf', ticketXml('stuck'));
  await until(() => w.count('warning') === 1, 30_000, 'the ticket to be given up');
  await sleep(2500); // five retry intervals: nothing more happens
  const held = JSON.parse(readFileSync(status, 'utf8')).held as Array<{ ticket: string; left: string }>;
  await w.hot.stop();
  assert.is(w.count('failed'), 5);
  assert.is(w.count('ok') + w.count('error'), 0);
  assert.equal(held.map((h) => h.ticket), ['stuck.jdf']);
  assert.ok(existsSync(held[0]!.left), held[0]!.left);
  assert.match((w.events.find((e) => e.event === 'warning') as { message: string }).message, /not tried again until the next start/);
});

test('a ticket that cannot even be claimed is left in IN after five attempts; another file put under its name is tried afresh', async () => {
  const d = makeDirs();
  const work = path.join(d.base, 'work');
  // No heartbeat while it runs: a heartbeat would see the work folder replaced and stop the watcher (issue 26).
  const w = await watchHere(d, { work, heartbeatMs: 3_600_000 });
  rmSync(work, { recursive: true });
  writeFileSync(work, 'not a folder'); // every claim fails with ENOTDIR
  drop(d, 'in.jdf', ticketXml('first'));
  await until(() => w.count('warning') === 1, 30_000, 'the ticket to be given up');
  await sleep(1500);
  assert.is(w.count('failed'), 5);
  drop(d, 'in.jdf', ticketXml('second'));
  await until(() => w.count('warning') === 2, 30_000, 'the second file to be given up too');
  await w.hot.stop();
  assert.is(w.count('failed'), 10);
  assert.match(readFileSync(path.join(d.in, 'in.jdf'), 'utf8'), /ID="second"/);
});

test('--wait-for-files: a referenced PDF still growing when the wait runs out sends the ticket to ERROR, named as still being written', async () => {
  const d = makeDirs();
  const jobs = path.join(d.base, 'root', 'jobs');
  mkdirSync(jobs, { recursive: true });
  const pdf = path.join(jobs, 'p1.pdf');
  writeFileSync(pdf, '%PDF-1.7\n');
  // The PDF grows every 100 ms, five times faster than the settle time: it never stands still for 500 ms.
  const grow = setInterval(() => appendFileSync(pdf, 'more bytes\n'), 100);
  try {
    drop(d, 'growing.jdf', ticketXml('growing', { directory: pathToFileURL(jobs).href + '/', urls: ['p1.pdf'] }));
    const w = await watchHere(d, { settleMs: 500, waitForFilesMs: 2000, local: { checkExists: true, maps: [], root: path.join(d.base, 'root') } });
    await until(() => w.count('ok') + w.count('error') === 1, 30_000, 'the ticket to be routed');
    await w.hot.stop();
    assert.is(w.count('ok'), 0, 'routed to OK with its PDF still being written');
    const waiting = w.events.filter((e) => e.event === 'waiting') as Array<{ unsettled?: string[] }>;
    assert.equal(waiting.map((e) => e.unsettled), [[pdf]]);
    const ev = w.events.find((e) => e.event === 'error') as { reason: string };
    assert.match(ev.reason, /1 referenced file\(s\) still being written after 2000 ms/);
    const report = JSON.parse(readFileSync(path.join(d.error, 'growing.jdf.report.json'), 'utf8'));
    const findings = report.files[0].references.flatMap((r: { findings: Array<{ code: string; message: string }> }) => r.findings);
    assert.equal(findings.map((f: { code: string }) => f.code), ['file-still-changing']);
    assert.ok(findings[0].message.includes(`${pdf} is still being written`), findings[0].message);
  } finally {
    clearInterval(grow);
  }
});

test('a claim taken up again after kill -9 keeps its first --wait-for-files clock: a crash loop cannot keep a ticket waiting forever', async () => {
  const d = makeDirs();
  const jobs = path.join(d.base, 'root', 'jobs');
  mkdirSync(jobs, { recursive: true });
  drop(d, 'never.jdf', ticketXml('never', { directory: pathToFileURL(jobs).href + '/', urls: ['p1.pdf'] }));
  const opts = { waitForFilesMs: 3000, local: { checkExists: true, maps: [], root: path.join(d.base, 'root') } };
  // Each life is half the wait: with a clock that restarts at each start, no life would ever see the end of it.
  let lines: string[] = [];
  for (let life = 0; life < 10 && !lines.some((l) => l.includes('"event":"error"')); life++) {
    const child = watchChild(d, opts);
    await sleep(1500);
    child.kill('SIGKILL');
    await exited(child);
    lines = [...lines, ...child.lines];
  }
  const routedEvent = lines.map((l) => JSON.parse(l) as { event: string; reason?: string; ms?: { wait: number } }).find((e) => e.event === 'error');
  assert.ok(routedEvent, `never routed in ten lives: ${lines.filter((l) => /resumed|waiting/.test(l)).length} resumed/waiting events`);
  assert.match(routedEvent.reason!, /still missing after 3000 ms/);
  assert.ok(routedEvent.ms!.wait >= 3000, `waited ${routedEvent.ms!.wait} ms by its first clock`);
  assert.ok(lines.some((l) => l.includes('"event":"resumed"')));
  assert.equal(readdirSync(d.error).sort(), ['never.jdf', 'never.jdf.report.json']);
});

test.after.each(stopAll);

test.run();
