// The CLI's JSON and SARIF are the same bytes whichever way a ticket is checked and written: a big ticket in a
// worker of its own that sends its report as it checks it (validateTicketStream, src/node/report-pieces.ts
// streamResult), JSON written as the pieces come (src/cli/json-stream.ts), against the same ticket checked whole
// in this thread (validateTicket) and the report written whole (jsonDocument(buildReport(...)), which a folder
// run still does). SARIF likewise: made as the pieces come and kept in a temporary file until the log's end
// (src/cli/sarif-stream.ts), against sarifPieces(buildReport(...)) of a folder run. Which way is the heap's choice (bigTicketBytes: a 256th of it): a small heap and a large one.
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { projectRoot } from './helpers.js';

const root = fileURLToPath(projectRoot);
const main = path.join(root, 'dist/bin/jdf-filespec.js');
const dir = mkdtempSync(path.join(tmpdir(), 'jfs-stream-bytes-'));
// The big ticket last in the folder's order.

// 4,000 FileSpecs (about 0.4 MB) of what makes a report differ: findings, fixes, fixes refused, a Directory
// without its "/" used and one unused, a resource used twice through rRefs, a directive.
// Enough to be over a 32 MB heap's big-ticket size (a 256th of its 80 MB limit: 0.31 MiB), and no more: each run
// below reads them all.
const SPECS = 4_000;
const values = ['p 1.pdf', 'pages\\p2.pdf', '\\\\srv\\share\\p 3.pdf', 'M%C3%BCller%20p4.pdf', 'file:///c:/x/p5.pdf', 'p#6.pdf', 'ok/p7.pdf'];
const specs = Array.from({ length: SPECS }, (_, i) => `<RunList Run="${i}"><LayoutElement><FileSpec URL="${values[i % values.length]!.replace('.pdf', `-${i}.pdf`)}"/></LayoutElement></RunList>`);
const big = path.join(dir, 'zz-big.jdf');
writeFileSync(big, `<?xml version="1.0" encoding="UTF-8"?>
<JDF xmlns="http://www.CIP4.org/JDFSchema_1_1" ID="n1" Version="1.4"><ResourcePool>
<FileSpec ID="FS0" Class="Parameter" URL="pages\\shared.pdf"/>
<RunList ID="A" Class="Parameter" Directory="file:///c:/Jobs/4711"><LayoutElement><FileSpec URL="file:///c:/abs.pdf"/></LayoutElement></RunList>
<RunList ID="B" Class="Parameter" Directory="file:///c:/Jobs/4712/"><LayoutElement><FileSpecRef rRef="FS0"/></LayoutElement></RunList>
<RunList ID="C" Class="Parameter" Directory="C:\\Jobs\\x"><LayoutElement><FileSpecRef rRef="FS0"/></LayoutElement></RunList>
<!-- jdf-filespec-disable-next-line unescaped-space -->
<RunList ID="R" Class="Parameter" Directory="file://srv/share/Sheet">
${specs.join('\n')}
</RunList></ResourcePool></JDF>
`);
// 4,000 FileSpecs (0.4 MB) whose findings come in order of place, a finding about the file (a dangling rRef) among
// them: unix and GitHub lines kept on disk, merged with the file's own, not sorted in memory.
const ordered = path.join(dir, 'zz-ordered.jdf');
writeFileSync(ordered, `<?xml version="1.0" encoding="UTF-8"?>
<JDF xmlns="http://www.CIP4.org/JDFSchema_1_1" ID="n2" Version="1.4"><ResourcePool><RunList ID="R" Class="Parameter" Directory="file://srv/share/Sheet">
${specs.slice(0, SPECS / 2).join('\n')}
<FileSpecRef rRef="missing"/>
${specs.slice(SPECS / 2).join('\n')}
</RunList></ResourcePool></JDF>
`);
// The samples beside it, in the folder's order (the folder run's).
const samples = readdirSync(path.join(root, 'samples')).filter((n) => /\.(jdf|xjdf|jmf)$/.test(n)).sort();
for (const name of samples) copyFileSync(path.join(root, 'samples', name), path.join(dir, name));
const files = [...samples.map((n) => path.join(dir, n)), big, ordered];

