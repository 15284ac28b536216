// fix --dry-run prints a diff that applies: `git apply` and GNU `patch` each turn the original into exactly
// the bytes `fix` itself writes, for LF and CRLF tickets; the "not fixed" notes stay off standard output.
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createTwoFilesPatch, FILE_HEADERS_ONLY } from 'diff';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { projectRoot } from './helpers.js';
import { runCli } from './in-process.js';

const main = path.join(fileURLToPath(projectRoot), 'dist/src/cli/main.js');
const dir = mkdtempSync(path.join(os.tmpdir(), 'jdf-diff-'));
const LINES = [
  '<?xml version="1.0" encoding="UTF-8"?>',
  '<JDF xmlns="http://www.CIP4.org/JDFSchema_1_1" Type="Product" ID="n" Status="Waiting" Version="1.3">',
  '  <ResourcePool>',
  '    <RunList ID="RL1" Directory="file:///c:/jobs/4711">',
  '      <LayoutElement><FileSpec URL="my docs/a.pdf"/></LayoutElement>',
  '    </RunList>',
  '    <!-- unchanged lines between the changes -->',
  '    <RunList ID="RL2"><LayoutElement><FileSpec URL="file:///c:/ok.pdf"/></LayoutElement></RunList>',
  '    <RunList ID="RL3"><LayoutElement><FileSpec URL="file:///c:/ok2.pdf"/></LayoutElement></RunList>',
  '    <RunList ID="RL4"><LayoutElement><FileSpec URL="file:///c:/ok3.pdf"/></LayoutElement></RunList>',
  '    <RunList ID="RL5"><LayoutElement><FileSpec URL="file:///c:/ok4.pdf"/></LayoutElement></RunList>',
  '    <RunList ID="RL6"><LayoutElement><FileSpec URL="file:///c:/ok5.pdf"/></LayoutElement></RunList>',
  '    <RunList ID="RL7"><LayoutElement><FileSpec URL="file://c:/b c.pdf"/></LayoutElement></RunList>',
  '    <RunList ID="RL8"><LayoutElement><FileSpec URL="job#1.pdf"/></LayoutElement></RunList>',
  '  </ResourcePool>',
  '</JDF>',
];

const has = (command: string) => spawnSync(command, ['--version'], { encoding: 'utf8' }).status === 0;

for (const [label, eol] of [['LF', '\n'], ['CRLF', '\r\n']] as const) {
  test(`fix --dry-run on a ${label} ticket: git apply and patch both give the bytes fix writes`, async () => {
    const work = path.join(dir, label);
    mkdirSync(work, { recursive: true });
    const original = LINES.join(eol) + eol;
    writeFileSync(path.join(work, 't.jdf'), original);
    const dry = await runCli(['fix', 't.jdf', '--dry-run'], { cwd: work, encoding: 'utf8' });
    assert.is(dry.status, 1, 'job#1.pdf is left: exit 1');
    assert.is(readFileSync(path.join(work, 't.jdf'), 'utf8'), original, 'dry run changes nothing');
    assert.match(dry.stdout, /^--- a\/t\.jdf\n\+\+\+ b\/t\.jdf\n@@ /);
    assert.not.match(dry.stdout, /not fixed/);
    assert.match(dry.stderr, /not fixed: .*"job#1\.pdf"/);
    writeFileSync(path.join(work, 'fix.diff'), dry.stdout);
    // The oracle: what fix writes in place.
    copyFileSync(path.join(work, 't.jdf'), path.join(work, 'expected.jdf'));
    const real = await runCli(['fix', 'expected.jdf'], { cwd: work, encoding: 'utf8' });
    assert.is(real.status, 1, real.stderr);
    const expected = readFileSync(path.join(work, 'expected.jdf'));
    assert.is.not(expected.toString('utf8'), original);
    if (has('git')) {
      const g = spawnSync('git', ['apply', '--no-index', 'fix.diff'], { cwd: work, encoding: 'utf8' });
      assert.is(g.status, 0, g.stderr);
      assert.ok(readFileSync(path.join(work, 't.jdf')).equals(expected), 'git apply');
      writeFileSync(path.join(work, 't.jdf'), original);
    }
    if (has('patch')) {
      const p = spawnSync('patch', ['-p1', '--batch', '-i', 'fix.diff'], { cwd: work, encoding: 'utf8' });
      assert.is(p.status, 0, p.stdout + p.stderr);
      assert.ok(readFileSync(path.join(work, 't.jdf')).equals(expected), 'patch');
    }
  });
}

/**
 * A ticket with `fixes` values to fix, the gaps between them cycling through 0 to 8 unchanged lines (so hunks are
 * joined and kept apart), some lines with two, ending without a final newline after a fix.
 */
