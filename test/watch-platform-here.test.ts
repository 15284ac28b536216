// This machine is the consumer (issue 27): where files are checked on this machine (validate --check-exists,
// watch --check-exists, pack), the default --platform is this machine's; an explicit --platform still wins.
// Table 4 example 26 of the JDF file-URL appendix: file:///path has no drive, a warning for any consumer and
// clean for a unix one (README, "Profiles and platforms").
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { projectRoot, removeTempFolders, tempFolder } from './helpers.js';
import { exited, until } from './watch-helpers.js';

const main = fileURLToPath(new URL('dist/src/cli/main.js', projectRoot));
const here = process.platform === 'win32' ? 'windows' : 'unix';

/** A ticket naming one PDF by its absolute file URL (a path with no drive letter on a POSIX machine). */
function job(): { dir: string; ticket: string } {
  const dir = realpathSync(tempFolder('jfs-platform-'));
  const pdf = path.join(dir, 'a.pdf');
  writeFileSync(pdf, '%PDF-1.4\n');
  const ticket = path.join(dir, 't.jdf');
  writeFileSync(ticket, `<?xml version="1.0" encoding="UTF-8"?>\n<JDF ID="x" Type="Product" Version="1.4" xmlns="http://www.CIP4.org/JDFSchema_1_1"><ResourcePool><RunList ID="RL1" Class="Parameter" Status="Available"><LayoutElement><FileSpec URL="${pathToFileURL(pdf).href}"/></LayoutElement></RunList></ResourcePool></JDF>\n`);
  return { dir, ticket };
}

const codes = (args: string[]): string[] => {
  const r = spawnSync(process.execPath, [main, 'validate', ...args, '--format', 'json'], { encoding: 'utf8' });
  return JSON.parse(r.stdout).files.flatMap((f: { references: Array<{ findings: Array<{ code: string }> }> }) => f.references.flatMap((x) => x.findings.map((y) => y.code)));
};

test('validate --check-exists checks for this machine; without it, or with --platform, as before', () => {
  if (here !== 'unix') return; // the POSIX path of this test has no drive: only on a POSIX machine is it clean
  const { ticket } = job();
  assert.equal(codes([ticket, '--check-exists']), []);
  assert.equal(codes([ticket]), ['root-without-drive']);
  assert.equal(codes([ticket, '--check-exists', '--platform', 'any']), ['root-without-drive']);
  assert.equal(codes([ticket, '--check-exists', '--platform', 'windows']), ['root-without-drive']);
});

test('watch --check-exists --max-warnings 0 routes a ticket with a POSIX file URL to OK (no root-without-drive)', async () => {
  if (here !== 'unix') return;
  const { dir, ticket } = job();
  const d = { in: path.join(dir, 'in'), ok: path.join(dir, 'ok'), error: path.join(dir, 'error') };
  mkdirSync(d.in);
  const child = spawn(process.execPath, [main, 'watch', d.in, '--ok', d.ok, '--error', d.error, '--check-exists', '--max-warnings', '0', '--settle', '100ms', '--poll-interval', '200ms'], { stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  child.stdout.on('data', (c: Buffer) => (out += c.toString('utf8')));
  try {
    await until(() => out.includes('"event":"started"'), 30_000, 'the watcher to start');
    writeFileSync(path.join(d.in, 't.jdf'), readFileSync(ticket));
    await until(() => /"event":"(ok|error)"/.test(out), 30_000, 'the ticket to be routed');
  } finally {
    child.kill('SIGTERM');
    await exited(child);
  }
  assert.equal(readdirSync(d.ok).sort(), ['t.jdf', 't.jdf.report.json']);
  const report = JSON.parse(readFileSync(path.join(d.ok, 't.jdf.report.json'), 'utf8'));
  assert.is(report.summary.warning, 0);
});

test.after.each(removeTempFolders);

test.run();
