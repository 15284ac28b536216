// watch: the work area is where producers cannot write, and nothing in it is trusted but what the watcher made
// (issue 26, "the work area lives where producers write"). Each attack of the issue, planted as files (the
// suite may run as root: a planted file stands for another user's), with the exact path it aimed at checked
// afterwards. Every folder made here is removed at the end of its test.
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, chownSync, existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { projectRoot } from './helpers.js';
import { drop, exited, makeDirs, routed, stopAll, stopLater, ticketXml, until, watchHere, type Dirs } from './watch-helpers.js';

const main = fileURLToPath(new URL('dist/src/cli/main.js', projectRoot));
const asRoot = process.getuid?.() === 0;

/** The route record an attacker writes: the fields a watcher writes, the routed name climbing out of OK. */
const evilRecord = (name: string) => JSON.stringify({ to: 'ok', name, counts: { error: 0, warning: 0, info: 0 }, formats: ['json'], reason: 'no error finding', temp: '.jdf-filespec-0badc0de.part' });

/**
 * A claim left by an owner that looks gone (another host, not heard of for a minute), under `work`: its own
 * ticket, a report and a route record naming `../rootonly/pwned`. Returns the claim folder.
 */
function plantOrphan(work: string, options: { record?: string; ownerMode?: number } = {}): string {
  const owner = path.join(work, 'otherhost.1.gone');
  const claim = path.join(owner, '0000~evil.jdf');
  mkdirSync(claim, { recursive: true, mode: 0o700 });
  chmodSync(owner, options.ownerMode ?? 0o700);
  writeFileSync(path.join(claim, 'evil.jdf'), ticketXml('evil'));
  writeFileSync(path.join(claim, 'report.json'), '{"planted":true}');
  if (options.record !== undefined) writeFileSync(path.join(claim, 'route.json'), options.record);
  const past = new Date(Date.now() - 60_000);
  utimesSync(owner, past, past);
  return claim;
}

/** A folder only root may enter, beside OK: where the attack of the issue made a root watcher create files. */
function rootOnly(d: Dirs): string {
  const dir = path.join(d.base, 'rootonly');
  mkdirSync(dir, { mode: 0o700 });
  return dir;
}

/** A ticket dropped and routed: proof that the watcher has been running (heartbeats, adoption) meanwhile. */
async function oneRouted(d: Dirs, w: { count(kind: string): number }, id: string): Promise<void> {
  drop(d, `${id}.jdf`, ticketXml(id));
  await until(() => w.count('ok') + w.count('error') >= 1, 20_000, `${id} to be routed`);
}

const clean = (d: Dirs) => rmSync(d.base, { recursive: true, force: true });

test('by default the work folder is beside IN, not in it (where producers write), made 0700', async () => {
  const d = makeDirs('jfs-sec-watch-');
  try {
    const w = await watchHere(d);
    const started = w.events.find((e) => e.event === 'started') as { work: string };
    await w.hot.stop();
    assert.is(started.work, path.join(d.base, '.in.jdf-filespec'));
    assert.is(lstatSync(started.work).mode & 0o777, 0o700);
    assert.equal(readdirSync(d.in), []);
  } finally {
    clean(d);
  }
});

test('an orphan claim planted in IN/.jdf-filespec (the old default) is not taken up: its route to ../rootonly/pwned creates nothing', async () => {
  const d = makeDirs('jfs-sec-watch-');
  try {
    const rootonly = rootOnly(d);
    const claim = plantOrphan(path.join(d.in, '.jdf-filespec'), { record: evilRecord('../rootonly/pwned') });
    const w = await watchHere(d, { staleMs: 1000 });
    await oneRouted(d, w, 'plain');
    await w.hot.stop();
    assert.equal(readdirSync(rootonly), []);
    assert.is(w.count('resumed'), 0);
    assert.equal(routed(d).map((r) => r.id), ['plain']);
    assert.ok(existsSync(path.join(claim, 'evil.jdf')), 'the planted claim is left as it was');
    const warning = w.events.find((e) => e.event === 'warning') as { message: string } | undefined;
    assert.match(warning?.message ?? '', /\.jdf-filespec was the default work folder/);
  } finally {
    clean(d);
  }
});

test('a claim in the work folder whose route.json names ../rootonly/pwned is reported (untrusted) and left; nothing is placed', async () => {
  const d = makeDirs('jfs-sec-watch-');
  try {
    const rootonly = rootOnly(d);
    const work = path.join(d.base, 'work');
    const claim = plantOrphan(work, { record: evilRecord('../rootonly/pwned') });
    const w = await watchHere(d, { work, staleMs: 1000 });
    await oneRouted(d, w, 'plain');
    await w.hot.stop();
    assert.equal(readdirSync(rootonly), []);
    assert.equal(readdirSync(d.ok).filter((n) => !n.startsWith('plain.jdf')), []);
    const untrusted = w.events.filter((e) => e.event === 'untrusted') as Array<{ path: string; reason: string }>;
    assert.equal(untrusted.map((e) => e.path), [path.join(claim, 'route.json')]);
    assert.match(untrusted[0]!.reason, /routed name "\.\.\/rootonly\/pwned"/);
    assert.ok(existsSync(path.join(claim, 'evil.jdf')), 'the claim is left where it was');
  } finally {
    clean(d);
  }
});

