// Runs every compiled uvu suite (dist/test/**/*.test.js), each file in its own uvu process, as many at once as
// the machine has cores (JDF_TEST_JOBS to choose), longest first by test/durations.json (files it does not know
// first), and ends with the closing line "N passed, N failed" that CI reads. A file's output is printed whole
// when it ends, so suites never interleave; its heading gives its wall time and, where /bin/sh is, its CPU time
// (user + system, with the processes it started). The end lists the ten slowest files and the totals.
// Each file runs with TMPDIR set to a folder of its own, inside one the runner makes (mode 0700) under the real
// temporary folder: a file that leaves anything there fails, its leftovers named, and the runner removes it all.
// Exit code: 1 when any file failed or left something behind.
// `node test/run.js PATTERN` runs only the files whose name matches the regular expression PATTERN;
// `node test/run.js --save-durations [PATTERN]` also writes the files' wall times to test/durations.json.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import { clearInterval, setInterval } from 'node:timers';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const uvu = path.join(root, 'node_modules', 'uvu', 'bin.js');
const dir = path.join(root, 'dist', 'test');
const durationsFile = path.join(root, 'test', 'durations.json');
const args = process.argv.slice(2);
const save = args.includes('--save-durations');
const pattern = args.find((a) => a !== '--save-durations');
const only = pattern !== undefined ? new RegExp(pattern) : undefined;
const known = existsSync(durationsFile) ? JSON.parse(readFileSync(durationsFile, 'utf8')) : {};
// Longest first, so the long files do not end the run alone; a file with no duration yet goes first of all.
const files = readdirSync(dir).filter((name) => name.endsWith('.test.js') && (!only || only.test(name))).sort()
  .sort((a, b) => (known[b] ?? Infinity) - (known[a] ?? Infinity));
const jobs = Math.max(1, Number(process.env.JDF_TEST_JOBS) || os.availableParallelism());

// One folder for the run, private (mkdtemp makes it 0700), under the real temporary folder; removed at the end,
// and when the run is interrupted (the suites get the terminal's signal too).
const tmp = mkdtempSync(path.join(os.tmpdir(), 'jdf-filespec-test-'));
const removeTmp = () => {
  if (process.platform !== 'win32') spawnSync('chmod', ['-R', 'u+rwX', tmp]);
  rmSync(tmp, { recursive: true, force: true });
};
// Each file's processes are a process group of their own (detached), which an interrupted run stops.
const running = new Set();
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.once(signal, () => {
    for (const child of running) {
      try {
        process.kill(-child.pid, signal);
      } catch {
        // gone already
      }
    }
    // Once they are gone (five seconds at most), their folder goes too.
    const end = Date.now() + 5000;
    const wait = setInterval(() => {
      if (running.size > 0 && Date.now() < end) return;
      clearInterval(wait);
      removeTmp();
      process.exit(signal === 'SIGINT' ? 130 : 143);
    }, 100);
  });
}

// The suites run without the user's FORCE_COLOR and NO_COLOR: an exported FORCE_COLOR=1 would colour every CLI
// a suite starts. A suite that wants colour (or none) sets it itself.
const env = Object.fromEntries(Object.entries(process.env).filter(([key]) => key !== 'FORCE_COLOR' && key !== 'NO_COLOR'));
// POSIX sh's `times` prints its children's CPU time (which holds theirs): written to file descriptor 3.
const sh = process.platform !== 'win32' && existsSync('/bin/sh');
const seconds = (text) => text.split(/\s+/).filter(Boolean).map((t) => /^(\d+)m([\d.]+)s$/.exec(t)).reduce((n, m) => n + (m ? Number(m[1]) * 60 + Number(m[2]) : 0), 0);

/** Everything inside folder, as paths relative to it (a folder's entries under it; an empty folder itself). */
function entries(folder, prefix = '') {
  return readdirSync(folder, { withFileTypes: true }).flatMap((e) => {
    const name = prefix + e.name;
    if (!e.isDirectory()) return [name];
    let inside;
    try {
      inside = entries(path.join(folder, e.name), name + '/');
    } catch {
      inside = [];
    }
    return inside.length > 0 ? inside.slice(0, 5).concat(inside.length > 5 ? [`${name}/... (${inside.length} in all)`] : []) : [name + '/'];
  });
}

