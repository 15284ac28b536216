// ESLint's habits and reports a CI job can trust: formats, -o, --max-warnings, colour, closed pipes, standard
// input's name, SARIF for code scanning, and one ticket's exception kept to that ticket.
import { spawn } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { projectRoot } from './helpers.js';
import { runCli } from './in-process.js';
import { sarifSchema } from './sarif-schema.js';
import { validateSources } from '../src/node/batch.js';
import { handZip } from './zip-by-hand.js';

const root = fileURLToPath(projectRoot);
const main = path.join(root, 'dist/src/cli/main.js');
const dir = mkdtempSync(path.join(os.tmpdir(), 'jdf-output-'));
// In this process (test/in-process.ts), from the project's folder; the closed pipe needs a process of its own.
const run = (args: string[], options: { env?: NodeJS.ProcessEnv; input?: string; cwd?: string } = {}) => runCli(args, { ...options, cwd: options.cwd ?? root, env: { ...process.env, ...options.env } });
const json = async (args: string[]) => JSON.parse((await run(['validate', ...args, '--format', 'json', '--exit-zero'])).stdout);

/** Every finding of a JSON report as [path, line, column, severity, message, code], in the report's order. */
function findingsOf(report: any, quiet = false): Array<[string, number, number, string, string, string]> {
  const out: Array<[string, number, number, string, string, string]> = [];
  for (const f of report.files) {
    const all = [...f.findings, ...f.references.flatMap((r: any) => r.findings)].filter((x: any) => !quiet || x.severity === 'error');
    all.sort((a: any, b: any) => a.line - b.line || a.column - b.column);
    for (const x of all) out.push([f.part !== undefined ? `${f.path} [part ${f.part}]` : f.path, x.line, x.column, x.severity, x.message, x.code]);
  }
  return out;
}

const SAMPLES = ['samples/rref.jdf', 'samples/table4-bad.jdf', 'samples/directory-no-slash.jdf'];

test('--format unix: file:line:col: severity message [code], one line a finding, then the count', async () => {
  const expected = findingsOf(await json(SAMPLES)).map(([p, l, c, s, m, code]) => `${p}:${l}:${c}: ${s} ${m} [${code}]`);
  const r = await run(['validate', ...SAMPLES, '-f', 'unix']);
  assert.is(r.status, 1);
  const lines = r.stdout.trimEnd().split('\n');
  assert.equal(lines.slice(0, -2), expected);
  assert.equal(lines.slice(-2), ['', `${expected.length} problems`]);
  for (const line of expected) assert.match(line, /^[^:]+:\d+:\d+: (error|warning|info) .+ \[[a-z0-9-]+\]$/);
});

test('--format unix: a package part is PACKAGE!/PART, one name a file:line:col matcher reads; a clean run prints nothing', async () => {
  const zip = path.join(dir, 'job.zip');
  writeFileSync(zip, handZip([{ name: 'job x.xjdf', data: '<XJDF xmlns="http://www.CIP4.org/JDFSchema_2_0" JobID="j" Types="Product">\n<ResourceSet Name="RunList"><Resource><RunList><FileSpec URL="a b.pdf"/></RunList></Resource></ResourceSet></XJDF>' }]));
  const r = await run(['validate', 'job.zip', '-f', 'unix'], { cwd: dir });
  const lines = r.stdout.trimEnd().split('\n').slice(0, -2);
  assert.ok(lines.length > 0, r.stdout);
  // A GCC-style problem matcher: the name is one run of characters without white space, ':' or brackets.
  for (const line of lines) assert.match(line, /^job\.zip!\/job%20x\.xjdf:2:\d+: error /);
  const clean = await run(['validate', 'samples/hot-folder.jdf', '-f', 'unix']);
  assert.is(clean.status, 0);
  assert.is(clean.stdout, '');
});