test('claims the watcher did not make are not adopted: an owner folder others can write, a claim folder that is a link, one owned by someone else, a report that is a link', async () => {
  const d = makeDirs('jfs-sec-watch-');
  try {
    const work = path.join(d.base, 'work');
    const secret = path.join(d.base, 'secret');
    mkdirSync(secret, { mode: 0o700 });
    writeFileSync(path.join(secret, 'taken.jdf'), ticketXml('taken'));
    writeFileSync(path.join(secret, 'shadow'), 'root only');
    // 1. An owner folder group and others can write: anyone could have put the claim there.
    const open = plantOrphan(work, { ownerMode: 0o777 });
    // 2. A claim folder that is a link to a folder elsewhere: adopting it would route (and delete) that folder's ticket.
    const owner2 = path.join(work, 'otherhost.2.gone');
    mkdirSync(owner2, { mode: 0o700 });
    symlinkSync(secret, path.join(owner2, '0000~taken.jdf'));
    // 3. With a route record the watcher could have written, but a report that is a link to a root-only file.
    const owner3 = path.join(work, 'otherhost.3.gone');
    const claim3 = path.join(owner3, '0000~linked.jdf');
    mkdirSync(claim3, { recursive: true, mode: 0o700 });
    writeFileSync(path.join(claim3, 'linked.jdf'), ticketXml('linked'));
    symlinkSync(path.join(secret, 'shadow'), path.join(claim3, 'report.json'));
    writeFileSync(path.join(claim3, 'route.json'), evilRecord('linked.jdf'));
    // 4. A claim folder owned by another user (only root can plant that one).
    const owner4 = path.join(work, 'otherhost.4.gone');
    const claim4 = path.join(owner4, '0000~theirs.jdf');
    if (asRoot) {
      mkdirSync(claim4, { recursive: true, mode: 0o700 });
      writeFileSync(path.join(claim4, 'theirs.jdf'), ticketXml('theirs'));
      chownSync(claim4, 12345, 12345);
    }
    const past = new Date(Date.now() - 60_000);
    for (const o of [owner2, owner3, ...(asRoot ? [owner4] : [])]) utimesSync(o, past, past);
    const w = await watchHere(d, { work, staleMs: 1000 });
    await oneRouted(d, w, 'plain');
    await w.hot.stop();
    assert.equal(routed(d).map((r) => r.id), ['plain']);
    assert.equal(readdirSync(d.ok).filter((n) => !n.startsWith('plain.jdf')), []);
    assert.is(readFileSync(path.join(secret, 'taken.jdf'), 'utf8'), ticketXml('taken'));
    assert.is(readFileSync(path.join(secret, 'shadow'), 'utf8'), 'root only');
    const untrusted = (w.events.filter((e) => e.event === 'untrusted') as Array<{ path: string }>).map((e) => path.relative(work, e.path)).sort();
    const expected = ['otherhost.1.gone', path.join('otherhost.2.gone', '0000~taken.jdf'), ...(asRoot ? [path.join('otherhost.4.gone', '0000~theirs.jdf')] : [])];
    // The third is adopted (its folder and record are sound) and refused when its report is to be placed.
    assert.equal(untrusted.filter((p) => !p.endsWith('report.json')), expected.sort());
    assert.ok(untrusted.some((p) => /~linked\.jdf\/report\.json$/.test(p)), untrusted.join(', '));
    assert.ok(existsSync(path.join(open, 'evil.jdf')));
    if (asRoot) assert.ok(existsSync(path.join(claim4, 'theirs.jdf')));
  } finally {
    clean(d);
  }
});

test('with umask 002, a claim left waiting for its files is taken up again at the next start (claim folders are made 0700)', async () => {
  const d = makeDirs('jfs-sec-watch-');
  const umask = process.umask(0o002);
  try {
    const jobs = path.join(d.base, 'jobs');
    mkdirSync(jobs);
    drop(d, 'w.jdf', ticketXml('w', { directory: pathToFileURL(jobs).href + '/', urls: ['p1.pdf'] }));
    const waitLong = { local: { checkExists: true, maps: [] }, waitForFilesMs: 600_000 };
    const first = await watchHere(d, waitLong);
    await until(() => first.count('waiting') === 1, 20_000, 'the ticket to wait for its file');
    await first.hot.stop();
    const second = await watchHere(d, waitLong);
    await second.hot.stop();
    assert.is(second.count('untrusted'), 0, JSON.stringify(second.events.filter((e) => e.event === 'untrusted')));
    assert.is(second.count('resumed'), 1);
  } finally {
    process.umask(umask);
    clean(d);
  }
});

