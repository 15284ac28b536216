// Issue 26: fix replaces a ticket by rename, and the new file had none of the ticket's extended attributes or
// POSIX ACL (a user the ACL denied could then read the fixed ticket), and a read-only ticket (mode 0444) was
// rewritten all the same. Now the new file gets them, and a read-only ticket is left alone unless
// --allow-read-only. Python's os.setxattr and os.getxattr (the system calls, not our module) make and read them.
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { projectRoot } from './helpers.js';

const main = fileURLToPath(new URL('dist/src/cli/main.js', projectRoot));
const cli = (...args: string[]) => spawnSync(process.execPath, [main, ...args], { encoding: 'utf8' });
const dir = mkdtempSync(path.join(tmpdir(), 'jfs-fixattr-'));
const TICKET = '<JDF Version="1.4"><ResourcePool><RunList><FileSpec URL="my file.pdf"/></RunList></ResourcePool></JDF>';
const FIXED = TICKET.replace('my file.pdf', 'my%20file.pdf');

test.after(() => rmSync(dir, { recursive: true, force: true }));

// An access ACL (acl_ea format: version 2, then tag, permissions, id per entry): the owner rw, user 54321 nothing,
// the group and the mask r, others r. Without it, user 54321 falls to "others" and may read the ticket.
const PYTHON = `
import os, struct, sys, json
f, action = sys.argv[1], sys.argv[2]
U = 0xffffffff
acl = struct.pack('<I', 2) + b''.join(struct.pack('<HHI', *e) for e in [(1, 6, U), (2, 0, 54321), (4, 4, U), (0x10, 4, U), (0x20, 4, U)])
if action == 'set':
    os.setxattr(f, 'user.jdf.origin', b'MIS \\x00\\xff 4711')
    os.setxattr(f, 'system.posix_acl_access', acl)
print(json.dumps({n: os.getxattr(f, n).hex() for n in sorted(os.listxattr(f))}))
`;
const python = (file: string, action: 'set' | 'get') => spawnSync('python3', ['-c', PYTHON, file, action], { encoding: 'utf8' });

test('fix: the fixed ticket keeps its extended attributes and its POSIX ACL', () => {
  const file = path.join(dir, 'acl.jdf');
  writeFileSync(file, TICKET);
  const set = python(file, 'set');
  if (set.error || set.status !== 0) {
    console.log(`  skipped: python3 could not set extended attributes or an ACL here: ${set.error?.message ?? set.stderr}`);
    return;
  }
  const before = JSON.parse(set.stdout) as Record<string, string>;
  assert.equal(Object.keys(before), ['system.posix_acl_access', 'user.jdf.origin']);
  const r = cli('fix', file, '--backup');
  assert.is(r.status, 0, r.stderr);
  assert.is(readFileSync(file, 'utf8'), FIXED);
  assert.equal(JSON.parse(python(file, 'get').stdout), before, 'the fixed ticket');
  assert.equal(JSON.parse(python(`${file}.orig`, 'get').stdout), before, 'the original kept as FILE.orig');
});

test('rebase: the rebased ticket keeps its extended attributes and its POSIX ACL, as fix does', () => {
  const folder = path.join(dir, 'rebase');
  mkdirSync(folder);
  writeFileSync(path.join(folder, 'jdf-filespec.config.json'), JSON.stringify({ views: { mis: {}, rip: {} }, storage: { jobs: { mis: 'file://fileserver/Jobs/', rip: '/mnt/jobs/' } } }));
  const file = path.join(folder, 't.jdf');
  const text = '<JDF Version="1.4"><ResourcePool><RunList><FileSpec URL="file://fileserver/Jobs/a.pdf"/></RunList></ResourcePool></JDF>';
  writeFileSync(file, text);
  const set = python(file, 'set');
  if (set.error || set.status !== 0) {
    console.log(`  skipped: python3 could not set extended attributes or an ACL here: ${set.error?.message ?? set.stderr}`);
    return;
  }
  const r = spawnSync(process.execPath, [main, 'rebase', 't.jdf', '--to', 'rip'], { cwd: folder, encoding: 'utf8' });
  assert.is(r.status, 0, r.stderr);
  assert.is(readFileSync(file, 'utf8'), text.replace('file://fileserver/Jobs/', 'file:///mnt/jobs/'));
  assert.equal(JSON.parse(python(file, 'get').stdout), JSON.parse(set.stdout));
});

test('fix: a read-only ticket (mode 0444) is not fixed, and says so; --dry-run says the same', () => {
  const file = path.join(dir, 'read-only.jdf');
  writeFileSync(file, TICKET);
  chmodSync(file, 0o444);
  for (const dry of [[], ['--dry-run']]) {
    const r = cli('fix', file, ...dry);
    // The ticket's error is left, so fix exits 1 (as eslint --fix does) and says so after its note.
    assert.is(r.status, 1, r.stderr);
    assert.is(r.stderr.split('\n')[0], `${file}: not fixed: the ticket is read-only (mode 0444); --allow-read-only fixes it anyway`);
    assert.is(readFileSync(file, 'utf8'), TICKET);
  }
});

test('fix --allow-read-only: a read-only ticket is fixed and stays read-only', () => {
  const file = path.join(dir, 'read-only-allowed.jdf');
  writeFileSync(file, TICKET);
  chmodSync(file, 0o444);
  const r = cli('fix', file, '--allow-read-only');
  assert.is(r.status, 0, r.stderr);
  assert.is(readFileSync(file, 'utf8'), FIXED);
  assert.is(statSync(file).mode & 0o7777, 0o444);
});

test.run();