// docs.github.com, "Workflow commands for GitHub Actions": ::error file={name},line={line},col={col},...::{message}
test('--format github: a workflow command per finding (error, warning, notice), values escaped as the runner reads them', async () => {
  const found = findingsOf(await json(SAMPLES));
  const r = await run(['validate', ...SAMPLES, '-f', 'github']);
  const lines = r.stdout.trimEnd().split('\n');
  assert.is(lines.length, found.length);
  lines.forEach((line, i) => {
    const [p, l, c, s, m, code] = found[i]!;
    const level = { error: 'error', warning: 'warning', info: 'notice' }[s];
    assert.ok(line.startsWith(`::${level} file=${p},line=${l},col=${c},`), line);
    assert.ok(line.includes(`title=jdf-filespec ${code}::`), line);
    assert.ok(line.endsWith(`::${m.replace(/%/g, '%25')}`), line);
  });
});

test('-q is --quiet, -f is --format: errors only', async () => {
  const expected = findingsOf(await json(SAMPLES), true).map(([p, l, c, s, m, code]) => `${p}:${l}:${c}: ${s} ${m} [${code}]`);
  assert.equal((await run(['validate', ...SAMPLES, '-q', '-f', 'unix'])).stdout.trimEnd().split('\n').slice(0, -2), expected);
});

// ESLint's --quiet reports errors only, whatever the format: its getErrorResults drops the warnings from each
// result and sets warningCount to 0, so every formatter's counts are those of what it shows.
test('-q in every format: errors only, and the counts are those of what is shown', async () => {
  const full = await json(SAMPLES);
  const errors = findingsOf(full, true);
  assert.ok(errors.length > 0 && findingsOf(full).length > errors.length, 'the samples hold errors and warnings');
  const quiet = (format: string) => run(['validate', ...SAMPLES, '-q', '-f', format]);
  const asJson = await quiet('json');
  assert.is(asJson.status, 1);
  const report = JSON.parse(asJson.stdout);
  assert.equal(findingsOf(report), errors);
  assert.equal(report.files.map((f: any) => f.path), full.files.map((f: any) => f.path));
  assert.equal(report.summary, { ...full.summary, warning: 0, info: 0 });
  const sarif = JSON.parse((await quiet('sarif')).stdout);
  const results = sarif.runs[0].results;
  assert.equal(results.map((r: any) => r.level), errors.map(() => 'error'));
  assert.equal(results.map((r: any) => r.ruleId).sort(), errors.map((e) => e[5]).sort());
  const text = (await quiet('text')).stdout.trimEnd().split('\n');
  assert.not.ok(text.some((line) => /^ {2}\d+:\d+ +(warning|info) /.test(line)), 'no warning or info lines');
  assert.is(text.filter((line) => /^ {2}\d+:\d+ +error /.test(line)).length, errors.length);
  assert.is(text.at(-1), `3 files, ${full.summary.references} references: ${errors.length} errors, 0 warnings, 0 info`);
  const github = (await quiet('github')).stdout.trimEnd().split('\n');
  assert.equal(github.map((line) => line.slice(0, line.indexOf(' '))), errors.map(() => '::error'));
  const out = path.join(dir, 'quiet.json');
  assert.is((await run(['validate', ...SAMPLES, '-q', '-f', 'json', '-o', out])).stdout, `3 files, ${full.summary.references} references: ${errors.length} errors, 0 warnings, 0 info; report in ${out}\n`);
});

test('check -q in both formats: errors only', async () => {
  const urls = ['file:///c:/my docs/a.pdf', 'gopher://host/a.pdf', 'file:///a.pdf'];
  const all = JSON.parse((await run(['check', ...urls, '-f', 'json', '--exit-zero'])).stdout);
  const severities = (results: any[]) => results.flatMap((r: any) => r.findings.map((f: any) => f.severity));
  assert.ok(severities(all).includes('error') && severities(all).some((x: string) => x !== 'error'), 'errors and more');
  const quiet = JSON.parse((await run(['check', ...urls, '-f', 'json', '-q', '--exit-zero'])).stdout);
  assert.equal(quiet.map((r: any) => r.findings), all.map((r: any) => r.findings.filter((f: any) => f.severity === 'error')));
  const text = (await run(['check', ...urls, '-q', '--exit-zero'])).stdout.trimEnd().split('\n');
  assert.equal(severities(all).filter((x: string) => x === 'error'), ['error']);
  assert.is(text.at(-1), '3 URLs checked: 1 error, 0 warnings, 0 info');
});