function manyFixes(fixes: number, eol: string): string {
  const lines = ['<JDF xmlns="http://www.CIP4.org/JDFSchema_1_1" Type="Product" ID="n" Status="Waiting" Version="1.3">', '<ResourcePool><RunList ID="RL">'];
  for (let k = 0; k < fixes; k++) {
    lines.push(k % 7 === 3 ? `<LayoutElement><FileSpec URL="d ${k}/a.pdf"/><FileSpec URL="e ${k}.pdf"/></LayoutElement>` : `<LayoutElement><FileSpec URL="d ${k}/a b.pdf"/></LayoutElement>`);
    if (k % 7 === 3) k++;
    for (let g = 0; g < k % 9; g++) lines.push(`<!-- ${g} -->`);
  }
  lines.push('<LayoutElement><FileSpec URL="last one.pdf"/></LayoutElement></RunList></ResourcePool></JDF>');
  return lines.join(eol);
}

/** fix --dry-run's patch and the bytes fix writes, for `original` as t.jdf in a folder of its own. */
async function dryAndReal(label: string, original: string): Promise<{ patch: string; fixed: string }> {
  const work = path.join(dir, label);
  mkdirSync(work, { recursive: true });
  writeFileSync(path.join(work, 't.jdf'), original);
  const dry = await runCli(['fix', 't.jdf', '--dry-run'], { cwd: work, encoding: 'utf8', maxBuffer: 1 << 30 });
  assert.ok(dry.status === 0 || dry.status === 1, dry.stderr);
  writeFileSync(path.join(work, 'fix.diff'), dry.stdout);
  copyFileSync(path.join(work, 't.jdf'), path.join(work, 'expected.jdf'));
  const real = await runCli(['fix', 'expected.jdf'], { cwd: work, encoding: 'utf8' });
  assert.is(real.status, dry.status, 'a dry run exits as the real one: the errors its edits would leave');
  return { patch: dry.stdout, fixed: readFileSync(path.join(work, 'expected.jdf'), 'utf8') };
}

for (const [label, eol] of [['LF', '\n'], ['CRLF', '\r\n']] as const) {
  test(`fix --dry-run with 2,000 fixes on a ${label} ticket is jsdiff's patch of the whole text`, async () => {
    const original = manyFixes(2000, eol);
    const { patch, fixed } = await dryAndReal(`oracle-${label}`, original);
    assert.ok(fixed.includes('URL="last%20one.pdf"'));
    // The oracle: jsdiff's diff of the whole file before and after, as fix --dry-run printed it before windows.
    assert.is(patch, createTwoFilesPatch('a/t.jdf', 'b/t.jdf', original, fixed, undefined, undefined, { context: 3, headerOptions: FILE_HEADERS_ONLY }));
  });
}

test('fix --dry-run with 20,000 fixes: git apply gives the bytes fix writes', async () => {
  const original = manyFixes(20_000, '\n');
  const { patch, fixed } = await dryAndReal('many', original);
  const changed = (lines: string[]) => lines.filter((line) => line.includes('<FileSpec')).length;
  assert.is(changed(patch.split('\n').filter((line) => line.startsWith('+'))), changed(original.split('\n')), 'each line with a FileSpec changes');
  if (has('git')) {
    const work = path.join(dir, 'many');
    const g = spawnSync('git', ['apply', '--no-index', 'fix.diff'], { cwd: work, encoding: 'utf8' });
    assert.is(g.status, 0, g.stderr);
    assert.is(readFileSync(path.join(work, 't.jdf'), 'utf8'), fixed);
  }
});

test('fix without --dry-run does not load jsdiff', async () => {
  const trace = new URL('dist/test/load-trace.js', projectRoot).href;
  const register = `data:text/javascript,import{register}from"node:module";register(${JSON.stringify(trace)})`;
  const work = path.join(dir, 'load');
  mkdirSync(work, { recursive: true });
  writeFileSync(path.join(work, 't.jdf'), LINES.join('\n'));
  const log = path.join(work, 'trace');
  for (const [args, loads] of [[['fix', 't.jdf'], false], [['fix', 't.jdf', '--dry-run'], true]] as const) {
    writeFileSync(log, '');
    spawnSync(process.execPath, ['--import', register, main, ...args], { cwd: work, encoding: 'utf8', env: { ...process.env, JDF_LOAD_TRACE: log } });
    assert.is(readFileSync(log, 'utf8').includes('/node_modules/diff/'), loads, args.join(' '));
  }
});

test.after(() => rmSync(dir, { recursive: true, force: true }));
test.run();
