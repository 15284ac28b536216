// What the bundle in dist/bin/ was made from: every file esbuild read (its metafile's inputs), the bundle script,
// yargs' English strings and esbuild's version, each with its SHA-256, and the files it made, in
// dist/.bundle-inputs.json (outside dist/bin/, which the package ships), with the sources in each file made (test/startup). `npm run build` bundles again only when
// one of those inputs changed or a file it made is gone (bundle-if-changed.ts).
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

interface Stamp {
  inputs: Record<string, string>;
  outputs: string[];
  /** Each file the bundle made (by name) and the sources esbuild put into it (its metafile's paths). */
  sources?: Record<string, string[]>;
}

const stampFile = (outdir: string) => path.join(outdir, '..', '.bundle-inputs.json');
const sha256 = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex');

/** Records inputs (files, absolute or relative to the working folder) and the outputs' names. */
export function writeStamp(outdir: string, inputs: Iterable<string>, outputs: Iterable<string>, sources: Record<string, string[]>): void {
  const files = [...new Set([...inputs].map((f) => path.resolve(f)))].filter((f) => existsSync(f)).sort();
  const stamp: Stamp = { inputs: Object.fromEntries(files.map((f) => [f, sha256(f)])), outputs: [...outputs].map((f) => path.relative(outdir, f)).sort(), sources };
  writeFileSync(stampFile(outdir), JSON.stringify(stamp, null, 1) + '\n');
}

/** Whether outdir holds every file the last bundle made, from inputs that have not changed since. */
export function upToDate(outdir: string): boolean {
  let stamp: Stamp;
  try {
    stamp = JSON.parse(readFileSync(stampFile(outdir), 'utf8')) as Stamp;
  } catch {
    return false;
  }
  return stamp.outputs.every((f) => existsSync(path.join(outdir, f))) && Object.entries(stamp.inputs).every(([f, hash]) => existsSync(f) && sha256(f) === hash);
}
