// The memory section: each figure from a process of its own (bench/memory-child.ts), which reads its own VmHWM.
// Not getrusage's maxrss of a child: Linux starts a child's maxrss at its parent's size at fork, so a large bench
// process made a contender look like 0 MB. A self-check (a child that holds 200 MB) and, where /usr/bin/time
// exists, an independent measurement of separate runs say whether the column can be believed on this machine.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { medianOf, type Row } from './measure.js';
import { SHAPES, SHAPE_DESCRIPTIONS, shapedTicket, type Shape } from './shapes.js';

interface ChildResult {
  peak: number | null;
  maxrss: number;
  retained?: number;
  references?: number;
}

const SELF_CHECK_BYTES = 200e6;
const TIME = '/usr/bin/time';
const MB = (bytes: number) => bytes / 1e6;
const fmt = (n: number) => n.toLocaleString('en');

export function memorySection(root: string, quick: boolean, log: (s: string) => void): { rows: Row[]; notes: string[] } {
  const child = path.join(root, 'dist/bench/memory-child.js');
  const argv = (what: string, arg?: string) => ['--expose-gc', child, what, ...(arg === undefined ? [] : [arg])];
  const run = (what: string, arg?: string): ChildResult => {
    const r = spawnSync(process.execPath, argv(what, arg), { encoding: 'utf8', cwd: root });
    if (r.status !== 0) throw new Error(`memory child ${what} failed: ${r.stderr}`);
    return JSON.parse(r.stdout) as ChildResult;
  };
  const peakOf = (r: ChildResult) => r.peak ?? r.maxrss;
  const rows: Row[] = [];
  const notes: string[] = [];

  const idle = medianOf([1, 2, 3].map(() => peakOf(run('idle'))));
  const viaProc = run('idle').peak !== null;
  const method = viaProc ? 'own VmHWM - idle' : 'own maxrss - idle';
  notes.push(
    viaProc
      ? `memory: each figure is the VmHWM (/proc/<pid>/status) of a node process of its own that does only that one thing, minus an idle node's (${MB(idle).toFixed(1)} MB); a child's getrusage maxrss is not used, since Linux starts it at the parent's size`
      : `memory: no /proc here, so each figure is getrusage's maxrss of a node process of its own, minus an idle node's (${MB(idle).toFixed(1)} MB); see the self-check`,
  );

  // The self-check: a known allocation must come out as itself.
  const alloc = run('alloc', String(SELF_CHECK_BYTES));
  const allocAbove = peakOf(alloc) - idle;
  const allocOk = Math.abs(allocAbove - SELF_CHECK_BYTES) <= 0.1 * SELF_CHECK_BYTES;
  rows.push({ section: 'memory', name: `self-check: a child holding 200 MB of filled buffers (${method})`, value: MB(allocAbove), unit: 'MB', ratio: allocAbove / SELF_CHECK_BYTES, target: 'within 10% of 200 MB', pass: allocOk });
  notes.push(`memory self-check: ${MB(allocAbove).toFixed(1)} MB measured for 200 MB held; getrusage's maxrss in the same child says ${MB(alloc.maxrss - idle).toFixed(1)} MB above idle`);
  if (!allocOk) notes.push('memory: THE MEMORY COLUMN IS UNRELIABLE ON THIS MACHINE (the self-check is off by more than 10%)');

  const dir = mkdtempSync(path.join(os.tmpdir(), 'jfs-bench-memory-'));
  try {
    const sizes: Array<[Shape, number]> = SHAPES.map((s) => [s, 100_000]);
    if (!quick) sizes.push(['plain', 1_000_000], ['mix', 1_000_000]);
    const peaks = new Map<string, number>();
    const files = new Map<string, string>();
    for (const [shape, n] of sizes) {
      log(`memory: ${shape}, ${fmt(n)} FileSpecs ...`);
      const file = path.join(dir, `${shape}-${n}.jdf`);
      const text = shapedTicket(shape, n);
      writeFileSync(file, text);
      files.set(`${shape}-${n}`, file);
      const size = Buffer.byteLength(text);
      // The peak moves with the timing of V8's collections (see the note), so a full run takes the median of three.
      const runs = (quick ? [1] : [1, 2, 3]).map(() => run('ours', file)).sort((a, b) => peakOf(a) - peakOf(b));
      const ours = runs[runs.length >> 1]!;
      if (ours.references !== n) throw new Error(`memory: the ${shape} ticket gave ${ours.references} references, not ${n}`);
      peaks.set(`${shape}-${n}`, peakOf(ours));
      const above = peakOf(ours) - idle;
      const target = n === 100_000 ? { target: '< 6x file size', pass: above / size < 6 } : {};
      const label = `${shape}, ${fmt(n)} FileSpecs (${MB(size).toFixed(1)} MB)`;
      rows.push({ section: 'memory', name: `${label}: validateTicket peak (${method})`, value: MB(above), unit: 'MB', ratio: above / size, ...target });
      rows.push({ section: 'memory', name: `${label}: the report retained (heap + external after gc)`, value: MB(ours.retained!), unit: 'MB', ratio: ours.retained! / size });
      if (n === 100_000) {
        const raw = peakOf(run('raw', file)) - idle;
        rows.push({ section: 'memory', name: `${label}: raw fast-xml-parser parse peak (${method})`, value: MB(raw), unit: 'MB', ratio: raw / size });
      }
    }
    notes.push(`memory shapes: ${SHAPES.map((s) => `${s} = ${SHAPE_DESCRIPTIONS[s]}`).join('; ')}`);
    notes.push(
      'memory: the peak is the report and the text, plus what V8 has not collected yet: after its first mark-compact the old '
      + 'generation may grow to 4x what was live then (--trace-gc-verbose), so the peak moves by tens of MB with the timing '
      + `of that collection; the report retained is the steady figure${quick ? '' : ' (the peak is the median of three runs)'}`,
    );
    rows.push(...crossCheck(argv, root, files, peaks, notes));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return { rows, notes };
}

/** A separate run of the same child under /usr/bin/time -v: its maximum resident set size against our peak. */
function crossCheck(argv: (what: string, arg?: string) => string[], root: string, files: Map<string, string>, peaks: Map<string, number>, notes: string[]): Row[] {
  if (!existsSync(TIME)) {
    notes.push(`memory: no ${TIME} here, so no independent check (apt-get install time)`);
    return [];
  }
  const rows: Row[] = [];
  for (const shape of ['plain', 'broken']) {
    const key = `${shape}-100000`;
    const r = spawnSync(TIME, ['-v', process.execPath, ...argv('ours', files.get(key))], { encoding: 'utf8', cwd: root });
    const kb = /Maximum resident set size \(kbytes\): (\d+)/.exec(r.stderr)?.[1];
    if (r.status !== 0 || kb === undefined) {
      notes.push(`memory: ${TIME} -v failed on ${key}: ${r.stderr.slice(0, 200)}`);
      continue;
    }
    const theirs = Number(kb) * 1024;
    const ours = peaks.get(key)!;
    const agree = Math.abs(theirs - ours) <= 0.15 * ours;
    rows.push({ section: 'memory', name: `check: ${TIME} -v of a separate run, ${shape}, 100,000 (whole process)`, value: MB(theirs), unit: 'MB', ratio: theirs / ours, target: `within 15% of ${MB(ours).toFixed(0)} MB`, pass: agree });
  }
  return rows;
}
