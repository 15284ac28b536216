// The packages section (--only=packages): a MIME package and a zip of the same content, generated to disk, then
// read by each contender in a process of its own: peak memory (VmHWM) and MB/s, against a plain copy of the same
// bytes (the disk and page-cache limit) and a well-known streaming MIME parser (@zone-eu/mailsplit, nodemailer's).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Row } from './measure.js';

interface Child {
  ms: number;
  peak: number | null;
  maxrss: number;
  bytesOut?: number;
  problems?: number;
}

export function packagesSection(root: string, quick: boolean, log: (s: string) => void): { rows: Row[]; notes: string[] } {
  const child = path.join(root, 'dist/bench/packages-child.js');
  const run = (...args: string[]): Child => {
    const r = spawnSync(process.execPath, [child, ...args], { encoding: 'utf8', cwd: root, maxBuffer: 1 << 20 });
    if (r.status !== 0) throw new Error(`packages child ${args[0]} failed: ${r.stderr}`);
    return JSON.parse(r.stdout) as Child;
  };
  const bytes = quick ? 256e6 : 2e9;
  const dir = mkdtempSync(path.join(process.env.JDF_BENCH_DIR ?? os.tmpdir(), 'jdf-bench-pkg-'));
  const rows: Row[] = [];
  const notes: string[] = [];
  try {
    const mime = path.join(dir, 'job.mjm');
    const zip = path.join(dir, 'job.zip');
    log(`packages: writing a ${(bytes / 1e9).toFixed(2)} GB MIME package (4 base64 PDF parts) and a zip of the same content ...`);
    run('make-mime', mime, String(bytes));
    run('make-zip', zip, String(Math.floor((bytes * 3) / 4)));
    const size = statSync(mime).size;
    const zipSize = statSync(zip).size;
    const mbs = (b: number, c: Child) => b / 1e6 / (c.ms / 1000);
    const MB = (c: Child) => (c.peak ?? c.maxrss) / 1e6;
    // Each contender twice, alternating, after one warm-up read that brings the file into the page cache; the
    // faster run counts (the machine is shared).
    const best = (args: string[], times = 2): Child => {
      const all = Array.from({ length: times }, () => run(...args));
      return all.reduce((a, b) => (b.ms < a.ms ? b : a));
    };
    const idle = MB(run('idle', mime));
    notes.push(`packages: peak memory is each process's own VmHWM; an idle Node process here peaks at ${idle.toFixed(0)} MB of that.`);
    run('copy', mime);
    const copy = best(['copy', mime]);
    const ours = best(['validate', mime]);
    const split = best(['mailsplit', mime]);
    rows.push({ section: 'packages', name: `plain copy of the ${(size / 1e9).toFixed(2)} GB MIME package (read + write to /dev/null)`, value: mbs(size, copy), unit: 'MB/s' });
    rows.push({ section: 'packages', name: 'validate (stream, check base64, sniff, check) (ratio: / copy)', value: mbs(size, ours), unit: 'MB/s', ratio: mbs(size, ours) / mbs(size, copy) });
    rows.push({ section: 'packages', name: 'validate peak memory', value: MB(ours), unit: 'MB', target: '< 100 MB', pass: MB(ours) < 100 });
    rows.push({ section: 'packages', name: '@zone-eu/mailsplit split + decode (ratio: ours / it)', value: mbs(size, split), unit: 'MB/s', ratio: mbs(size, ours) / mbs(size, split) });
    rows.push({ section: 'packages', name: '@zone-eu/mailsplit peak memory', value: MB(split), unit: 'MB' });
    if (ours.problems) notes.push(`validate reported ${ours.problems} findings on the generated package (expected none).`);
    const unpack = best(['unpack', mime, dir], 1);
    rows.push({ section: 'packages', name: 'unpack MIME to disk (decode base64, write)', value: mbs(size, unpack), unit: 'MB/s' });
    rows.push({ section: 'packages', name: 'unpack MIME peak memory', value: MB(unpack), unit: 'MB', target: '< 100 MB', pass: MB(unpack) < 100 });
    run('copy', zip);
    const zcopy = best(['copy', zip]);
    const zours = best(['validate', zip]);
    const zy = best(['yauzl', zip]);
    const zunpack = best(['unpack', zip, dir], 1);
    rows.push({ section: 'packages', name: `plain copy of the ${(zipSize / 1e9).toFixed(2)} GB zip`, value: mbs(zipSize, zcopy), unit: 'MB/s' });
    rows.push({ section: 'packages', name: 'validate zip (central directory, tickets, first bytes)', value: zours.ms, unit: 'ms' });
    rows.push({ section: 'packages', name: 'validate zip peak memory', value: MB(zours), unit: 'MB', target: '< 100 MB', pass: MB(zours) < 100 });
    rows.push({ section: 'packages', name: 'unpack zip to disk (ratio: ours / yauzl read)', value: mbs(zipSize, zunpack), unit: 'MB/s', ratio: mbs(zipSize, zunpack) / mbs(zipSize, zy) });
    rows.push({ section: 'packages', name: 'unpack zip peak memory', value: MB(zunpack), unit: 'MB', target: '< 100 MB', pass: MB(zunpack) < 100 });
    rows.push({ section: 'packages', name: 'yauzl: read every entry, no write', value: mbs(zipSize, zy), unit: 'MB/s' });
    rows.push({ section: 'packages', name: 'yauzl peak memory', value: MB(zy), unit: 'MB' });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return { rows, notes };
}
