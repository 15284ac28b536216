// A --dry-run patch masks secrets (issue 15: masked everywhere), and a masked line no longer matches the file:
// the command says so on standard error, and a patch whose hunks hold no secret still applies with git apply and
// patch (issue 10: a diff that applies). Expected values: what git and patch do with the files.
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { runCli } from './in-process.js';

const dir = realpathSync(mkdtempSync(path.join(tmpdir(), 'jfs-patch-secrets-')));
const cli = (...args: string[]) => runCli(args, { encoding: 'utf8', cwd: dir });
const filler = Array.from({ length: 12 }, (_, k) => `<!-- line ${k} -->`);
/** A ticket with a raw space to fix, and a FileSpec/@Password either beside it or ten lines away. */
const ticket = (near: boolean) => ['<JDF Version="1.7"><ResourcePool><RunList>', `<LayoutElement><FileSpec URL="a b.pdf"${near ? ' Password="hunter2"' : ''}/></LayoutElement>`, ...filler, `<LayoutElement><FileSpec URL="c.pdf"${near ? '' : ' Password="hunter2"'}/></LayoutElement>`, '</RunList></ResourcePool></JDF>', ''].join('\n');

/** Whether `tool` applies the patch to a copy of the ticket, giving the bytes fix writes. */
function applies(tool: 'git' | 'patch', patchText: string, original: string, fixed: string): boolean {
  const work = mkdtempSync(path.join(dir, `${tool}-`));
  writeFileSync(path.join(work, 't.jdf'), original);
  writeFileSync(path.join(work, 'p.diff'), patchText);
  const r = tool === 'git'
    ? spawnSync('git', ['apply', '-p1', 'p.diff'], { cwd: work, encoding: 'utf8' })
    : spawnSync('patch', ['-p1', '--batch', '-i', 'p.diff'], { cwd: work, encoding: 'utf8' });
  return r.status === 0 && readFileSync(path.join(work, 't.jdf'), 'utf8') === fixed;
}

for (const near of [false, true]) {
  test(`fix --dry-run with a Password ${near ? 'in the hunk: masked, a note, and the patch does not apply' : 'outside every hunk: no note, and the patch applies'}`, async () => {
    writeFileSync(path.join(dir, 't.jdf'), ticket(near));
    const r = await cli('fix', 't.jdf', '--dry-run');
    assert.is(r.status, 0, r.stderr);
    assert.not.ok(r.stdout.includes('hunter2'));
    copyFileSync(path.join(dir, 't.jdf'), path.join(dir, 'fixed.jdf'));
    assert.is((await cli('fix', 'fixed.jdf')).status, 0);
    const fixed = readFileSync(path.join(dir, 'fixed.jdf'), 'utf8');
    assert.ok(fixed.includes('URL="a%20b.pdf"'));
    const patchText = r.stdout.replace(/fixed\.jdf/g, 't.jdf');
    for (const tool of ['git', 'patch'] as const) {
      const hasTool = spawnSync(tool, ['--version']).status === 0;
      if (hasTool) assert.is(applies(tool, patchText, ticket(near), fixed), !near, tool);
    }
    if (near) assert.match(r.stderr, 't.jdf: the diff masks secrets on 2 lines');
    else assert.not.match(r.stderr, 'masks secrets');
  });
}

test.after(() => rmSync(dir, { recursive: true, force: true }));
test.run();
