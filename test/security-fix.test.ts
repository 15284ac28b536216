// Issue 20, HIGH and LOW: `fix` in a folder where someone else plants names. Backups and temporary files are
// created exclusively and never through a link; an existing FILE.orig is never overwritten; mode and owner are
// kept; a symbolically linked or hard-linked ticket is refused, not replaced; stale temporary files of ours
// (kill -9) are removed on the next fix.
import { execFileSync } from 'node:child_process';
import { chmodSync, chownSync, linkSync, lstatSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { fixFile, tempRandom, type FixOptions } from '../src/node/fix.js';
import { removeTempFolders, tempFolder } from './helpers.js';

const BAD = '<?xml version="1.0"?>\n<JDF Version="1.4"><ResourcePool><RunList Directory="file:///srv/hot/"><LayoutElement><FileSpec URL="a b.pdf"/></LayoutElement></RunList></ResourcePool></JDF>\n';
const GOOD = BAD.replace('a b.pdf', 'a%20b.pdf');
const OPTIONS: FixOptions = { dryRun: false, backup: false, validate: {} };
const BACKUP: FixOptions = { ...OPTIONS, backup: true };
const VICTIM = 'victim: must never change\n';

function folder(): string {
  return tempFolder('jfs-secfix-');
}

function victimIn(dir: string): string {
  const victim = path.join(dir, 'victim.txt');
  writeFileSync(victim, VICTIM);
  chmodSync(victim, 0o600);
  return victim;
}

test('fix --backup: a planted FILE.orig symbolic link is not followed; the fix is refused', async () => {
  const dir = folder();
  const victim = victimIn(dir);
  const ticket = path.join(dir, 't.jdf');
  writeFileSync(ticket, BAD);
  symlinkSync(victim, `${ticket}.orig`);
  const outcome = await fixFile(ticket, BACKUP);
  assert.ok(outcome.refused, 'refused');
  assert.is(readFileSync(victim, 'utf8'), VICTIM);
  assert.is(statSync(victim).mode & 0o777, 0o600);
  assert.ok(lstatSync(`${ticket}.orig`).isSymbolicLink());
  assert.is(readFileSync(ticket, 'utf8'), BAD);
});

test('fix --backup: an existing FILE.orig (an earlier or overlapping run) is never overwritten', async () => {
  const dir = folder();
  const ticket = path.join(dir, 't.jdf');
  writeFileSync(ticket, BAD);
  await fixFile(ticket, BACKUP);
  assert.is(readFileSync(`${ticket}.orig`, 'utf8'), BAD);
  writeFileSync(ticket, BAD.replace('a b.pdf', 'c d.pdf'));
  const second = await fixFile(ticket, BACKUP);
  assert.ok(second.refused);
  assert.is(readFileSync(`${ticket}.orig`, 'utf8'), BAD, 'the first original is kept');
});

test('fix --backup: the backup holds the original bytes and mode', async () => {
  const dir = folder();
  const ticket = path.join(dir, 't.jdf');
  writeFileSync(ticket, BAD);
  chmodSync(ticket, 0o640);
  const outcome = await fixFile(ticket, BACKUP);
  assert.ok(outcome.written);
  assert.is(readFileSync(`${ticket}.orig`, 'utf8'), BAD);
  assert.is(statSync(`${ticket}.orig`).mode & 0o7777, 0o640);
  assert.is(readFileSync(ticket, 'utf8'), GOOD);
});

// The names fix will try are made known (tempRandom), so the plants stand exactly where it creates: a hard link
// to the victim at the first name (only O_EXCL keeps fix from writing and chmod-ing the victim through it),
// a symbolic link at the second (O_EXCL refuses it; O_NOFOLLOW would too, and is not tested on its own: with
// O_EXCL a last-component link is never followed, so dropping O_NOFOLLOW alone changes nothing observable).
// Fix must leave both, take the third name, and write the ticket.
test('fix: names planted at the very temporary names fix tries (a hard link, a symbolic link) are neither written nor followed', async () => {
  const dir = folder();
  const victim = victimIn(dir);
  const ticket = path.join(dir, 't.jdf');
  writeFileSync(ticket, BAD);
  chmodSync(ticket, 0o644);
  const names = ['000000000001', '000000000002', '000000000003'];
  const at = (random: string) => path.join(dir, `.t.jdf.jdf-filespec-${process.pid}-${random}.tmp`);
  linkSync(victim, at(names[0]!));
  symlinkSync(victim, at(names[1]!));
  const real = tempRandom.next;
  const tried: string[] = [];
  tempRandom.next = () => {
    const next = names[tried.length] ?? real();
    tried.push(next);
    return next;
  };
  try {
    const outcome = await fixFile(ticket, OPTIONS);
    assert.ok(outcome.written);
  } finally {
    tempRandom.next = real;
  }
  assert.equal(tried, names, 'the planted names were tried first');
  assert.is(readFileSync(ticket, 'utf8'), GOOD);
  assert.is(readFileSync(victim, 'utf8'), VICTIM);
  assert.is(statSync(victim).mode & 0o777, 0o600);
  assert.is(statSync(victim).nlink, 2, 'the hard link is still there');
  assert.ok(lstatSync(at(names[1]!)).isSymbolicLink());
});

test('fix: the fixed ticket keeps its mode, and (as root) its owner and group', async () => {
  const dir = folder();
  const ticket = path.join(dir, 't.jdf');
  writeFileSync(ticket, BAD);
  chmodSync(ticket, 0o604);
  const asRoot = process.getuid?.() === 0;
  if (asRoot) chownSync(ticket, 4321, 4322);
  await fixFile(ticket, OPTIONS);
  const info = statSync(ticket);
  assert.is(readFileSync(ticket, 'utf8'), GOOD);
  assert.is(info.mode & 0o7777, 0o604);
  if (asRoot) {
    assert.is(info.uid, 4321);
    assert.is(info.gid, 4322);
  }
});

test('fix: a ticket that is a symbolic link is refused and stays a link', async () => {
  const dir = folder();
  const real = path.join(dir, 'real.jdf');
  writeFileSync(real, BAD);
  const ticket = path.join(dir, 't.jdf');
  symlinkSync(real, ticket);
  const outcome = await fixFile(ticket, OPTIONS);
  assert.match(outcome.refused ?? '', 'symbolic link');
  assert.ok(lstatSync(ticket).isSymbolicLink());
  assert.is(readFileSync(real, 'utf8'), BAD);
});

test('fix: a ticket with several hard links is refused, and its names stay one file', async () => {
  const dir = folder();
  const ticket = path.join(dir, 't.jdf');
  writeFileSync(ticket, BAD);
  linkSync(ticket, path.join(dir, 'other-name.jdf'));
  const outcome = await fixFile(ticket, OPTIONS);
  assert.match(outcome.refused ?? '', 'hard links');
  assert.is(statSync(ticket).ino, statSync(path.join(dir, 'other-name.jdf')).ino);
});

test('fix: a stale temporary file of ours (its process gone) is removed; others are left alone', async () => {
  const dir = folder();
  const ticket = path.join(dir, 't.jdf');
  writeFileSync(ticket, BAD);
  // A PID that is surely gone: a child that has exited.
  const gone = Number(execFileSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' }));
  const stale = `.t.jdf.jdf-filespec-${gone}-0123456789ab.tmp`;
  const staleOld = `.t.jdf.jdf-filespec-${gone}.tmp`;
  const live = `.t.jdf.jdf-filespec-1-0123456789ab.tmp`; // PID 1 is running
  const other = `.u.jdf.jdf-filespec-${gone}.tmp`; // another ticket's
  for (const name of [stale, staleOld, live, other]) writeFileSync(path.join(dir, name), 'partial');
  const staleLink = `.t.jdf.jdf-filespec-${gone}-ffffffffffff.tmp`;
  symlinkSync(victimIn(dir), path.join(dir, staleLink));
  await fixFile(ticket, OPTIONS);
  const left = readdirSync(dir);
  assert.not.ok(left.includes(stale));
  assert.not.ok(left.includes(staleOld));
  for (const name of [live, other, staleLink]) assert.ok(left.includes(name), name);
  assert.is(left.filter((n) => n.endsWith('.tmp')).length, 3, 'no temporary file of this run is left');
});

test.after(removeTempFolders);
test.run();