test('-o FILE: the report in the file, the summary line on the terminal', async () => {
  const out = path.join(dir, 'report.json');
  const r = await run(['validate', ...SAMPLES, '-f', 'json', '-o', out]);
  assert.is(r.status, 1);
  const report = JSON.parse(readFileSync(out, 'utf8'));
  const s = report.summary;
  assert.equal(report, await json(SAMPLES));
  assert.is(r.stdout, `3 files, ${s.references} references: ${s.error} errors, ${s.warning} warnings, ${s.info} info; report in ${out}\n`);
  // A folder cannot be made under a file.
  const bad = await run(['validate', ...SAMPLES, '-o', path.join(out, 'folder', 'r.txt')]);
  assert.is(bad.status, 2);
  assert.match(bad.stderr, /cannot write/);
});

test('--max-warnings N: exit 1 with more than N warnings and no error; N or fewer keep exit 0', async () => {
  const file = 'samples/directory-no-slash.jdf';
  const { warning, error } = (await json([file, '--platform', 'unix'])).summary;
  assert.is(error, 0);
  assert.ok(warning > 0);
  assert.is((await run(['validate', file, '--platform', 'unix'])).status, 0);
  assert.is((await run(['validate', file, '--platform', 'unix', '--max-warnings', String(warning)])).status, 0);
  const over = await run(['validate', file, '--platform', 'unix', '--max-warnings', String(warning - 1)]);
  assert.is(over.status, 1);
  assert.match(over.stderr, /--max-warnings/);
  assert.is((await run(['validate', file, '--max-warnings', 'x'])).status, 2);
  // ESLint 9 under --quiet does not run warning rules: no warning counts, so -q --max-warnings 0 passes.
  const quiet = await run(['validate', file, '--platform', 'unix', '-q', '--max-warnings', '0']);
  assert.is(quiet.status, 0, quiet.stderr);
  assert.match(quiet.stdout, /0 warnings/);
});

// SGR 31/33 (ECMA-48): red errors, yellow warnings. A pipe gets none unless asked.
test('colour: none in a pipe; --color, FORCE_COLOR force it; --no-color and NO_COLOR win over a terminal', async () => {
  const has = async (args: string[], env: NodeJS.ProcessEnv = {}) => (await run(['validate', 'samples/rref.jdf', ...args], { env })).stdout.includes('\x1b[31merror');
  assert.not.ok(await has([]));
  assert.ok(await has(['--color']));
  assert.ok(await has([], { FORCE_COLOR: '1' }));
  assert.not.ok(await has([], { FORCE_COLOR: '0' }));
  assert.not.ok(await has(['--no-color'], { FORCE_COLOR: '1' }));
  assert.not.ok(await has(['-f', 'unix', '--color']), 'machine formats are never coloured');
  const colored = (await run(['validate', 'samples/rref.jdf', '--color'])).stdout;
  assert.match(colored, '\x1b[33mwarning\x1b[39m');
  assert.is(colored.replace(/\x1b\[\d+m/g, ''), (await run(['validate', 'samples/rref.jdf'])).stdout);
});

test('a reader that closes the pipe early: no EPIPE message, the verdict as the exit code', async () => {
  const big = path.join(dir, 'many.jdf');
  const refs = Array.from({ length: 20000 }, (_, i) => `<FileSpec URL="a b${i}.pdf"/>`).join('\n');
  writeFileSync(big, `<JDF xmlns="http://www.CIP4.org/JDFSchema_1_1" Type="Product" ID="n" Status="Waiting" Version="1.3"><ResourcePool><RunList ID="r"><LayoutElement>\n${refs}\n</LayoutElement></RunList></ResourcePool></JDF>`);
  for (const format of ['text', 'json', 'sarif', 'unix']) {
    const child = spawn(process.execPath, [main, 'validate', big, '-f', format], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += d));
    child.stdout.once('data', () => child.stdout.destroy());
    const code = await new Promise((resolve) => child.on('close', resolve));
    assert.is(stderr, '', format);
    assert.is(code, 1, format);
  }
});

