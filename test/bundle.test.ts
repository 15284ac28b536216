// The bundle that package.json's bin names (dist/bin/, made by scripts/bundle.ts) is the same program as tsc's
// output (dist/src/cli/main.js, run in this process): the same standard output, standard error and exit code, byte for byte, on
// help, usage errors and every command that loads something the bundle handles in its own way (yargs' strings,
// the worker, the config's parser, a dependency that requires Node's modules, the optional PDF reader).
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { projectRoot } from './helpers.js';
import { runCli } from './in-process.js';

const root = fileURLToPath(projectRoot);
const manifest = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));
const bin = path.join(root, manifest.bin['jdf-filespec']);
const samples = path.join(root, 'samples');
const work = mkdtempSync(path.join(os.tmpdir(), 'jdf-bundle-'));

interface Run { stdout: string; stderr: string; status: number | null }
function run(file: string, args: string[], options: { cwd?: string; input?: string; env?: Record<string, string> } = {}): Run {
  const r = spawnSync(process.execPath, [file, ...args], { cwd: options.cwd ?? root, encoding: 'utf8', input: options.input, env: { ...process.env, ...options.env }, maxBuffer: 1 << 26 });
  return { stdout: r.stdout, stderr: r.stderr, status: r.status };
}

/** Runs both (tsc's output in this process, test/in-process.ts) and holds them equal; returns the bundle's run for further checks. */
async function same(args: string[], options: Parameters<typeof run>[2] = {}, prepare?: () => void): Promise<Run> {
  prepare?.();
  const expected = await runCli(args, { cwd: options.cwd ?? root, env: { ...process.env, ...options.env }, ...(options.input !== undefined ? { input: options.input } : {}) });
  prepare?.();
  const actual = run(bin, args, options);
  assert.equal(actual, expected, args.join(' '));
  return actual;
}

test('package.json bin is the bundle in dist/bin/, a node script that the package ships', async () => {
  assert.is(manifest.bin['jdf-filespec'], './dist/bin/jdf-filespec.js');
  assert.ok(manifest.files.includes('dist/bin'), 'dist/bin in files');
  assert.ok(readFileSync(bin, 'utf8').startsWith('#!/usr/bin/env node\n'));
  assert.is(manifest.scripts.start.split(' ').slice(0, 2).join(' '), `node ${manifest.bin['jdf-filespec'].slice(2)}`);
});

test('--version: our version from package.json, from the bundle and from anywhere', async () => {
  assert.is((await same(['--version'])).stdout, `${manifest.version}\n`);
  assert.is((await same(['--version'], { cwd: os.tmpdir() })).stdout, `${manifest.version}\n`);
});

// The command names as the unbundled --help lists them.
const commands = [...(await runCli(['--help'])).stdout.matchAll(/^ {2}jdf-filespec ([a-z-]+)/gm)].map((m) => m[1]!);

test('--help, each command\'s --help, in English whatever LANG says', async () => {
  assert.ok(commands.length >= 11 && commands.includes('validate') && commands.includes('watch'), commands.join(' '));
  await same(['--help']);
  for (const command of commands) await same([command, '--help']);
  await same(['--help'], { env: { LANG: 'de_DE.UTF-8', LC_ALL: 'de_DE.UTF-8' } });
  await same(['check', '--bogus', 'x'], { env: { LANG: 'fr_FR.UTF-8' } });
});

test('usage errors: no command, a misspelled one, an unknown option, a missing argument, a bad number', async () => {
  assert.is((await same([])).status, 2);
  assert.is((await same(['valdate', 'samples/'])).status, 2);
  assert.is((await same(['check', '--bogus', 'x'])).status, 2);
  assert.is((await same(['resolve', 'x'])).status, 2);
  assert.is((await same(['validate', 'samples/', '--jobs', '0x2'])).status, 2);
  assert.is((await same(['check'])).status, 2);
});

test('check and resolve', async () => {
  assert.is((await same(['check', 'file:///c:/my docs/a.pdf', '../b.pdf', '--base', 'file:///c:/jobs/'])).status, 1);
  await same(['check', '--file', 'samples/appendix-urls.txt', '-f', 'json']);
  assert.is((await same(['resolve', '../F-22/job001.pdf', '--base', 'file:///c:/DownloadDir/Title-J626103/'])).stdout, 'file:///c:/DownloadDir/F-22/job001.pdf\n');
});

test('validate samples/ (packages, XJDF, JMF, Latin-1) in every format, and from standard input', async () => {
  for (const format of ['text', 'json', 'sarif']) assert.is((await same(['validate', 'samples/', '-f', format])).status, 1);
  await same(['validate', '-', '--stdin-filename', 'samples/rref.jdf', '-f', 'json'], { input: readFileSync(path.join(samples, 'rref.jdf'), 'utf8') });
});

// fast-xml-parser is a file of its own in the bundle, required on first use: its tree for what the tag scan does
// not expect, its validator to word what is not well-formed.
test('validate of what the tag scan leaves to fast-xml-parser, and --strict-xml', async () => {
  const input = '<?xml version="1.0"?>\n<JDF><ResourcePool><RunList Directory="d/"><FileSpec URL="a b.pdf"/></RunList>\n<a></b></ResourcePool></JDF>\n';
  for (const format of ['text', 'json']) assert.is((await same(['validate', '-', '--stdin-filename', 'bad.jdf', '-f', format], { input })).status, 1);
  await same(['validate', '-', '--stdin-filename', 'odd.jdf'], { input: '<JDF><FileSpec URL="a b.pdf"/></JDF>trailing' });
  await same(['validate', 'samples/', '--strict-xml', '-f', 'json']);
});

