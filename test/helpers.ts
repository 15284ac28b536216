import { spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/** Reads a JSON file from test/data (copied spec data; see test/data/ORIGIN.md). */
export function loadData<T = any>(name: string): T {
  return JSON.parse(readFileSync(new URL(`../../test/data/${name}`, import.meta.url), 'utf8')) as T;
}

export const projectRoot = new URL('../../', import.meta.url);

/** An independent oracle: a Python 3 `script` given `input` as JSON on its standard input, its standard output read as JSON. */
export function pythonJson<T>(script: string, input: unknown): T {
  const run = spawnSync('python3', ['-c', script], { input: JSON.stringify(input), encoding: 'utf8' });
  if (run.status !== 0) throw new Error(`python3 exited with ${run.status}: ${run.stderr}`);
  return JSON.parse(run.stdout) as T;
}

const made: string[] = [];

/** A new folder in the temporary folder (mkdtemp, mode 0700); removeTempFolders removes it and all it holds. */
export function tempFolder(prefix: string): string {
  const folder = mkdtempSync(path.join(tmpdir(), prefix));
  made.push(folder);
  return folder;
}

/** Removes every folder tempFolder made, read-only ones and their contents too: a suite's `test.after`. */
export function removeTempFolders(): void {
  for (const folder of made.splice(0)) removeTree(folder);
}

/** rm -rf, after giving its owner back the rights a test took away (a folder without write or search). */
export function removeTree(folder: string): void {
  const open = (dir: string): void => {
    try {
      chmodSync(dir, 0o700);
      for (const e of readdirSync(dir, { withFileTypes: true })) if (e.isDirectory()) open(path.join(dir, e.name));
    } catch {
      // gone already, or not ours: rmSync says what it cannot remove
    }
  };
  open(folder);
  rmSync(folder, { recursive: true, force: true });
}
