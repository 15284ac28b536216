// Issue 26: a ticket of hostile references well under the size limit ended the process. A 20 MB ticket under a
// 512 MB heap died in the main thread as it deserialized the big-ticket worker's report, past the worker's
// memory guard; a 1.6 MB one under a 48 MB heap died in the main thread's own check (exit 134, no report), and a
// 1.1 MB one as its SARIF was made, every result at once. Now a ticket is checked in a worker of its own from a
// size the heap decides, the worker sends its report in pieces, the receiver takes no more of a report once its
// heap is a quarter full (too-many-findings), and SARIF's results are made as they are written. JSON is written as
// the worker checks the ticket, and SARIF's results made as it does and kept on disk until the log's end (issue
// 33): no thread holds that report.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { validateTicket } from '../src/index.js';
import { projectRoot } from './helpers.js';

const main = fileURLToPath(new URL('dist/bin/jdf-filespec.js', projectRoot));
const dir = mkdtempSync(path.join(tmpdir(), 'jfs-hostile-report-'));
// FileSpecs whose every URL carries several findings (a UNC path after file://, a space, '|', '^' and a bad escape):
// a report takes about 24 times the file, a check more. Before the report came back in pieces, the code ended with
// exit 134 and no report on 1.1 MB of them (20,000) in SARIF under a 48, 56 or 64 MB heap, on 1.6 MB (30,000) in
// JSON under 48 MB too; under 64 MB it reported the 1.1 MB one whole, in JSON. The SARIF case runs at 56 MB: at 48
// MB, a quarter of the heap is so little that the formats' own memory ran out in 1 of 8 runs on a loaded machine.
const value = (i: number) => `file://\\\\srv\\sh are\\a${i}|b%zz ^.pdf`;
const ticket = (count: number) => {
  const file = path.join(dir, `hostile-${count}.jdf`);
  writeFileSync(file, `<JDF Version="1.4"><ResourcePool>${Array.from({ length: count }, (_, i) => `<FileSpec URL="${value(i)}"/>`).join('')}</ResourcePool></JDF>`);
  return file;
};
const COUNT = 20_000;
// What one such reference carries when its ticket is checked whole, in this process: each piece's must be the same.
const PER_REFERENCE = validateTicket(`<JDF Version="1.4"><ResourcePool><FileSpec URL="${value(0)}"/></ResourcePool></JDF>`).references[0]!.findings.length;
const hostile = ticket(COUNT);
const small = path.join(dir, 'small.jdf');
writeFileSync(small, '<JDF Version="1.4"><ResourcePool><FileSpec URL="c d.pdf"/></ResourcePool></JDF>');
const codes = (f: any) => [...f.findings, ...f.references.flatMap((r: any) => r.findings)].map((x: any) => x.code);
const validate = (heapMiB: number, ...args: string[]) => spawnSync(process.execPath, [`--max-old-space-size=${heapMiB}`, main, 'validate', ...args], { encoding: 'utf8', maxBuffer: 1 << 28 });

test('a hostile ticket that ended the process under a 56 MB heap: reported whole (exit 1) in SARIF, the ticket beside it too, no crash', () => {
  // Before SARIF was made as the worker sends the report (issue 33), this report was cut (too-many-findings) or
  // its worker ran out of memory (out-of-memory), and nothing of it listed.
  const r = validate(56, hostile, small, '--format', 'sarif');
  assert.is(r.status, 1, `exit ${r.status} ${r.signal ?? ''}: ${r.stderr.slice(0, 400)}`);
  assert.not.match(r.stderr, /heap|FATAL/);
  const results: any[] = JSON.parse(r.stdout).runs[0].results;
  const of = (name: string) => results.filter((x) => x.locations[0].physicalLocation.artifactLocation.uri.endsWith(name)).map((x) => x.ruleId);
  // Every finding of every reference, none cut.
  const big = of('hostile-20000.jdf');
  assert.is(big.length, COUNT * PER_REFERENCE);
  assert.ok(!big.some((code) => code === 'out-of-memory' || code === 'too-many-findings'));
  assert.equal(of('small.jdf'), ['unescaped-space']);
});

test('a hostile ticket under a 48 MB heap, in JSON: written as it is checked (no one holds its report), whole, exit 1, no crash', () => {
  // Before JSON was written as the worker sends it (issue 33), this report was cut at 64 MB (too-many-findings)
  // and the process ended at 48 MB with exit 134.
  const r = validate(48, hostile, small, '--format', 'json');
  assert.is(r.status, 1, `exit ${r.status} ${r.signal ?? ''}: ${r.stderr.slice(0, 400)}`);
  assert.not.match(r.stderr, /heap|FATAL/);
  const [big, beside] = JSON.parse(r.stdout).files;
  assert.is(path.basename(big.path), 'hostile-20000.jdf');
  assert.equal(big.findings, []);
  assert.is(big.references.length, COUNT);
  // Pieces are whole references, in order: each one listed has its value and all its findings.
  big.references.forEach((ref: any, i: number) => {
    if (ref.value !== value(i) || ref.findings.length !== PER_REFERENCE) assert.unreachable(`${i}: ${ref.value} ${ref.findings.length}`);
  });
  assert.equal([path.basename(beside.path), codes(beside)], ['small.jdf', ['unescaped-space']]);
});

test('the same ticket under a 200 MB heap: checked in a worker of its own, its report comes back whole, in order', () => {
  const r = validate(200, hostile, '--format', 'json');
  assert.is(r.status, 1, r.stderr.slice(0, 400));
  const [big] = JSON.parse(r.stdout).files;
  assert.equal(big.findings, []);
  assert.is(big.references.length, COUNT);
  big.references.forEach((ref: any, i: number) => {
    if (ref.value !== value(i) || ref.findings.length !== PER_REFERENCE) assert.unreachable(`${i}: ${ref.value} ${ref.findings.length}`);
  });
});

test.after(() => rmSync(dir, { recursive: true, force: true }));
test.run();