// The CLI's temporary files go here, to be seen removed.
const temp = path.join(dir, 'tmp');
mkdirSync(temp);
// The heap (MiB) under which the big tickets are streamed from workers of their own.
const SMALL_HEAP = 32;
const run = (heapMiB: number, format: string, paths: string[]) => {
  const r = spawnSync(process.execPath, [`--max-old-space-size=${heapMiB}`, main, 'validate', ...paths, '-f', format], { cwd: root, maxBuffer: 1 << 28, env: { ...process.env, TMPDIR: temp } });
  assert.ok(r.status === 0 || r.status === 1, `exit ${r.status}: ${r.stderr}`);
  return r.stdout;
};

test('JSON and SARIF: the same bytes when the big ticket is streamed from its worker (a 32 MB heap) and checked and written whole (4 GB)', () => {
  // Over 32 MB / 256 (a heap limit of 80 MB: 0.31 MiB), under 4 GB / 256 and 16 MiB.
  for (const file of [big, ordered]) assert.ok(statSync(file).size > 0.35 * 2 ** 20 && statSync(file).size < 16 * 2 ** 20);
  const json = run(SMALL_HEAP, 'json', files);
  const whole = run(4096, 'json', [dir]);
  assert.ok(json.length > 150_000);
  assert.ok(json.equals(whole), `JSON: ${json.length} bytes streamed, ${whole.length} whole`);
  // --quiet: errors only, each piece filtered as it is written.
  assert.ok(run(SMALL_HEAP, 'json', [...files, '-q']).equals(run(4096, 'json', [dir, '-q'])));
  const sarif = run(SMALL_HEAP, 'sarif', files);
  const sarifWhole = run(4096, 'sarif', [dir]);
  assert.ok(sarif.length > 150_000);
  assert.ok(sarif.equals(sarifWhole), `SARIF: ${sarif.length} bytes streamed, ${sarifWhole.length} whole`);
  // Checked in this thread and written from the reports as they come: the same bytes.
  assert.ok(run(4096, 'sarif', files).equals(sarifWhole));
  assert.ok(run(SMALL_HEAP, 'sarif', [...files, '-q']).equals(run(4096, 'sarif', [dir, '-q'])));
  // A path that cannot be read is named in the log's head, before every result.
  const missing = path.join(dir, 'missing.jdf');
  const withMissing = spawnSync(process.execPath, [`--max-old-space-size=${SMALL_HEAP}`, main, 'validate', ...files, missing, '-f', 'sarif'], { cwd: root, maxBuffer: 1 << 28, env: { ...process.env, TMPDIR: temp } });
  assert.is(withMissing.status, 2);
  const log = JSON.parse(withMissing.stdout.toString('utf8'));
  assert.is(log.runs[0].invocations[0].toolExecutionNotifications.length, 1);
  assert.is(log.runs[0].results.length, JSON.parse(sarif.toString('utf8')).runs[0].results.length);
  // The results kept on disk are gone.
  assert.equal(readdirSync(temp), []);
  // Each reference of the big ticket is there: its 4,000, the one under A, and FS0 at each of its two uses.
  const report = JSON.parse(json.toString('utf8'));
  const file = report.files.find((f: { path: string }) => f.path === big);
  assert.is(file.references.filter((r: { attribute: string }) => r.attribute === 'URL').length, SPECS + 3);
});

test('unix and GitHub: the same lines when the big tickets are streamed from their workers and checked and written whole', () => {
  for (const format of ['unix', 'github']) {
    const streamed = run(SMALL_HEAP, format, files);
    const whole = run(4096, format, [dir]);
    assert.ok(streamed.length > 150_000);
    assert.ok(streamed.equals(whole), `${format}: ${streamed.length} bytes streamed, ${whole.length} whole`);
    assert.ok(run(4096, format, files).equals(whole));
    assert.ok(run(SMALL_HEAP, format, [...files, '-q']).equals(run(4096, format, [dir, '-q'])));
  }
  // The dangling rRef among the ordered ticket's lines, where its place puts it.
  const lines = run(SMALL_HEAP, 'unix', [ordered]).toString('utf8').split('\n');
  const at = lines.findIndex((l) => l.includes('[dangling-rref]'));
  assert.ok(at > 1000 && at < lines.length - 1000, `at ${at} of ${lines.length}`);
  assert.equal(readdirSync(temp), []);
});

test.after(() => rmSync(dir, { recursive: true, force: true }));
test.run();
