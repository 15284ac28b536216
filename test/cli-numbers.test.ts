// Numeric options are read strictly: a bad value is a usage error naming the option, never a silent pass.
import { spawnSync } from 'node:child_process';
import { constants } from 'node:buffer';
import { mkdtempSync, readFileSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { projectRoot } from './helpers.js';
import { runCli } from './in-process.js';

const root = fileURLToPath(projectRoot);
const main = path.join(root, 'dist/src/cli/main.js');
// In this process (test/in-process.ts), from the project's folder; watch, which would run on, in a process of its own.
const run = (...args: string[]) => runCli(args, { cwd: root });
const codes = (stdout: string) => JSON.parse(stdout).files.map((f: any) => f.findings.map((x: any) => x.code));

for (const [option, value] of [['jobs', 'abc'], ['jobs', '0'], ['jobs', '1.5'], ['jobs', '-2'], ['jobs', ''], ['max-bytes', 'abc'], ['max-bytes', '10 parsecs'], ['max-bytes', '-1'], ['max-bytes', '1.5B'], ['max-bytes', ''],
  // yargs reads these as numbers (hex, exponent) unless the option is a string: only decimal digits are taken.
  ['jobs', '0x2'], ['jobs', '2e0'], ['max-warnings', '0x0'], ['max-warnings', '1e1'], ['max-bytes', '1e3'], ['max-bytes', '0x400'], ['max-bytes', '1e3kB']] as const) {
  test(`validate --${option} "${value}" is a usage error naming --${option} (exit 2, no report)`, async () => {
    for (const format of ['text', 'sarif']) {
      const r = await run('validate', 'samples/', `--${option}=${value}`, '--format', format);
      assert.is(r.status, 2, r.stdout.slice(0, 200));
      assert.is(r.stdout, '');
      assert.match(r.stderr, `--${option}`);
    }
  });
}

test('watch takes its numbers and durations as typed: 0x2, 1e3 and 2e0s are usage errors naming the option', () => {
  const folder = mkdtempSync(path.join(os.tmpdir(), 'jdf-watch-numbers-'));
  try {
    for (const [option, value] of [['concurrency', '0x2'], ['max-warnings', '1e1'], ['max-bytes', '1e3'], ['settle', '1e3'], ['poll-interval', '2e0s']]) {
      // Were the value taken, watch would run on: the timeout ends it (status null).
      const r = spawnSync(process.execPath, [main, 'watch', folder, '--ok', path.join(folder, 'ok'), '--error', path.join(folder, 'error'), `--${option}=${value}`], { cwd: root, encoding: 'utf8', timeout: 20_000 });
      assert.is(r.status, 2, `${option} ${value}: ${r.stderr}`);
      assert.match(r.stderr, `--${option}`);
      assert.match(r.stderr, `"${value}"`);
    }
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
});

// Read as typed means no yargs type, so --help would name none: each option's help says what it takes instead.
const TAKES: Record<string, Array<[string, string]>> = {
  validate: [['max-warnings', 'whole number'], ['jobs', 'whole number'], ['max-bytes', 'size in bytes']],
  watch: [['max-warnings', 'whole number'], ['concurrency', 'whole number'], ['max-bytes', 'size in bytes'], ['settle', 'duration'], ['wait-for-files', 'duration'], ['parse-wait', 'duration'], ['poll-interval', 'duration']],
};
for (const [command, options] of Object.entries(TAKES)) {
  test(`${command} --help says what each numeric option takes, and shows no [string] for it`, async () => {
    const lines = (await run(command, '--help')).stdout.split('\n');
    for (const [option, takes] of options) {
      const at = lines.findIndex((line) => line.trimStart().startsWith(`--${option} `));
      assert.ok(at >= 0, `--${option} is in the help`);
      const end = lines.findIndex((line, i) => i > at && /^\s+-/.test(line));
      const help = lines.slice(at, end === -1 ? undefined : end).join(' ').replace(/\s+/g, ' ');
      assert.match(help, takes, `--${option}: ${help}`);
      assert.not.match(help, '[string]', `--${option}: ${help}`);
    }
  });
}

test('--max-bytes above the longest string the engine holds (0x1fffffe8) is a usage error', async () => {
  const r = await run('validate', 'samples/', '--max-bytes', '1GiB');
  assert.is(r.status, 2);
  assert.match(r.stderr, /--max-bytes/);
});

test('--max-bytes 512MiB is over the engine\'s string limit: the usage error gives the maximum in MiB too', async () => {
  const max = constants.MAX_STRING_LENGTH;
  const r = await run('validate', 'samples/', '--max-bytes', '512MiB');
  assert.is(r.status, 2);
  assert.match(r.stderr, `at most ${max} bytes, ${Math.floor(max / 2 ** 20)}MiB and ${max % 2 ** 20} bytes`);
});

test('each size the --help texts, the usage error, the README and the CHANGELOG give as an example for --max-bytes is accepted', async () => {
  const readme = readFileSync(path.join(root, 'README.md'), 'utf8').split('\n');
  const at = readme.findIndex((line) => line.includes('`--max-bytes N`'));
  const texts = [
    (await run('validate', '--help')).stdout.split('\n').filter((line) => line.includes('--max-bytes')).join('\n'),
    (await run('watch', '--help')).stdout.split('\n').filter((line) => line.includes('--max-bytes')).join('\n'),
    (await run('validate', 'samples/', '--max-bytes', 'abc')).stderr,
    readme.slice(at, at + 2).join('\n'),
    readFileSync(path.join(root, 'CHANGELOG.md'), 'utf8').split('\n').filter((line) => line.includes('--max-bytes')).join('\n'),
  ];
  const examples = new Set(texts.flatMap((text) => text.match(/\b\d+(?:\.\d+)?(?:[kMG]i?B)\b/g) ?? []));
  assert.ok(examples.has('100MiB') && examples.has('10kB'), [...examples].join(' '));
  for (const size of examples) {
    const r = await run('validate', 'samples/table4-bad.jdf', '--max-bytes', size, '--format', 'json');
    assert.is(r.status, 1, `${size}: ${r.stderr}`);
  }
});

// SI: k = 1000; IEC 80000-13: Ki = 1024, Mi = 1024^2.
const dir = mkdtempSync(path.join(os.tmpdir(), 'jdf-sizes-'));
const ticketOf = (bytes: number) => {
  const head = '<JDF xmlns="http://www.CIP4.org/JDFSchema_1_1" Type="Product" ID="n" Status="Waiting" Version="1.3">';
  const tail = '</JDF>';
  return head + ' '.repeat(bytes - head.length - tail.length) + tail;
};
for (const [limit, bytes] of [['10kB', 10_000], ['10KB', 10_000], ['1KiB', 1024], ['2kib', 2048], ['1.5KiB', 1536], ['1000', 1000], ['1000B', 1000]] as const) {
  test(`--max-bytes ${limit} is ${bytes} bytes: a ticket of that size is read, one byte more is file-too-large`, async () => {
    const at = path.join(dir, `at-${bytes}.jdf`);
    const over = path.join(dir, `over-${bytes}.jdf`);
    writeFileSync(at, ticketOf(bytes));
    writeFileSync(over, ticketOf(bytes + 1));
    const r = await run('validate', at, over, '--max-bytes', limit, '--format', 'json', '--exit-zero');
    assert.is(r.status, 0, r.stderr);
    const [a, o] = codes(r.stdout);
    assert.not.ok(a.includes('file-too-large'));
    assert.equal(o, ['file-too-large']);
  });
}

test('the default limit is 256 MiB, below what one string holds: a sparse 256 MiB + 1 ticket is file-too-large, the ticket beside it is reported', async () => {
  const big = path.join(dir, 'big.jdf');
  writeFileSync(big, '');
  truncateSync(big, 256 * 1024 * 1024 + 1);
  const r = await run('validate', big, 'samples/table4-bad.jdf', '--format', 'json');
  assert.is(r.status, 1, r.stderr);
  const report = JSON.parse(r.stdout);
  assert.equal(report.files.map((f: any) => path.basename(f.path)), ['big.jdf', 'table4-bad.jdf']);
  assert.equal(codes(r.stdout)[0], ['file-too-large']);
  assert.ok(report.files[1].references.length > 0);
});

test.after(() => rmSync(dir, { recursive: true, force: true }));
test.run();
