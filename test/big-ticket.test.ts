// A big ticket is checked in a worker of its own with a memory limit (issue 10: a ticket over any limit is a
// finding, never a crash; issue 20: a 120 MB ticket of bad references ran Node out of heap, exit 134, no report).
// The limit is lowered here (JDF_FILESPEC_TICKET_HEAP_MIB) so that a 17 MiB ticket passes it without needing GBs.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { projectRoot } from './helpers.js';

const main = fileURLToPath(new URL('dist/bin/jdf-filespec.js', projectRoot));
const dir = mkdtempSync(path.join(tmpdir(), 'jfs-big-'));
const big = path.join(dir, 'big.jdf');
const small = path.join(dir, 'small.jdf');
// Over the 16 MiB from which a ticket gets a worker of its own: one FileSpec, then 17 MiB of white space.
writeFileSync(big, `<JDF Version="1.4"><ResourcePool><FileSpec URL="a b.pdf"/>${' '.repeat(17 * 1024 * 1024)}</ResourcePool></JDF>`);
// Over it too, but dense: 17 MiB of elements, whose tree alone is more than a 16 MiB heap holds. (A limit much
// below the ticket's own size lets one big read kill the process before Node's near-limit callback ends the worker.)
const dense = path.join(dir, 'dense.jdf');
const element = '<FileSpec URL="a.pdf"/>';
const denseBody = `<JDF Version="1.4"><ResourcePool>${element.repeat(Math.ceil((17 * 1024 * 1024) / element.length))}</ResourcePool></JDF>`;
writeFileSync(dense, denseBody);
writeFileSync(small, '<JDF Version="1.4"><ResourcePool><FileSpec URL="c d.pdf"/></ResourcePool></JDF>');
const run = (env: Record<string, string>, first = big) => spawnSync(process.execPath, [main, 'validate', first, small, '--format', 'json'], { encoding: 'utf8', env: { ...process.env, ...env }, maxBuffer: 1 << 26 });
const codes = (f: any) => [...f.findings, ...f.references.flatMap((r: any) => r.findings)].map((x: any) => x.code);

test('in its own worker, a big ticket gets the same findings as a small one', () => {
  const r = run({});
  assert.is(r.status, 1, r.stderr);
  const report = JSON.parse(r.stdout);
  assert.equal(report.files.map((f: any) => [path.basename(f.path), codes(f)]), [['big.jdf', ['unescaped-space']], ['small.jdf', ['unescaped-space']]]);
});

test('past its memory limit, the big ticket is an out-of-memory finding and the ticket beside it is still reported', () => {
  const r = run({ JDF_FILESPEC_TICKET_HEAP_MIB: '16' }, dense);
  assert.is(r.status, 1, r.stderr);
  assert.not.match(r.stderr, 'heap');
  const report = JSON.parse(r.stdout);
  assert.equal(report.files.map((f: any) => [path.basename(f.path), codes(f)]), [['dense.jdf', ['out-of-memory']], ['small.jdf', ['unescaped-space']]]);
  assert.match(report.files[0].findings[0].message, `(${Buffer.byteLength(denseBody)} bytes) needed more memory than the 16 MiB`);
});

test.after(() => rmSync(dir, { recursive: true, force: true }));
test.run();