test('--stdin-filename names standard input in reports, and its folder is the base', async () => {
  const ticket = readFileSync(path.join(root, 'samples/hot-folder.jdf'), 'utf8');
  const r = await run(['validate', '-', '--stdin-filename', 'hot/in/ticket.jdf', '--format', 'json'], { input: ticket });
  const file = JSON.parse(r.stdout).files[0];
  assert.is(file.path, 'hot/in/ticket.jdf');
  assert.equal(file.references.map((x: any) => x.resolved), ['a.pdf', 'art/logo.eps'].map((n) => pathToFileURL(path.join(root, 'hot/in', n)).href));
  const bad = readFileSync(path.join(root, 'samples/table4-bad.jdf'), 'utf8');
  assert.match((await run(['validate', '-', '--stdin-filename', 'hot/in/ticket.jdf', '-f', 'unix'], { input: bad })).stdout, /^hot\/in\/ticket\.jdf:\d+:\d+: /m);
});

test('SARIF is valid against the official SARIF 2.1.0 schema, with helpUri, help.markdown, %SRCROOT% and invocations', async () => {
  const r = await run(['validate', 'samples', path.join(dir, 'missing.jdf'), '--format', 'sarif']);
  assert.is(r.status, 2);
  const sarif = JSON.parse(r.stdout);
  assert.ok(sarifSchema(sarif), JSON.stringify(sarifSchema.errors?.slice(0, 5), null, 1));
  const run0 = sarif.runs[0];
  const home = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')).homepage;
  for (const rule of run0.tool.driver.rules) {
    assert.is(rule.helpUri, `${home}/blob/main/docs/rules.md#${rule.id}`);
    assert.ok(rule.help.markdown.length > 0);
  }
  // Every rule's anchor is a heading of docs/rules.md.
  const headings = new Set(readFileSync(path.join(root, 'docs/rules.md'), 'utf8').split('\n').filter((l) => l.startsWith('## ')).map((l) => l.slice(3).trim()));
  for (const rule of run0.tool.driver.rules) assert.ok(headings.has(rule.id), rule.id);
  assert.equal(Object.keys(run0.originalUriBaseIds), ['%SRCROOT%']);
  assert.is(run0.originalUriBaseIds['%SRCROOT%'].uri, undefined, 'a consumer resolves %SRCROOT% against its own checkout');
  for (const res of run0.results) {
    const loc = res.locations[0].physicalLocation.artifactLocation;
    assert.is(loc.uriBaseId, '%SRCROOT%');
    assert.ok(loc.uri.startsWith('samples/'));
    assert.is(typeof res.partialFingerprints['jdfFilespecFinding/v2'], 'string');
  }
  assert.is(run0.invocations[0].executionSuccessful, false);
  assert.match(run0.invocations[0].toolExecutionNotifications[0].message.text, /missing\.jdf/);
  assert.not.ok(sarifSchema({ version: '2.1.0', runs: [{ tool: { driver: { name: 'x' } }, results: [{ message: { text: 'm' }, level: 'bogus' }] }] }), 'the schema rejects a bad level');
});

test('-o makes the folder it names, as ESLint does; validate with no path validates the working folder', async () => {
  const project = mkdtempSync(path.join(os.tmpdir(), 'jdf-no-path-'));
  try {
    copyFileSync(path.join(root, 'samples/table4-bad.jdf'), path.join(project, 'job.jdf'));
    const r = await run(['validate', '-f', 'sarif', '-o', 'reports/ci/out.sarif'], { cwd: project });
    assert.is(r.status, 1, r.stderr);
    const sarif = JSON.parse(readFileSync(path.join(project, 'reports/ci/out.sarif'), 'utf8'));
    assert.equal([...new Set(sarif.runs[0].results.map((x: any) => x.locations[0].physicalLocation.artifactLocation.uri))], ['job.jdf']);
    assert.equal((await run(['validate', '-f', 'json'], { cwd: project })).stdout, (await run(['validate', '.', '-f', 'json'], { cwd: project })).stdout);
  } finally {
    rmSync(project, { recursive: true, force: true });
  }
});

