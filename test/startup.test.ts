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
// What require() loaded (the hooks see imports only): appended to the trace as the process exits.
const requires = `data:text/javascript,${encodeURIComponent('import{createRequire}from"node:module";import{appendFileSync}from"node:fs";import{pathToFileURL}from"node:url";process.on("exit",()=>{for(const f of Object.keys(createRequire("/").cache))appendFileSync(process.env.JDF_LOAD_TRACE,pathToFileURL(f).href+"\\n")})')}`;

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
      // A package by its path from node_modules/, wherever that is (a worktree's may be a link to another's).
      .map((p) => (p.includes('node_modules/') ? p.slice(p.indexOf('node_modules/')) : p))
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

// Constants the option tables need (names and limits), no code; and --keep's parser, which the config's
// serve.keep shares (src/config/keep.ts: one function, no imports).
const LIGHT = new Set(['dist/src/rules/types.js', 'dist/src/node/limits.js', 'dist/src/package/limits.js', 'dist/src/node/extensions.js', 'dist/src/config/keep.js']);

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

// The bundle (package.json's bin): which sources went into the files a run loads, as esbuild's metafile names them
// ("node_modules/yargs/build/lib/usage.js", "dist/src/ticket/..."), kept by the build in dist/.bundle-inputs.json.
const bin = path.join(root, JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')).bin['jdf-filespec']);
function bundled(...args: string[]): { sources: string[]; files: number; status: number | null } {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'jdf-trace-'));
  const trace = path.join(dir, 'trace');
  try {
    const r = spawnSync(process.execPath, ['--import', register, '--import', requires, bin, ...args], { cwd: root, encoding: 'utf8', env: { ...process.env, JDF_LOAD_TRACE: trace } });
    const files = [...new Set(readFileSync(trace, 'utf8').trim().split('\n').filter((u) => u.startsWith('file:')).map((u) => fileURLToPath(u)))];
    // esbuild names a package by its real path, relative to the project: ../other/node_modules/x when node_modules is a link.
    const made = (JSON.parse(readFileSync(path.join(root, 'dist/.bundle-inputs.json'), 'utf8')) as { sources: Record<string, string[]> }).sources;
    const sources = files.filter((f) => path.dirname(f) === path.dirname(bin)).flatMap((f) => made[path.basename(f)] ?? []).map((s) => /^(?:(?:\.\.\/)+[^\s:]*?\/)?((?:node_modules|dist\/src)\/\S+)$/.exec(s)?.[1] ?? s);
    return { sources, files: files.length, status: r.status };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

test('the bundle: --version loads neither yargs nor any command', () => {
  const { sources, status } = bundled('--version');
  assert.is(status, 0);
  assert.equal(sources.filter((s) => !s.startsWith('dist/src/cli/') && !LIGHT.has(s)), []);
  // serve-server-options.js is the listener's options for serve's builder (it imports only numbers.js), as options.js is validate's.
  assert.equal(sources.filter((s) => s.startsWith('dist/src/cli/') && !/cli\/(main|program|version|define|commands\/.*|options|serve-server-options|numbers|platforms)\.js$/.test(s)), []);
});

test('the bundle: check loads yargs and its own code, not the XML parser, the ticket walker or another command', () => {
  const { sources, status } = bundled('check', 'file:///c:/a.pdf');
  assert.is(status, 0);
  assert.ok(sources.some((s) => s.startsWith('node_modules/yargs/')), 'the trace sees yargs');
  assert.ok(sources.includes('dist/src/cli/check.js'));
  assert.equal(sources.filter((s) => s.startsWith('node_modules/fast-xml-parser/') || s.startsWith('dist/src/ticket/') || /cli\/(validate|fix|watch|pack)\.js$/.test(s)), []);
});

test('the bundle: validate of a ticket the tag scan reads loads no XML parser, in a handful of files', () => {
  const { sources, files, status } = bundled('validate', 'samples/hot-folder.jdf', '--exit-zero');
  assert.is(status, 0);
  assert.ok(sources.includes('dist/src/ticket/validate.js'), 'the trace sees the ticket walker');
  assert.equal(sources.filter((s) => s.startsWith('node_modules/fast-xml-parser/')), []);
  assert.ok(files < 60, `${files} files`);
});

test('the bundle: validate --strict-xml loads the XML parser, required from a file of its own (the trace is not blind to it)', () => {
  const { sources, status } = bundled('validate', 'samples/hot-folder.jdf', '--exit-zero', '--strict-xml');
  assert.is(status, 0);
  assert.ok(sources.includes('node_modules/fast-xml-parser/src/xmlparser/OrderedObjParser.js'));
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
