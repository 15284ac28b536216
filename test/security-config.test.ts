// Issue 26, MEDIUM-LOW: jdf-filespec.config.json was taken from the nearest folder above the working folder,
// whoever owned it: in a world-writable parent (as /tmp is) another user's config changed what validate reports
// and what relocate archives. A config found upward is now ignored, with one line on standard error, when another
// user owns it, or when it or its folder can be written by group or others (a sticky folder excepted); a config
// named with --config is read as before.
import { spawnSync } from 'node:child_process';
import { chmodSync, chownSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { untrustedConfig } from '../src/node/config-file.js';
import { projectRoot } from './helpers.js';

const main = path.join(fileURLToPath(projectRoot), 'dist/src/cli/main.js');
// A vendor attribute that only the config makes a reference: whether the config was read shows in the report.
const TICKET = '<JDF Version="1.4"><ResourcePool><SequenceHome URL="seq.xml"/></ResourcePool></JDF>';
const CONFIG = JSON.stringify({ urlAttributes: ['SequenceHome/@URL'] });
const base = mkdtempSync(path.join(tmpdir(), 'jfs-seccfg-'));
const isRoot = process.getuid?.() === 0;
const OTHER_UID = 54321;

/** A folder `name` holding the config (with `mode`), and a job folder below it that the run starts in. */
function layout(name: string, folderMode: number, configMode = 0o644): { folder: string; config: string; job: string } {
  const folder = path.join(base, name);
  const job = path.join(folder, 'job');
  mkdirSync(job, { recursive: true });
  const config = path.join(folder, 'jdf-filespec.config.json');
  writeFileSync(config, CONFIG);
  chmodSync(config, configMode);
  writeFileSync(path.join(job, 't.jdf'), TICKET);
  chmodSync(folder, folderMode);
  return { folder, config, job };
}

const validate = (cwd: string, ...args: string[]) => spawnSync(process.execPath, [main, 'validate', 't.jdf', '--format', 'json', ...args], { encoding: 'utf8', cwd });
const configRead = (stdout: string): boolean => JSON.parse(stdout).files[0].references.some((r: { attribute: string }) => r.attribute === 'URL');

test.after(() => rmSync(base, { recursive: true, force: true }));

test('config: one found upward in a folder of our own is read, without a note', () => {
  const { job } = layout('own', 0o755);
  const r = validate(job);
  assert.is(r.status, 0, r.stderr);
  assert.ok(configRead(r.stdout));
  assert.is(r.stderr, '');
});

test('config: one found upward in a folder others can write (no sticky bit) is ignored, and standard error says why', () => {
  const { job, config, folder } = layout('world-writable', 0o777);
  const r = validate(job);
  assert.is(r.status, 0, r.stderr);
  assert.not.ok(configRead(r.stdout), 'the config was read');
  assert.is(r.stderr, `jdf-filespec: ignoring the config ${config}: its folder ${folder} is writable by others (mode 0777) without the sticky bit; name it with --config to use it\n`);
});

test('config: --config names that same file, and it is read', () => {
  const { job, config } = layout('world-writable-explicit', 0o777);
  const r = validate(job, '--config', config);
  assert.is(r.status, 0, r.stderr);
  assert.ok(configRead(r.stdout));
  assert.is(r.stderr, '');
});

test('config: a folder writable by its group is not trusted either', () => {
  const { job } = layout('group-writable', 0o775);
  const r = validate(job);
  assert.not.ok(configRead(r.stdout));
  assert.match(r.stderr, 'is writable by its group (mode 0775) without the sticky bit');
});

test('config: a config file others can write is ignored, though its folder is ours', () => {
  const { job } = layout('writable-file', 0o755, 0o666);
  const r = validate(job);
  assert.not.ok(configRead(r.stdout));
  assert.match(r.stderr, 'it is writable by others (mode 0666)');
});

test('config: our own config in a sticky world-writable folder (as /tmp is) is read', () => {
  const { job } = layout('sticky', 0o1777);
  const r = validate(job);
  assert.ok(configRead(r.stdout), r.stderr);
  assert.is(r.stderr, '');
});

test('config: one owned by another user is ignored', () => {
  if (!isRoot) {
    console.log('  skipped: giving the config to another uid needs root (CI runs the suite as root)');
    return;
  }
  const { job, config } = layout('other-owner', 0o755);
  chownSync(config, OTHER_UID, OTHER_UID);
  const r = validate(job);
  assert.not.ok(configRead(r.stdout), 'the config was read');
  assert.is(r.stderr, `jdf-filespec: ignoring the config ${config}: it is owned by uid ${OTHER_UID}, not by you (uid 0) or root; name it with --config to use it\n`);
});

// The rule itself, for a user who is not root (the CLI cases above run as whoever runs the suite).
test('config: untrustedConfig follows the owner and mode bits', () => {
  const me = 1000;
  assert.is(untrustedConfig({ uid: me, mode: 0o100644 }, { uid: me, mode: 0o40755 }, '/d', me), null);
  assert.is(untrustedConfig({ uid: 0, mode: 0o100644 }, { uid: 0, mode: 0o40755 }, '/d', me), null);
  assert.is(untrustedConfig({ uid: me, mode: 0o100644 }, { uid: 0, mode: 0o41777 }, '/tmp', me), null);
  assert.is(untrustedConfig({ uid: 1001, mode: 0o100644 }, { uid: 0, mode: 0o41777 }, '/tmp', me), 'it is owned by uid 1001, not by you (uid 1000) or root');
  assert.is(untrustedConfig({ uid: me, mode: 0o100644 }, { uid: 1001, mode: 0o40755 }, '/d', me), 'its folder /d is owned by uid 1001, not by you (uid 1000) or root');
  assert.is(untrustedConfig({ uid: me, mode: 0o100664 }, { uid: me, mode: 0o40755 }, '/d', me), 'it is writable by its group (mode 0664)');
  assert.is(untrustedConfig({ uid: me, mode: 0o100644 }, { uid: me, mode: 0o40777 }, '/d', undefined), null, 'no POSIX owners (Windows): nothing refused');
});

test.run();
