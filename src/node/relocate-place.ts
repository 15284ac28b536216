// relocate's last steps: everything staged in a new folder beside DIR, renamed into place at once, and with
// --move the sources removed, all or none; the manifest that says what went where (relocate.ts plans it).
import { randomBytes } from 'node:crypto';
import { chmod, mkdir, rename, rm, rmdir, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { CheckedFile } from './checked-file.js';
import { changedSince, copyCheckedSource, SourceChanged, stillTheCopiedFile, type Stamp } from './checked-source.js';

export interface ManifestEntry {
  from: string;
  to: string;
  /** The references (line:column) that name it. */
  references: string[];
}

export interface Manifest {
  tool: 'jdf-filespec relocate';
  mode: 'copy' | 'move';
  ticket: { from: string; to: string };
  files: ManifestEntry[];
  /** References that were not moved with their file, and why; the value is kept (made absolute if it was relative). */
  notMoved: Array<{ reference: string; value: string; reason: string }>;
  /** With --move: sources that could not be removed after the copy was in place. */
  leftInPlace?: Array<{ path: string; reason: string }>;
}

export class RelocateError extends Error {}

export const MANIFEST = 'jdf-filespec-relocate.json';

/** A source and the stamp of what was copied from it. */
export interface Copied {
  file: CheckedFile;
  stamp: Stamp;
}

/**
 * Staged beside DIR (same file system, so the last step is one rename), then renamed into place; on any
 * failure the staging folder is removed. Each file is copied from the descriptor of the file the walk found;
 * with --move, every source (the ticket too) must still be unchanged once all are staged, or nothing is placed.
 */
export async function stageAndPlace(places: { destParent: string; target: string }, layout: Map<string, string>, files: Map<string, CheckedFile>, copied: Copied[], ticket: { name: string; bytes: Uint8Array; mode: number; move: boolean }, manifest: Manifest): Promise<void> {
  const { destParent, target } = places;
  const staging = path.join(destParent, `.${path.basename(target)}.jdf-filespec-${process.pid}-${randomBytes(6).toString('hex')}.tmp`);
  await mkdir(staging, { mode: 0o700 });
  try {
    for (const [from, rel] of layout) {
      const into = path.join(staging, rel);
      await mkdir(path.dirname(into), { recursive: true });
      const file = files.get(from)!;
      copied.push({ file, stamp: await copyCheckedSource(file, into) });
    }
    await writeFile(path.join(staging, ticket.name), ticket.bytes, { flag: 'wx', mode: ticket.mode & 0o777 });
    await writeFile(path.join(staging, MANIFEST), JSON.stringify(manifest, null, 2) + '\n', { flag: 'wx' });
    if (ticket.move) await refuseChanged(copied);
    await chmod(staging, 0o755);
    // An empty DIR that exists is replaced by the rename (rmdir first: rename onto it is not portable).
    await rmdir(target).catch(() => undefined);
    await rename(staging, target);
  } catch (error) {
    await rm(staging, { recursive: true, force: true });
    throw error instanceof SourceChanged ? new RelocateError(`${error.message}; the sources are kept and nothing was moved`) : error;
  }
}

/** --move: a source that changed since it was copied (a file still being written) is never deleted; nor is any other. */
async function refuseChanged(copied: readonly Copied[]): Promise<void> {
  const changed: string[] = [];
  for (const c of copied) {
    const why = await changedSince(c.file, c.stamp);
    if (why !== null) changed.push(`${c.file.path} changed since it was copied (${why})`);
  }
  if (changed.length > 0) throw new RelocateError(`${changed.join('; ')}: it may still be being written; the sources are kept, the copy removed, and nothing was moved`);
}

/**
 * With --move, once the copy is in place: the sources removed, all or none. Each is looked at by name right
 * before (the walk inside --root reaches it, the same device, inode, size and mtime); if any is not the file
 * copied, none is removed. Those that stay are added to the manifest.
 */
export async function removeSources(copied: readonly Copied[], target: string, manifest: Manifest): Promise<void> {
  const left: Array<{ path: string; reason: string }> = [];
  for (const c of copied) {
    const why = await stillTheCopiedFile(c.file, c.stamp);
    if (why !== null) left.push({ path: c.file.path, reason: `changed after it was copied (${why}); no source was removed` });
  }
  if (left.length > 0) {
    const changed = new Set(left.map((l) => l.path));
    for (const c of copied) if (!changed.has(c.file.path)) left.push({ path: c.file.path, reason: 'kept: another source changed after it was copied, so no source was removed' });
  } else {
    for (const c of copied) {
      try {
        await unlink(c.file.path);
      } catch (error) {
        left.push({ path: c.file.path, reason: (error as NodeJS.ErrnoException).code ?? String(error) });
      }
    }
  }
  if (left.length > 0) {
    manifest.leftInPlace = left;
    await writeFile(path.join(target, MANIFEST), JSON.stringify(manifest, null, 2) + '\n');
  }
}
