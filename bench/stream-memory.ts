// npm run bench:memory: the peak memory of validateTicketStream (its visitor dropping what it is given) on every
// ticket shape of bench/shapes.ts at 100,000 and 1,000,000 FileSpecs, against the file's size (issue 33: under 6x),
// and of `validate -f json` and `-f sarif` on a 1,000,000-FileSpec ticket (the whole CLI, its worker threads too). Each figure
// is from a process of its own: its VmHWM minus an idle node's, as the bench's memory section measures
// (bench/memory.ts says why not a child's maxrss); the CLI's under /usr/bin/time -v (Maximum resident set size).
//   node dist/bench/stream-memory.js [--quick] [--shape NAME]... [--sizes 100000,1000000] [--cli-only] [--format json|sarif]...
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { SHAPES, shapedTicket, type Shape } from './shapes.js';

interface ChildResult {
  peak: number | null;
  maxrss: number;
  heapPeak: number;
  references: number;
}

const TARGET = 6;
const TIME = '/usr/bin/time';
const MB = (bytes: number) => (bytes / 1e6).toFixed(1);
const root = path.dirname(path.dirname(path.dirname(fileURLToPath(import.meta.url))));
const child = path.join(root, 'dist/bench/stream-memory-child.js');

function run(what: string, file?: string): ChildResult {
  const r = spawnSync(process.execPath, [child, what, ...(file === undefined ? [] : [file])], { encoding: 'utf8', cwd: root, maxBuffer: 1 << 20 });
  if (r.status !== 0) throw new Error(`stream-memory child ${what} failed: ${r.stderr}`);
  return JSON.parse(r.stdout) as ChildResult;
}

/** The CLI's validate -f FORMAT of `file`, its output thrown away: the whole process's maximum resident set (bytes), or why not. */
function cliPeak(file: string, format: string): { rss: number; exit: number } | { failed: string } {
  if (!existsSync(TIME)) return { failed: `no ${TIME} here` };
  const bin = path.join(root, 'dist/bin/jdf-filespec.js');
  const r = spawnSync(TIME, ['-v', process.execPath, bin, 'validate', file, '-f', format, '--exit-zero', '--max-bytes', '500MiB'], { encoding: 'utf8', cwd: root, stdio: ['ignore', 'ignore', 'pipe'] });
  const kb = /Maximum resident set size \(kbytes\): (\d+)/.exec(r.stderr)?.[1];
  const exit = Number(/Exit status: (\d+)/.exec(r.stderr)?.[1] ?? -1);
  if (kb === undefined || exit !== 0) return { failed: `exit ${exit}: ${r.stderr.slice(0, 300)}` };
  return { rss: Number(kb) * 1024, exit };
}

const args = process.argv.slice(2);
const quick = args.includes('--quick');
const shapes = args.flatMap((a, i) => (args[i - 1] === '--shape' ? [a as Shape] : []));
const sizesArg = args[args.indexOf('--sizes') + 1];
const sizes = args.includes('--sizes') && sizesArg !== undefined ? sizesArg.split(',').map(Number) : quick ? [100_000] : [100_000, 1_000_000];
const chosen = args.includes('--cli-only') ? [] : shapes.length > 0 ? shapes : [...SHAPES];
const givenFormats = args.flatMap((a, i) => (args[i - 1] === '--format' ? [a] : []));
const formats = givenFormats.length > 0 ? givenFormats : ['json', 'sarif'];

const median = (what: string) => [run(what), run(what), run(what)].map((r) => r.peak ?? r.maxrss).sort((a, b) => a - b)[1]!;
const idle = median('idle');
const loaded = median('loaded');
console.log(`idle node: ${MB(idle)} MB (VmHWM), with the library imported: ${MB(loaded)} MB. The peak is a child's VmHWM minus the idle node's (the target's figure),`);
console.log('then minus the node with the library loaded (what the ticket costs); the heap peak is its largest heapUsed + external seen');
console.log('shape, FileSpecs, file MB, peak MB above idle, x file, above loaded x file, heap peak MB, x file, target');
const dir = mkdtempSync(path.join(os.tmpdir(), 'jfs-stream-memory-'));
let failed = 0;
try {
  for (const n of sizes) {
    for (const shape of chosen) {
      const file = path.join(dir, `${shape}-${n}.jdf`);
      writeFileSync(file, shapedTicket(shape, n));
      const size = statSync(file).size;
      const r = run('stream', file);
      const above = (r.peak ?? r.maxrss) - idle;
      const pass = above / size < TARGET;
      if (!pass) failed++;
      const refs = r.references;
      console.log(`${shape}, ${n.toLocaleString('en')}, ${MB(size)}, ${MB(above)}, ${(above / size).toFixed(2)}x, ${(((r.peak ?? r.maxrss) - loaded) / size).toFixed(2)}x, ${MB(r.heapPeak)}, ${(r.heapPeak / size).toFixed(2)}x, ${pass ? 'PASS' : 'FAIL'} < ${TARGET}x${refs < n ? ` (only ${refs} references!)` : ''}`);
      rmSync(file);
    }
  }
  if (!quick) {
    const n = 1_000_000;
    for (const shape of ['plain', 'broken'] as const) {
      const file = path.join(dir, `cli-${shape}-${n}.jdf`);
      writeFileSync(file, shapedTicket(shape, n));
      const size = statSync(file).size;
      for (const format of formats) {
        const c = cliPeak(file, format);
        if ('failed' in c) console.log(`validate -f ${format}, ${shape}, ${n.toLocaleString('en')}: not measured (${c.failed})`);
        else {
          const above = c.rss - idle;
          const pass = above / size < TARGET;
          if (!pass) failed++;
          console.log(`validate -f ${format}, ${shape}, ${n.toLocaleString('en')} FileSpecs (${MB(size)} MB): max RSS ${MB(c.rss)} MB, ${MB(above)} MB above idle, ${(above / size).toFixed(2)}x, exit ${c.exit}, ${pass ? 'PASS' : 'FAIL'} < ${TARGET}x`);
        }
      }
      rmSync(file);
    }
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
console.log(failed === 0 ? 'every figure under its target' : `${failed} figure(s) over the target`);
