// The config's serve.keep (src/config/keep.ts, schemas/config.schema.json): the schema's pattern and the parser
// take the same values, each checked against Python's decimal module (exact arithmetic of its own) on values
// drawn around every unit's hour, and against values whose verdicts and milliseconds are worked out by hand; a
// bad keep is a config problem at its line and column (exit 2); serve honours a good one, and --keep overrides it.
import { spawn } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv } from 'ajv';
import fc from 'fast-check';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { parseConfig } from '../src/config/parse.js';
import { parseKeep } from '../src/config/keep.js';
import { projectRoot, pythonJson, removeTempFolders, tempFolder } from './helpers.js';
import { runCli } from './in-process.js';

test.after(removeTempFolders);

const schema = JSON.parse(readFileSync(new URL('schemas/config.schema.json', projectRoot), 'utf8'));
const validate = new Ajv({ allErrors: true, strict: true }).compile(schema);
const schemaTakes = (keep: string) => validate({ serve: { keep } });
const HOUR = 3_600_000;

test('by hand: what keep takes, in milliseconds, and what it refuses (the schema alike)', () => {
  const good: Array<[string, number | 'forever']> = [
    ['forever', 'forever'], ['Forever', 'forever'], ['30d', 30 * 24 * HOUR], ['1.5d', 36 * HOUR], ['30 D', 30 * 24 * HOUR],
    ['1h', HOUR], ['12h', 12 * HOUR], ['1.0h', HOUR], ['01h', HOUR], ['90m', 90 * 60_000], ['60min', HOUR], ['60MIN', HOUR],
    ['3600', HOUR], ['3600s', HOUR], ['3600 s', HOUR], ['3600000ms', HOUR], ['4000000ms', 4_000_000],
    // 1/24 d is 0.041666...: 0.0417d is over it (3,602,880 ms), and 0.04166667d (3,600,000.288 ms, rounded).
    ['0.0417d', 3_602_880], ['0.04166667d', HOUR],
    // Beyond the largest safe integer of milliseconds, held to it.
    ['99999999999999999999d', Number.MAX_SAFE_INTEGER],
  ];
  for (const [text, ms] of good) {
    assert.is(parseKeep(text), ms, text);
    assert.ok(schemaTakes(text), `the schema takes ${text}`);
  }
  const bad = ['30m', '59min', '3599s', '3599', '3599999ms', '0.99h', '0.9999999999h', '0.0416d', '0.04166666d', '0h', '0d',
    '-1d', '1 h ', ' 1h', '1w', '1y', '.5d', '1.d', '1e3h', 'soon', 'never', 'forever!', '', '１h', '1h\n'];
  for (const text of bad) {
    assert.is(parseKeep(text), undefined, text);
    assert.not.ok(schemaTakes(text), `the schema refuses ${JSON.stringify(text)}`);
  }
});

/** Python's verdict on each value: the syntax, then the hour compared in exact decimal arithmetic. */
function pythonTakes(values: string[]): boolean[] {
  const script = [
    'import sys, json, re',
    'from decimal import Decimal',
    'UNIT = {"ms": 1, "s": 1000, "m": 60000, "min": 60000, "h": 3600000, "d": 86400000}',
    'def takes(t):',
    '    if re.fullmatch(r"forever", t, re.I | re.A): return True',
    '    m = re.fullmatch(r"([0-9]+(?:\\.[0-9]+)?)(?:[ \\t]*(ms|s|m|min|h|d))?", t, re.I | re.A)',
    '    return bool(m) and Decimal(m.group(1)) * UNIT[(m.group(2) or "s").lower()] >= 3600000',
    'print(json.dumps([takes(t) for t in json.load(sys.stdin)]))',
  ].join('\n');
  return pythonJson<boolean[]>(script, values);
}

test('drawn around each unit\'s hour: the schema, the parser and Python agree on every value', () => {
  const near = fc.constantFrom('0', '00', '1', '3599', '3600', '3599999', '3600000', '59', '60', '0.04166', '0.041666666', '0.0416667', '0.0417', '0.99', '1.00', '24', '999999999999999999');
  const digits = fc.stringMatching(/^[0-9]{1,6}$/);
  const number = fc.oneof(near, digits, fc.tuple(fc.oneof(near, digits), digits).map(([a, b]) => `${a.split('.')[0]}.${b}`), fc.tuple(near, digits).map(([a, b]) => `${a}${b}`));
  const unit = fc.constantFrom('', 'ms', 's', 'm', 'min', 'h', 'd', 'D', 'MS', 'Min', 'w', 'hh', 'sec');
  const blank = fc.constantFrom('', '', ' ', '\t');
  const values = fc.sample(fc.oneof(fc.tuple(blank, number, blank, unit, blank).map((parts) => parts.join('')), fc.constantFrom('forever', 'FOREVER', 'for ever', '')), { numRuns: 3000, seed: 42 });
  const python = pythonTakes(values);
  let taken = 0;
  values.forEach((text, k) => {
    assert.is(schemaTakes(text), python[k], `the schema on ${JSON.stringify(text)}`);
    assert.is(parseKeep(text) !== undefined, python[k], `the parser on ${JSON.stringify(text)}`);
    if (python[k]) taken += 1;
  });
  assert.ok(taken > 300 && taken < values.length - 300, `both verdicts drawn often (${taken} of ${values.length} taken)`);
});