test('a symbolic link planted at the status temporary name (.status.json.OWNER.tmp) is never written through', async () => {
  const d = makeDirs('jfs-sec-watch-');
  try {
    const work = path.join(d.base, 'work');
    const run = path.join(d.base, 'run');
    mkdirSync(run);
    const statusFile = path.join(run, 'status.json');
    const w = await watchHere(d, { work, statusFile, heartbeatMs: 100 });
    const owner = w.hot.owner;
    const victims = [path.join(d.base, 'victim-work'), path.join(d.base, 'victim-run')];
    for (const v of victims) writeFileSync(v, 'root only');
    symlinkSync(victims[0]!, path.join(work, owner, `.status.json.${owner}.tmp`));
    symlinkSync(victims[1]!, path.join(run, `.status.json.${owner}.tmp`));
    // Three rewrites of the status file after the links were planted (each is a new file renamed into place).
    const seen = new Set<number>([lstatSync(statusFile).ino]);
    await until(() => {
      seen.add(lstatSync(statusFile).ino);
      return seen.size >= 4;
    }, 20_000, 'the status file to be rewritten three times');
    await w.hot.stop();
    for (const v of victims) assert.is(readFileSync(v, 'utf8'), 'root only', v);
    assert.ok(lstatSync(statusFile).isFile(), 'the status file is a file, not the planted link');
  } finally {
    clean(d);
  }
});

test('a work folder swapped for another while running: the watcher says so and stops, and takes nothing into the new one', async () => {
  const d = makeDirs('jfs-sec-watch-');
  try {
    const work = path.join(d.base, 'work');
    const w = await watchHere(d, { work, heartbeatMs: 100 });
    renameSync(work, work + '.old');
    mkdirSync(work, { mode: 0o700 });
    await until(() => w.count('stopped') === 1, 20_000, 'the watcher to stop by itself');
    const said = w.events.find((e) => e.event === 'work-unsafe') as { work: string; reason: string } | undefined;
    assert.is(said?.work, work);
    assert.match(said?.reason ?? '', /another folder/);
    drop(d, 'late.jdf', ticketXml('late'));
    await w.hot.stop();
    assert.equal(readdirSync(work), []);
    assert.ok(existsSync(path.join(d.in, 'late.jdf')));
  } finally {
    clean(d);
  }
});

test('a work folder group or others can write is refused at start (exit 2, naming --work), and so is one in an IN others can write without the sticky bit', () => {
  const d = makeDirs('jfs-sec-watch-');
  try {
    const watch = (...args: string[]) => spawnSync(process.execPath, [main, 'watch', d.in, '--ok', d.ok, '--error', d.error, ...args], { encoding: 'utf8', timeout: 20_000 });
    const work = path.join(d.base, 'work');
    mkdirSync(work);
    chmodSync(work, 0o777);
    const open = watch('--work', work);
    assert.is(open.status, 2, open.stderr);
    assert.match(open.stderr, /the work folder .*work is not safe: group or others can write it \(mode 0777\); give --work a folder/);
    chmodSync(d.in, 0o777);
    const inside = watch('--work', path.join(d.in, '.jdf-filespec'));
    assert.is(inside.status, 2, inside.stderr);
    assert.match(inside.stderr, new RegExp(`group or others can write ${d.in} above it \\(mode 0777\\) and it has no sticky bit`));
    if (asRoot) {
      const theirs = path.join(d.base, 'theirs');
      mkdirSync(theirs, { mode: 0o700 });
      chownSync(theirs, 12345, 12345);
      const owned = watch('--work', theirs);
      assert.is(owned.status, 2, owned.stderr);
      assert.match(owned.stderr, /owned by uid 12345/);
    }
  } finally {
    clean(d);
  }
});

test('a work folder inside an IN with the sticky bit (as /tmp has) is accepted', async () => {
  const d = makeDirs('jfs-sec-watch-');
  try {
    chmodSync(d.in, 0o1777);
    const w = await watchHere(d, { work: path.join(d.in, '.work') });
    await oneRouted(d, w, 'plain');
    await w.hot.stop();
    assert.equal(routed(d).map((r) => r.id), ['plain']);
  } finally {
    clean(d);
  }
});

test('a work folder opened to others while running: work-unsafe, the watcher stops and exits 2', async () => {
  const d = makeDirs('jfs-sec-watch-');
  try {
    const work = path.join(d.base, 'work');
    const proc = spawn(process.execPath, [main, 'watch', d.in, '--ok', d.ok, '--error', d.error, '--work', work, '--settle', '150ms'], { stdio: ['ignore', 'pipe', 'pipe'] });
    stopLater(() => proc.kill('SIGKILL'));
    let out = '';
    proc.stdout.on('data', (c: Buffer) => (out += c.toString()));
    await until(() => out.includes('"event":"started"'), 20_000, 'the watcher to start');
    chmodSync(work, 0o777);
    await until(() => proc.exitCode !== null || proc.signalCode !== null, 30_000, 'the watcher to stop by itself');
    assert.is(await exited(proc), 2);
    const events = out.trim().split('\n').map((l) => JSON.parse(l) as { event: string; reason?: string });
    assert.equal(events.map((e) => e.event), ['started', 'work-unsafe', 'stopping', 'stopped']);
    assert.match(events[1]!.reason ?? '', /group or others can write it \(mode 0777\)/);
  } finally {
    clean(d);
  }
});

test.after.each(stopAll);

test.run();