/** Runs one test file; resolves with its counts, times, and what it left in its temporary folder. */
function runFile(name) {
  const started = Date.now();
  const own = path.join(tmp, name.replace(/\.test\.js$/, ''));
  mkdirSync(own, { mode: 0o700 });
  return new Promise((resolve) => {
    const filter = `^${name.replace(/[.]/g, '\\.')}$`;
    // --no-color: uvu would otherwise set FORCE_COLOR=1, which every CLI the suite starts would inherit (and honour).
    const command = [process.execPath, uvu, 'dist/test', filter, '--no-color'];
    const childEnv = { ...env, TMPDIR: own, TMP: own, TEMP: own };
    const child = sh
      ? spawn('/bin/sh', ['-c', '"$@"; status=$?; times >&3; exit $status', 'sh', ...command], { cwd: root, env: childEnv, stdio: ['ignore', 'pipe', 'pipe', 'pipe'], detached: true })
      : spawn(command[0], command.slice(1), { cwd: root, env: childEnv, stdio: ['ignore', 'pipe', 'pipe'] });
    running.add(child);
    let out = '';
    let times = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    child.stdio[3]?.on('data', (d) => (times += d));
    child.on('close', (code, signal) => {
      running.delete(child);
      const count = (label) => Number(new RegExp(`${label}:\\s+(\\d+)`).exec(out)?.[1] ?? 0);
      const total = count('Total');
      const passed = count('Passed');
      const skipped = count('Skipped');
      let failed = code === 0 ? total - passed - skipped : Math.max(1, total - passed - skipped);
      const wall = (Date.now() - started) / 1000;
      // The second line of `times`: the user and system time of the shell's children.
      const cpu = sh ? seconds(times.split('\n')[1] ?? '') : undefined;
      const left = entries(own);
      if (left.length > 0) failed += 1;
      const heading = `== ${name} (${wall.toFixed(1)} s${cpu !== undefined ? `, ${cpu.toFixed(1)} s CPU` : ''})${code === 0 ? '' : ` (exit ${code ?? signal})`}`;
      const leftText = left.length > 0 ? `\n  left in its temporary folder (TMPDIR): ${left.join(', ')}\n` : '';
      process.stdout.write(`\n${heading}\n${out}${leftText}`);
      resolve({ name, total, passed, skipped, failed, wall, cpu, left });
    });
  });
}

const started = Date.now();
const queue = [...files];
const results = [];
try {
  await Promise.all(
    Array.from({ length: Math.min(jobs, files.length) }, async () => {
      for (let name = queue.shift(); name !== undefined; name = queue.shift()) results.push(await runFile(name));
    }),
  );
} finally {
  // Whatever a suite left (read-only folders too): the run's own folder goes.
  removeTmp();
}
const wall = (Date.now() - started) / 1000;
const sum = (key) => results.reduce((n, r) => n + (r[key] ?? 0), 0);
const [total, passed, skipped, failed] = [sum('total'), sum('passed'), sum('skipped'), sum('failed')];
const cpuOf = (r) => (r.cpu !== undefined ? `, ${r.cpu.toFixed(1).padStart(5)} s CPU` : '');
console.log(`\nThe ten slowest files (wall${sh ? ', CPU' : ''}):`);
for (const r of [...results].sort((a, b) => b.wall - a.wall).slice(0, 10)) console.log(`  ${r.wall.toFixed(1).padStart(5)} s${cpuOf(r)}  ${r.name}`);
const load = os.loadavg().map((n) => n.toFixed(2)).join(' ');
console.log(`Total: ${wall.toFixed(1)} s wall${sh ? `, ${sum('cpu').toFixed(1)} s CPU` : ''}, ${Math.min(jobs, files.length)} at once; load average ${load}`);
const leaving = results.filter((r) => r.left.length > 0);
if (leaving.length > 0) console.log(`Left in the temporary folder by: ${leaving.map((r) => `${r.name} (${r.left.length})`).join(', ')}`);
if (save) {
  const durations = { ...known, ...Object.fromEntries(results.map((r) => [r.name, Math.round(r.wall * 10) / 10])) };
  const present = new Set(readdirSync(dir));
  const kept = Object.fromEntries(Object.entries(durations).filter(([name]) => present.has(name)).sort(([, a], [, b]) => b - a));
  writeFileSync(durationsFile, JSON.stringify(kept, null, 2) + '\n');
}
console.log(`\n${files.length} files, ${total} tests`);
console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
process.exit(failed === 0 && total > 0 ? 0 : 1);