const problemsOf = (text: string) => {
  const r = parseConfig(text, schema, 'h');
  return 'config' in r ? [] : r.problems.map((p) => `${p.line}:${p.column} ${p.message}`);
};

test('a bad serve.keep is one problem at its line and column, saying what keep takes', () => {
  assert.equal(problemsOf('{\n  "serve": { "keep": "10m" }\n}'), ['2:22 serve.keep: must be a duration of 1h or more such as 30d, 12h or 90m, or forever, not "10m"']);
  assert.equal(problemsOf('{\n  "serve": { "keep": 30 }\n}'), ['2:22 serve.keep: must be a string, not a number']);
  assert.equal(problemsOf('{ "serve": { "outbox": "o", "keep": "12h" } }'), []);
});

test('serve with a config whose serve.keep is under an hour: exit 2, FILE:line:column and why, nothing listens', async () => {
  const folder = tempFolder('config-keep-bad-');
  const config = path.join(folder, 'shop.json');
  writeFileSync(config, '{\n  "serve": { "outbox": "outbox", "keep": "10m" }\n}\n');
  const run = await runCli(['serve', '--config', config, '--port', '0']);
  assert.is(run.status, 2);
  assert.match(run.stderr, `${config}:2:42: serve.keep: must be a duration of 1h or more`);
  assert.not.match(run.stdout, /listening/);
});

/** A finished (Completed) queue entry in `outbox`, its folder and files last touched `ageMs` ago. */
function finished(outbox: string, id: string, ageMs: number): void {
  const dir = path.join(outbox, id);
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, 'submission.jmf'), '<JMF/>');
  writeFileSync(path.join(dir, 'status.json'), JSON.stringify({ queueEntryId: id, status: 'Completed', returnCode: 0, submitted: new Date(Date.now() - ageMs).toISOString() }));
  const when = new Date(Date.now() - ageMs);
  for (const name of [...readdirSync(dir).map((n) => path.join(dir, n)), dir]) utimesSync(name, when, when);
}

/** Runs the built serve until its first sweep has said it removed `removed` entries; stops it (SIGTERM); its output. */
async function serveUntilSwept(args: string[], removed: string): Promise<string> {
  const cli = fileURLToPath(new URL('dist/bin/jdf-filespec.js', projectRoot));
  const child = spawn(process.execPath, [cli, 'serve', '--port', '0', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
  await new Promise<void>((resolve, reject) => {
    const look = () => {
      if (out.includes('listening on') && out.includes(`retention: removed ${removed}`)) resolve();
    };
    child.stdout!.on('data', (c: Buffer) => { out += c.toString(); look(); });
    child.stderr!.on('data', (c: Buffer) => { out += c.toString(); });
    child.on('exit', (code) => reject(new Error(`serve exited (${code}): ${out}`)));
  });
  child.kill('SIGTERM');
  assert.is(await exited, 0, out);
  return out;
}

test('serve honours the config\'s serve.keep (2h: an entry 3 hours old goes); --keep overrides it (30d: it stays)', async () => {
  const folder = tempFolder('config-keep-serve-');
  const outbox = path.join(folder, 'outbox');
  const config = path.join(folder, 'shop.json');
  writeFileSync(config, JSON.stringify({ serve: { outbox: 'outbox', keep: '2h' } }));
  finished(outbox, 'three-hours', 3 * HOUR);
  finished(outbox, 'forty-days', 40 * 24 * HOUR);
  const overridden = await serveUntilSwept(['--config', config, '--keep', '30d'], '1 finished queue entry');
  assert.match(overridden, 'finished entries kept 30 days');
  assert.equal(readdirSync(outbox).filter((n) => !n.startsWith('.')), ['three-hours']);
  const honoured = await serveUntilSwept(['--config', config], '1 finished queue entry');
  assert.match(honoured, 'finished entries kept 2 hours');
  assert.equal(readdirSync(outbox).filter((n) => !n.startsWith('.')), []);
});

test.run();