test('validate with --jobs 2 runs the bundle\'s worker threads: the same report', async () => {
  const r = await same(['validate', 'samples/', '-f', 'json', '--jobs', '2']);
  assert.ok(JSON.parse(r.stdout).files.length > 2);
});

test('validate reads a config (Ajv, jsonc-parser) and words a bad one alike', async () => {
  await same(['validate', '.', '-f', 'json'], { cwd: samples });
  const dir = path.join(work, 'bad-config');
  mkdirSync(dir, { recursive: true });
  copyFileSync(path.join(samples, 'hot-folder.jdf'), path.join(dir, 'hot-folder.jdf'));
  writeFileSync(path.join(dir, 'jdf-filespec.config.json'), '{\n  "urlAttributes": ["SequenceHome/@URL"],\n  "views": 3,\n}\n');
  assert.is((await same(['validate', 'hot-folder.jdf'], { cwd: dir })).status, 2);
});

test('validate --check-exists --verify-checksums, and a PDF page count through pdfjs-dist when it is installed', async () => {
  const dir = path.join(work, 'exists');
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, 'a.pdf'), '%PDF-1.4\n%%EOF\n');
  writeFileSync(path.join(dir, 't.jdf'), '<JDF xmlns="http://www.CIP4.org/JDFSchema_1_1" Type="Product" ID="n" Status="Waiting" Version="1.4"><ResourcePool><RunList ID="r" Class="Parameter" NPage="3"><LayoutElement><FileSpec URL="a.pdf" CheckSum="00000000000000000000000000000000"/></LayoutElement></RunList><RunList ID="s" Class="Parameter"><LayoutElement><FileSpec URL="missing.pdf"/></LayoutElement></RunList></ResourcePool></JDF>');
  await same(['validate', 't.jdf', '--check-exists', '--verify-checksums', '-f', 'json'], { cwd: dir });
});

test('fix --dry-run (jsdiff), pack to zip and MIME (yazl), unpack', async () => {
  const dir = path.join(work, 'pack');
  mkdirSync(dir, { recursive: true });
  const reset = () => {
    copyFileSync(path.join(samples, 'table4-bad.jdf'), path.join(dir, 'table4-bad.jdf'));
    rmSync(path.join(dir, 'out'), { recursive: true, force: true });
    rmSync(path.join(dir, 'p.zip'), { force: true });
    rmSync(path.join(dir, 'p.mjm'), { force: true });
  };
  await same(['fix', 'table4-bad.jdf', '--dry-run'], { cwd: dir }, reset);
  await same(['pack', path.join(samples, 'hot-folder.jdf'), '-o', 'p.zip', '--format', 'zip', '--allow-missing'], { cwd: dir }, reset);
  await same(['pack', path.join(samples, 'hot-folder.jdf'), '-o', 'p.mjm', '--allow-missing'], { cwd: dir }, reset);
  await same(['unpack', path.join(samples, 'xjdf-package.zip'), '-o', 'out'], { cwd: dir }, reset);
});

// The bundle measures printable ASCII by its length (scripts/bundle.ts); string-width itself, every copy that
// yargs and its dependencies import, is the oracle.
test('every string-width the bundle stands in for gives printable ASCII one column a character', async () => {
  const require = createRequire(path.join(root, 'package.json'));
  const importers = [require.resolve('yargs'), createRequire(require.resolve('yargs')).resolve('cliui'), createRequire(createRequire(require.resolve('yargs')).resolve('cliui')).resolve('wrap-ansi')];
  const copies = new Set(importers.map((file) => createRequire(file).resolve('string-width')));
  assert.is(copies.size >= 1, true);
  const printable = Array.from({ length: 0x7f - 0x20 }, (_, i) => String.fromCharCode(0x20 + i));
  const strings = [...printable, printable.join(''), '', '  --max-bytes  ', '[default: "256MiB"]', 'a'.repeat(500)];
  for (const copy of copies) {
    const { default: stringWidth } = (await import(pathToFileURL(copy).href)) as { default: (s: string) => number };
    for (const s of strings) assert.is(stringWidth(s), s.length, `${copy}: ${JSON.stringify(s)}`);
  }
});

test('the bundle\'s yargs lays out text that is not plain ASCII (accents, wide and emoji, colour codes) as yargs does', async () => {
  const chunk = /import\("\.\/(yargs-[A-Z0-9]+\.js)"\)/.exec(readFileSync(bin, 'utf8'))?.[1];
  assert.ok(chunk, 'the bin imports yargs as a chunk of its own');
  const bundled = (await import(pathToFileURL(path.join(path.dirname(bin), chunk)).href)).default;
  const original = (await import('yargs')).default;
  const render = async (yargs: any): Promise<string> => {
    let out = '';
    const parser = yargs(['--help']).scriptName('t').exitProcess(false).wrap(60).locale('en')
      .usage('用法: $0 <文件>')
      .option('naïve', { type: 'string', describe: 'Ünïcödé, with accents; 漢字の説明 wide; emoji 📄📁; a combining é' })
      .option('x', { describe: '\u001b[31mred\u001b[0m and a\ttab, and more text to wrap at the column' });
    const log = console.log;
    console.log = (text: string) => (out += `${text}\n`);
    try {
      await parser.parseAsync();
    } finally {
      console.log = log;
    }
    return out;
  };
  const expected = await render(original);
  assert.ok(expected.includes('漢字'));
  assert.is(await render(bundled), expected);
});

test.after(() => rmSync(work, { recursive: true, force: true }));
test.run();