/** Each SARIF result of validating TEXT as fp.jdf, as [ruleId, startLine, fingerprint]. */
async function sarifPrints(text: string): Promise<Array<[string, number, string]>> {
  const a = path.join(dir, 'fp.jdf');
  writeFileSync(a, text);
  const sarif = JSON.parse((await run(['validate', a, '-f', 'sarif'], { cwd: dir })).stdout);
  assert.ok(sarifSchema(sarif), JSON.stringify(sarifSchema.errors?.slice(0, 5), null, 1));
  return sarif.runs[0].results.map((x: any) => [x.ruleId, x.locations[0].physicalLocation.region.startLine, x.partialFingerprints['jdfFilespecFinding/v2']]);
}

test('SARIF partialFingerprints stay when lines above the finding move, and differ between findings', async () => {
  const body = '<ResourcePool><RunList ID="r" Directory="file:///c:/jobs/"><LayoutElement><FileSpec URL="a b.pdf"/></LayoutElement></RunList><RunList ID="s" Directory="file:///c:/jobs/"><LayoutElement><FileSpec URL="c d.pdf"/></LayoutElement></RunList></ResourcePool></JDF>';
  const before = await sarifPrints(`<JDF Version="1.4">\n${body}`);
  const after = await sarifPrints(`<JDF Version="1.4">\n\n\n<!-- moved -->\n${body}`);
  assert.ok(before.length >= 2);
  assert.equal(after.map((x) => x[1]), before.map((x) => x[1] + 3));
  assert.equal(after.map((x) => x[2]), before.map((x) => x[2]));
  assert.is(new Set(before.map((x) => x[2])).size, before.length);
});

test('SARIF: two identical references are two alerts; a comment line at the top keeps every fingerprint, file-level findings too', async () => {
  const twins = '<JDF Version="1.4"><ResourcePool><RunList ID="r" Directory="file:///c:/jobs/">\n<LayoutElement><FileSpec URL="a b.pdf"/></LayoutElement>\n<LayoutElement><FileSpec URL="a b.pdf"/></LayoutElement>\n</RunList><RunList ID="s"><LayoutElementRef rRef="LE9"/></RunList><RunList ID="t"><LayoutElementRef rRef="LE9"/></RunList></ResourcePool></JDF>';
  const found = await sarifPrints(twins);
  assert.equal(found.filter((x) => x[0] === 'unescaped-space').map((x) => x[1]), [2, 3]);
  assert.is(found.filter((x) => x[0] === 'dangling-rref').length, 2);
  assert.is(new Set(found.map((x) => x[2])).size, found.length, 'one fingerprint a finding');
  const shifted = await sarifPrints(`<!-- a comment line at the top -->\n${twins}`);
  assert.equal(shifted.map((x) => [x[0], x[1] - 1]), found.map((x) => [x[0], x[1]]));
  assert.equal(shifted.map((x) => x[2]), found.map((x) => x[2]));
  // What is not well-formed is reported where it is, and the message may name a line: the fingerprint does not.
  const broken = '<JDF Version="1.4"><ResourcePool>\n<RunList ID="r"><a></b></RunList></ResourcePool></JDF>';
  const once = await sarifPrints(broken);
  assert.is(once[0]![0], 'xml-malformed');
  const moved = await sarifPrints(`<!-- top -->\n${broken}`);
  assert.is(moved[0]![1], once[0]![1] + 1);
  assert.equal(moved.map((x) => x[2]), once.map((x) => x[2]));
});

