// What each command loads: a command's own code and the XML parser only when they are needed.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { projectRoot } from './helpers.js';

const root = fileURLToPath(projectRoot);
const main = path.join(root, 'dist/src/cli/main.js');
const hooks = new URL('dist/test/load-trace.js', projectRoot).href;
const register = `data:text/javascript,import{register}from"node:module";register(${JSON.stringify(hooks)})`;

/** The module URLs one run of the CLI loads, relative to the project (node_modules/NAME for packages). */
function loaded(...args: string[]): { modules: string[]; status: number | null; stdout: string } {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'jdf-trace-'));
  const trace = path.join(dir, 'trace');
  try {
    const r = spawnSync(process.execPath, ['--import', register, main, ...args], { cwd: root, encoding: 'utf8', env: { ...process.env, JDF_LOAD_TRACE: trace } });
    const urls = readFileSync(trace, 'utf8').trim().split('\n');
    const modules = urls
      .filter((u) => u.startsWith('file:'))
      .map((u) => path.relative(root, fileURLToPath(u)).split(path.sep).join('/'))
      .map((p) => (p.startsWith('node_modules/') ? p.split('/').slice(0, p.split('/')[1]!.startsWith('@') ? 3 : 2).join('/') : p));
    return { modules: [...new Set(modules)], status: r.status, stdout: r.stdout };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const ours = (modules: string[]) => modules.filter((m) => m.startsWith('dist/'));
const packages = (modules: string[]) => modules.filter((m) => m.startsWith('node_modules/'));
// yargs and its own dependencies (node_modules/yargs/package.json "dependencies").
const YARGS = new Set(['node_modules/yargs', 'node_modules/cliui', 'node_modules/escalade', 'node_modules/get-caller-file', 'node_modules/string-width', 'node_modules/y18n', 'node_modules/yargs-parser', 'node_modules/strip-ansi', 'node_modules/ansi-regex', 'node_modules/wrap-ansi', 'node_modules/ansi-styles', 'node_modules/emoji-regex', 'node_modules/get-east-asian-width']);

// Constants the option tables need (names and limits), no code.
const LIGHT = new Set(['dist/src/rules/types.js', 'dist/src/node/limits.js', 'dist/src/package/limits.js']);

for (const args of [['--version'], ['--help'], ['check', '--help']]) {
  test(`${args.join(' ')} loads yargs and the CLI's command table only`, () => {
    const { modules, status } = loaded(...args);
    assert.is(status, 0);
    assert.ok(modules.includes('dist/src/cli/main.js'), 'the trace sees the CLI');
    assert.equal(packages(modules).filter((m) => !YARGS.has(m)), []);
    assert.equal(ours(modules).filter((m) => !m.startsWith('dist/src/cli/') || /cli\/(check|validate|fix|paths|resolve)\.js$/.test(m)).filter((m) => !LIGHT.has(m)), []);
  });
}

test('check loads its own module but neither the XML parser nor the ticket walker', () => {
  const { modules, status, stdout } = loaded('check', 'file:///c:/a.pdf');
  assert.is(status, 0, stdout);
  assert.ok(modules.includes('dist/src/cli/check.js'));
  assert.not.ok(modules.includes('node_modules/fast-xml-parser'), 'fast-xml-parser loaded');
  assert.equal(ours(modules).filter((m) => m.startsWith('dist/src/ticket/') || /cli\/(validate|fix)\.js$/.test(m)), []);
});

test('validate loads the XML parser (the trace is not blind to it)', () => {
  const { modules } = loaded('validate', 'samples/', '--exit-zero', '--format', 'json');
  assert.ok(modules.includes('node_modules/fast-xml-parser'));
  assert.ok(modules.includes('dist/src/cli/validate.js'));
});

test('--version prints our own version, from our package.json', () => {
  const own = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')).version;
  const r = spawnSync(process.execPath, [main, '--version'], { cwd: os.tmpdir(), encoding: 'utf8' });
  assert.is(r.stdout.trim(), own);
});

test('a misspelled command gets "did you mean", exit 2', () => {
  const r = spawnSync(process.execPath, [main, 'valdate', 'samples/'], { cwd: root, encoding: 'utf8' });
  assert.is(r.status, 2);
  assert.match(r.stderr, /Unknown command "valdate"\. Did you mean validate\?/);
});

test.run();
