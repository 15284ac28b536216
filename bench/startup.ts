// Cold start: wall time of fresh processes, each command against a bare `node -e 0` started the same way.
// Runs alternate (node -e 0, then each command) so that load on the machine falls on all of them alike.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Row } from './measure.js';

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

function wall(args: string[], cwd: string): number {
  const start = process.hrtime.bigint();
  const r = spawnSync(process.execPath, args, { cwd, stdio: 'ignore' });
  if (r.error) throw r.error;
  return Number(process.hrtime.bigint() - start) / 1e6;
}

/** The file an install runs: package.json's bin (the bundle that npm run build writes to dist/bin/). */
export function installedCli(root: string): string {
  const bin = (JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { bin: Record<string, string> }).bin['jdf-filespec']!;
  return path.join(root, bin);
}

/** Median wall time of `rounds` fresh processes per command, and its ratio to `node -e 0` (target: 2x or less). */
export function startupSection(root: string, rounds: number): Row[] {
  const main = installedCli(root);
  const commands: Array<[string, string[]]> = [
    ['node -e 0', ['-e', '0']],
    ['jdf-filespec --version', [main, '--version']],
    ['jdf-filespec --help', [main, '--help']],
    ['jdf-filespec check <url>', [main, 'check', 'file:///c:/my%20docs/a.pdf']],
    ['jdf-filespec resolve <ref> --base <uri>', [main, 'resolve', '../a.pdf', '--base', 'file:///c:/jobs/x/']],
    ['jdf-filespec validate <one ticket>', [main, 'validate', 'samples/hot-folder.jdf', '--exit-zero']],
    ['jdf-filespec fix <one ticket> --dry-run', [main, 'fix', 'samples/hot-folder.jdf', '--dry-run']],
    ['jdf-filespec to-path <url>', [main, 'to-path', 'file://fileserver/Jobs/a%20b.pdf', '--platform', 'windows']],
    ['jdf-filespec from-path <path>', [main, 'from-path', '/srv/a b.pdf']],
    // The commands that write files or run on: their --help, which loads the command as a run would begin.
    ['jdf-filespec rebase --help', [main, 'rebase', '--help']],
    ['jdf-filespec relocate --help', [main, 'relocate', '--help']],
    ['jdf-filespec pack --help', [main, 'pack', '--help']],
    ['jdf-filespec unpack --help', [main, 'unpack', '--help']],
    ['jdf-filespec watch --help', [main, 'watch', '--help']],
  ];
  const times = new Map<string, number[]>(commands.map(([name]) => [name, []]));
  for (const [, args] of commands) wall(args, root); // warm the file cache
  for (let i = 0; i < rounds; i++) for (const [name, args] of commands) times.get(name)!.push(wall(args, root));
  const bare = median(times.get('node -e 0')!);
  return commands.map(([name]) => {
    const ms = median(times.get(name)!);
    return name === 'node -e 0'
      ? { section: 'startup', name, value: ms, unit: 'ms' }
      : { section: 'startup', name, value: ms, unit: 'ms', ratio: ms / bare, target: '<= 2x node -e 0', pass: ms / bare <= 2 };
  });
}
