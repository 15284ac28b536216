// Runs every compiled uvu suite (dist/test/**/*.test.js), each file in its own uvu process, as many at once as
// the machine has cores (JDF_TEST_JOBS to choose), and ends with the closing line "N passed, N failed" that CI
// reads. Many suites spend their time waiting on child processes and timers, so files run side by side.
// A file's output is printed whole when it ends, so suites never interleave. Exit code: 1 when any file failed.
// `node test/run.js PATTERN` runs only the files whose name matches the regular expression PATTERN.
import { spawn } from 'node:child_process';
import { readdirSync } from 'node:fs';
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import path from 'node:path';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const uvu = path.join(root, 'node_modules', 'uvu', 'bin.js');
const dir = path.join(root, 'dist', 'test');
const only = process.argv[2] !== undefined ? new RegExp(process.argv[2]) : undefined;
const files = readdirSync(dir).filter((name) => name.endsWith('.test.js') && (!only || only.test(name))).sort();
const jobs = Math.max(1, Number(process.env.JDF_TEST_JOBS) || os.availableParallelism());

// The suites run without the user's FORCE_COLOR and NO_COLOR: an exported FORCE_COLOR=1 would colour every CLI
// a suite starts. A suite that wants colour (or none) sets it itself.
const env = Object.fromEntries(Object.entries(process.env).filter(([key]) => key !== 'FORCE_COLOR' && key !== 'NO_COLOR'));

/** Runs one test file; resolves with its counts and whether it failed. */
function runFile(name) {
  const started = Date.now();
  return new Promise((resolve) => {
    const pattern = `^${name.replace(/[.]/g, '\\.')}$`;
    // --no-color: uvu would otherwise set FORCE_COLOR=1, which every CLI the suite starts would inherit (and honour).
    const child = spawn(process.execPath, [uvu, 'dist/test', pattern, '--no-color'], { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    child.on('close', (code, signal) => {
      const count = (label) => Number(new RegExp(`${label}:\\s+(\\d+)`).exec(out)?.[1] ?? 0);
      const total = count('Total');
      const passed = count('Passed');
      const skipped = count('Skipped');
      const failed = code === 0 ? total - passed - skipped : Math.max(1, total - passed - skipped);
      const seconds = ((Date.now() - started) / 1000).toFixed(1);
      process.stdout.write(`\n== ${name} (${seconds} s)${code === 0 ? '' : ` (exit ${code ?? signal})`}\n${out}`);
      resolve({ total, passed, skipped, failed });
    });
  });
}

const queue = [...files];
const results = [];
await Promise.all(
  Array.from({ length: Math.min(jobs, files.length) }, async () => {
    for (let name = queue.shift(); name !== undefined; name = queue.shift()) results.push(await runFile(name));
  }),
);
const sum = (key) => results.reduce((n, r) => n + r[key], 0);
const [total, passed, skipped, failed] = [sum('total'), sum('passed'), sum('skipped'), sum('failed')];
console.log(`\n${files.length} files, ${total} tests`);
console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
process.exit(failed === 0 && total > 0 ? 0 : 1);
