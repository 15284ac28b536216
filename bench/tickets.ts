// The tickets of a corpus folder, in the order the corpus section reads them, and where the shared corpus is.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

/** The tickets of the folder: the manifest's list when there is one, else every file under it. */
export function ticketsIn(dir: string): string[] {
  const manifest = path.join(dir, 'manifest.json');
  if (existsSync(manifest)) return (JSON.parse(readFileSync(manifest, 'utf8')) as { files: Array<{ stored: string }> }).files.map((f) => path.join(dir, f.stored));
  const out: string[] = [];
  const walk = (d: string) => {
    for (const name of readdirSync(d).sort()) {
      const p = path.join(d, name);
      if (statSync(p).isDirectory()) walk(p);
      else out.push(p);
    }
  };
  walk(dir);
  return out;
}

/** ../shared/corpus/tickets beside the project, or beside a folder above it (as from a git worktree). */
export function sharedCorpus(root: string): string {
  for (let dir = root; ; dir = path.dirname(dir)) {
    const candidate = path.resolve(dir, '../shared/corpus/tickets');
    if (existsSync(candidate) || path.dirname(dir) === dir) return existsSync(candidate) ? candidate : path.resolve(root, '../shared/corpus/tickets');
  }
}