test('SARIF regions end where the value ends; the driver names its home page; no local path is written', async () => {
  const r = await run(['validate', 'samples/table4-bad.jdf', '-f', 'sarif']);
  const sarif = JSON.parse(r.stdout);
  assert.ok(sarifSchema(sarif), JSON.stringify(sarifSchema.errors?.slice(0, 5), null, 1));
  const report = await json(['samples/table4-bad.jdf']);
  const refs = report.files[0].references.filter((x: any) => x.findings.length > 0);
  const expected = refs.flatMap((ref: any) => ref.findings.map((f: any) => [f.line, f.column, ref.endLine, ref.endColumn]));
  const regions = sarif.runs[0].results.map((x: any) => x.locations[0].physicalLocation.region).map((g: any) => [g.startLine, g.startColumn, g.endLine, g.endColumn]);
  assert.ok(expected.length > 0);
  for (const e of expected) assert.ok(regions.some((g: number[]) => g.join() === e.join()), `${e.join()} among ${JSON.stringify(regions)}`);
  assert.is(sarif.runs[0].tool.driver.informationUri, JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')).homepage);
  assert.not.ok(r.stdout.includes(root), 'the checkout path');
  assert.not.ok(r.stdout.includes(pathToFileURL(root).href), 'the checkout URI');
});

test('an exception on one ticket is its internal-error finding (stack only with debug); the ticket beside it is reported', async () => {
  // Absolute paths: the library reads them, and the suite may run from any working folder.
  const boom = { path: path.join(root, 'samples/rref.jdf'), get documentUri(): string { throw new Error('boom in our code'); } };
  const fine = { path: path.join(root, 'samples/hot-folder.jdf'), documentUri: pathToFileURL(path.join(root, 'samples/hot-folder.jdf')).href };
  for (const debug of [false, true]) {
    const [a, b] = (await validateSources([boom, fine], { profile: 'jdf' }, { maxBytes: 1 << 20, debug })) as any[];
    assert.is(a.path, boom.path);
    assert.equal(a.findings.map((f: any) => [f.code, f.severity]), [['internal-error', 'error']]);
    assert.match(a.findings[0].message, 'boom in our code');
    assert.is(/\n\s+at /.test(a.findings[0].message), debug);
    assert.is(b.path, fine.path);
    assert.is(b.references.length, 2);
  }
});

/** The README's command-line synopsis: for each command, the flags its lines name. */
function synopsis(): Map<string, Set<string>> {
  const readme = readFileSync(path.join(root, 'README.md'), 'utf8');
  const block = readme.slice(readme.indexOf('## Command line')).split('```sh\n')[1]!.split('```')[0]!;
  const commands = new Map<string, Set<string>>();
  let flags = new Set<string>();
  for (const line of block.split('\n')) {
    const command = /^jdf-filespec (\S+)/.exec(line);
    if (command) commands.set(command[1]!, (flags = new Set()));
    for (const flag of line.match(/(?<![\w-])--?[a-zA-Z][\w-]*/g) ?? []) flags.add(flag);
  }
  return commands;
}

/** The flags a command's --help lists under Options, each line's names (-q and --quiet), less --help and --version. */
async function helpOptions(command: string): Promise<string[][]> {
  const help = (await run([command, '--help'])).stdout;
  const options = help.slice(help.indexOf('\nOptions:\n')).split(/\n\n/)[0]!;
  const out: string[][] = [];
  for (const line of options.split('\n')) {
    const m = /^ {2}(?:(-[a-zA-Z]), | {4})(--[a-z][\w-]*)/.exec(line);
    if (m && m[2] !== '--help' && m[2] !== '--version') out.push(m[1] ? [m[1], m[2]!] : [m[2]!]);
  }
  return out;
}

test("the README's synopsis names every option each command's --help lists, and nothing else", async () => {
  const readme = synopsis();
  const commands = (await run(['--help'])).stdout.match(/^ {2}jdf-filespec (\S+)/gm)!.map((line) => line.trim().split(' ')[1]!);
  assert.equal([...readme.keys()].sort(), [...commands].sort());
  for (const command of commands) {
    const names = await helpOptions(command);
    assert.ok(names.length > 0 || command === 'resolve', command);
    const inReadme = readme.get(command)!;
    // A boolean that defaults to true is written as its negation (--no-ignore), as the user types it.
    const said = (flag: string) => inReadme.has(flag) || inReadme.has(flag.replace(/^--/, '--no-'));
    for (const option of names) assert.ok(option.some(said), `${command}: ${option.join(', ')} is not in the README's synopsis`);
    const known = new Set(names.flat().flatMap((flag) => [flag, flag.replace(/^--/, '--no-')]));
    for (const flag of inReadme) assert.ok(known.has(flag), `${command}: the README's ${flag} is not in --help`);
  }
});

test.after(() => rmSync(dir, { recursive: true, force: true }));
test.run();
