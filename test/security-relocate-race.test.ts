// Issue 26, HIGH and MEDIUM-HIGH, and MEDIUM: check, then use by path. relocate --move --root R and pack --root R
// checked each source once, then copied (and deleted) it by name: a producer who can write one job folder inside
// R swapped it for a link to a folder outside R after the check, and relocate copied the root-only file from
// outside into the archive and deleted it; pack put it into the package. And relocate --move deleted a file
// still being written, losing what was written after the copy.
// The race is won every time, not by luck: the file system calls are wrapped in this process (the same module
// objects the code imports, kept in step by syncBuiltinESMExports), and the swap (or the write) happens at the
// first call that uses the source after the check, whichever call that is: copyFile and createReadStream (the
// old code), open (a descriptor). unpack the other way round: a folder it checked and made inside the output
// folder is swapped for a link before the next file is created in it.
import { appendFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import { syncBuiltinESMExports } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import yazl from 'yazl';
import { packJob } from '../src/node/package-pack.js';
import { unpackPackage } from '../src/node/package-unpack.js';
import { relocate } from '../src/node/relocate.js';

const SECRET = 'ROOT-ONLY SECRET BYTES, mode 0600';
const INSIDE = '%PDF-1.4 the job page, inside R..'; // as long as SECRET: a copy by path reads it whole

/** R/hot/job.jdf naming job/page.pdf; OUT/job/page.pdf, mode 0600, outside R. */
function job() {
  const base = realpathSync(mkdtempSync(path.join(tmpdir(), 'jfs-relocate-race-')));
  const root = path.join(base, 'R');
  const hot = path.join(root, 'hot');
  const folder = path.join(hot, 'job');
  const outside = path.join(base, 'OUT', 'job');
  mkdirSync(folder, { recursive: true });
  mkdirSync(outside, { recursive: true });
  mkdirSync(path.join(root, 'archive'));
  writeFileSync(path.join(folder, 'page.pdf'), INSIDE);
  writeFileSync(path.join(outside, 'page.pdf'), SECRET, { mode: 0o600 });
  const ticket = path.join(hot, 'job.jdf');
  const text = '<JDF Version="1.4"><ResourcePool><RunList ID="r1"><LayoutElement><FileSpec URL="job/page.pdf"/></LayoutElement></RunList></ResourcePool></JDF>\n';
  writeFileSync(ticket, text);
  return { base, root, hot, folder, outside, ticket, text, page: path.join(folder, 'page.pdf'), secret: path.join(outside, 'page.pdf') };
}

type Hooked = 'open' | 'copyFile' | 'rename';

/**
 * Wraps fs.promises.open, copyFile and rename and fs.createReadStream in this process. `before(path)` runs at the
 * first call on a path `matches` accepts, before the call goes on; `afterCopy(path)` once the first copy of such a
 * path is done (copyFile resolved, or the descriptor it was read through closed); `afterRename(to)` once a rename
 * to `to` is done. Returns the function that puts everything back.
 */
function intercept(matches: (p: string) => boolean, hooks: { before?: (p: string) => void; afterCopy?: (p: string) => void; afterRename?: (to: string) => void }): () => void {
  const saved = { open: fsp.open, copyFile: fsp.copyFile, rename: fsp.rename, createReadStream: fs.createReadStream };
  let fired = false;
  let copied = false;
  const first = (p: unknown): string | undefined => {
    const s = typeof p === 'string' ? p : p instanceof URL ? p.pathname : undefined;
    if (s === undefined || !matches(s)) return undefined;
    if (!fired) {
      fired = true;
      hooks.before?.(s);
    }
    return s;
  };
  const mutable = fsp as unknown as Record<Hooked, unknown>;
  mutable.open = async (p: any, ...rest: any[]) => {
    const hit = first(p);
    const handle = await (saved.open as any)(p, ...rest);
    if (hit !== undefined && hooks.afterCopy && !copied) {
      copied = true;
      const close = handle.close.bind(handle);
      handle.close = async () => {
        await close();
        hooks.afterCopy!(hit);
      };
    }
    return handle;
  };
  mutable.copyFile = async (from: any, ...rest: any[]) => {
    const hit = first(from);
    first(rest[0]);
    await (saved.copyFile as any)(from, ...rest);
    if (hit !== undefined && hooks.afterCopy && !copied) {
      copied = true;
      hooks.afterCopy(hit);
    }
  };
  mutable.rename = async (from: any, to: any) => {
    await saved.rename(from, to);
    if (typeof to === 'string') hooks.afterRename?.(to);
  };
  (fs as any).createReadStream = (p: any, ...rest: any[]) => {
    first(p);
    return (saved.createReadStream as any)(p, ...rest);
  };
  syncBuiltinESMExports();
  return () => {
    Object.assign(fsp, { open: saved.open, copyFile: saved.copyFile, rename: saved.rename });
    (fs as any).createReadStream = saved.createReadStream;
    syncBuiltinESMExports();
  };
}

/** The swap: the job folder renamed away (inside R) and a link to the folder outside R put in its place. */
const swap = (j: ReturnType<typeof job>) => () => {
  renameSync(j.folder, `${j.folder}.moved`);
  symlinkSync(j.outside, j.folder);
};

/** Every file under `dir` whose bytes hold `needle` (or its base64: a MIME package carries files so). */
function holding(dir: string, needle: string): string[] {
  if (!existsSync(dir)) return [];
  const found: string[] = [];
  const forms = [needle, Buffer.from(needle).toString('base64').slice(0, 24)];
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const file = path.join(entry.parentPath ?? (entry as any).path, entry.name);
    const text = readFileSync(file, 'latin1');
    if (forms.some((f) => text.includes(f))) found.push(file);
  }
  return found;
}

async function settle<T>(p: Promise<T>): Promise<{ value?: T; error?: Error }> {
  try {
    return { value: await p };
  } catch (error) {
    return { error: error as Error };
  }
}

test('relocate --move --root: a job folder swapped for a link after the check is refused; nothing outside is copied or deleted', async () => {
  const j = job();
  const dest = path.join(j.root, 'archive', '4711');
  const restore = intercept((p) => p.startsWith(j.folder + path.sep), { before: swap(j) });
  let outcome;
  try {
    outcome = await settle(relocate(j.ticket, { to: dest, mode: 'move', root: j.root }));
  } finally {
    restore();
  }
  try {
    assert.equal(readFileSync(j.secret, 'utf8'), SECRET, 'the file outside R is not deleted');
    assert.equal(holding(j.root, SECRET), [], 'no byte of the file outside R is copied into R');
    assert.ok(outcome.error, 'the move is refused');
    assert.match(outcome.error!.message, 'not the file that was checked');
    assert.not.ok(existsSync(dest), 'nothing is placed');
    assert.equal(readdirSync(path.dirname(dest)), [], 'no staging folder is left');
    assert.equal(readFileSync(j.ticket, 'utf8'), j.text, 'the ticket is not deleted');
    assert.equal(readFileSync(path.join(`${j.folder}.moved`, 'page.pdf'), 'utf8'), INSIDE, 'the job file is not deleted');
  } finally {
    rmSync(j.base, { recursive: true, force: true });
  }
});

test('relocate --root: the staging folder swapped for a link before a copy is written is refused; nothing is written outside', async () => {
  const j = job();
  const dest = path.join(j.root, 'archive', '4711');
  const elsewhere = path.join(j.base, 'root-only');
  mkdirSync(path.join(elsewhere, 'job'), { recursive: true });
  const staged = (p: string) => path.basename(path.dirname(path.dirname(p))).includes('.jdf-filespec-') && p.endsWith(path.join('job', 'page.pdf'));
  const restore = intercept(staged, {
    before: (p) => {
      const staging = path.dirname(path.dirname(p));
      renameSync(staging, `${staging}.moved`);
      symlinkSync(elsewhere, staging);
    },
  });
  let outcome;
  try {
    outcome = await settle(relocate(j.ticket, { to: dest, mode: 'copy', root: j.root }));
  } finally {
    restore();
  }
  try {
    assert.equal(readdirSync(path.join(elsewhere, 'job')), [], 'nothing is written outside');
    assert.ok(outcome.error, 'the copy is refused');
    assert.match(outcome.error!.message, 'replaced by a symbolic link');
    assert.not.ok(existsSync(dest));
  } finally {
    rmSync(j.base, { recursive: true, force: true });
  }
});

for (const format of ['mime', 'zip'] as const) {
  test(`pack --root --format ${format}: a job folder swapped for a link after the check is refused; the package never holds the file outside`, async () => {
    const j = job();
    const output = path.join(j.root, `job.${format === 'zip' ? 'zip' : 'mjm'}`);
    const restore = intercept((p) => p.startsWith(j.folder + path.sep), { before: swap(j) });
    let outcome;
    try {
      outcome = await settle(packJob(j.ticket, { output, format, root: j.root }));
    } finally {
      restore();
    }
    try {
      assert.equal(holding(j.root, SECRET), [], 'no byte of the file outside R is packed');
      assert.ok(outcome.error, 'the pack is refused');
      assert.match(outcome.error!.message, 'not the file that was checked', outcome.error!.message);
      assert.not.ok(existsSync(output), 'no package is written');
      assert.equal(readdirSync(j.root).filter((n) => n.endsWith('.tmp')), [], 'no temporary file is left');
      assert.equal(readFileSync(j.secret, 'utf8'), SECRET);
    } finally {
      rmSync(j.base, { recursive: true, force: true });
    }
  });
}

test('relocate --move: a source still being written after its copy is kept, the copy removed, nothing moved', async () => {
  const j = job();
  const dest = path.join(j.root, 'archive', '4711');
  const more = '\n% written after the copy';
  const restore = intercept((p) => p === j.page, { afterCopy: (p) => appendFileSync(p, more) });
  let outcome;
  try {
    outcome = await settle(relocate(j.ticket, { to: dest, mode: 'move', root: j.root }));
  } finally {
    restore();
  }
  try {
    assert.equal(readFileSync(j.page, 'utf8'), INSIDE + more, 'the growing source is kept, whole');
    assert.ok(outcome.error, 'the move fails');
    assert.match(outcome.error!.message, `${j.page} changed since it was copied`);
    assert.match(outcome.error!.message, 'nothing was moved');
    assert.not.ok(existsSync(dest), 'the copy is removed');
    assert.equal(readdirSync(path.dirname(dest)), [], 'no staging folder is left');
    assert.equal(readFileSync(j.ticket, 'utf8'), j.text, 'the ticket is kept');
  } finally {
    rmSync(j.base, { recursive: true, force: true });
  }
});

test('relocate --move: a source written to while the copy is placed is kept, and so is every other source', async () => {
  const j = job();
  const dest = path.join(j.root, 'archive', '4711');
  const more = '\n% written while the copy was placed';
  const restore = intercept(() => false, { afterRename: (to) => to === dest && appendFileSync(j.page, more) });
  let outcome;
  try {
    outcome = await settle(relocate(j.ticket, { to: dest, mode: 'move', root: j.root }));
  } finally {
    restore();
  }
  try {
    assert.equal(readFileSync(j.page, 'utf8'), INSIDE + more, 'the source written to is kept, whole');
    assert.equal(readFileSync(j.ticket, 'utf8'), j.text, 'no other source is deleted either');
    assert.ok(outcome.value, outcome.error?.message);
    const left = outcome.value!.leftInPlace ?? [];
    assert.equal(left.map((l) => l.path).sort(), [j.page, j.ticket].sort());
    assert.match(left.find((l) => l.path === j.page)!.reason, 'changed after it was copied');
    assert.equal(JSON.parse(readFileSync(path.join(dest, 'jdf-filespec-relocate.json'), 'utf8')).leftInPlace, left, 'the manifest says so');
  } finally {
    rmSync(j.base, { recursive: true, force: true });
  }
});

/** A zip of sub/a.pdf and sub/b.pdf, written with yazl. */
async function zipOfTwo(file: string): Promise<void> {
  const zip = new yazl.ZipFile();
  zip.addBuffer(Buffer.from('%PDF a'), 'sub/a.pdf');
  zip.addBuffer(Buffer.from('%PDF b'), 'sub/b.pdf');
  zip.end();
  const chunks: Buffer[] = [];
  for await (const chunk of zip.outputStream) chunks.push(chunk as Buffer);
  writeFileSync(file, Buffer.concat(chunks));
}

/** OUT/sub swapped for a link to `elsewhere` right before sub/b.pdf is created; unpack's outcome. */
async function unpackSwapped(base: string, elsewhere: string) {
  const input = path.join(base, 'job.zip');
  await zipOfTwo(input);
  const out = path.join(base, 'OUT');
  const sub = path.join(out, 'sub');
  const restore = intercept((p) => p === path.join(sub, 'b.pdf'), {
    before: () => {
      renameSync(sub, `${sub}.moved`);
      symlinkSync(elsewhere, sub);
    },
  });
  try {
    return await settle(unpackPackage(input, out));
  } finally {
    restore();
  }
}

test('unpack: a folder it made, swapped for a link before the next file, is not written through', async () => {
  const base = realpathSync(mkdtempSync(path.join(tmpdir(), 'jfs-unpack-race-')));
  const elsewhere = path.join(base, 'root-only');
  mkdirSync(elsewhere);
  try {
    const outcome = await unpackSwapped(base, elsewhere);
    assert.equal(readdirSync(elsewhere), [], 'nothing is created outside the output folder');
    assert.ok(outcome.error, 'unpack is refused');
    assert.match(outcome.error!.message, 'replaced by a symbolic link');
  } finally {
    rmSync(base, { recursive: true, force: true });
  }
});

test('unpack: undoing a failed unpack never removes a file through a folder swapped for a link', async () => {
  const base = realpathSync(mkdtempSync(path.join(tmpdir(), 'jfs-unpack-race-')));
  const elsewhere = path.join(base, 'root-only');
  mkdirSync(elsewhere);
  // b.pdf there makes the exclusive create fail, so unpack undoes what it wrote: sub/a.pdf, by then a name in elsewhere.
  writeFileSync(path.join(elsewhere, 'a.pdf'), 'precious');
  writeFileSync(path.join(elsewhere, 'b.pdf'), 'precious too');
  try {
    const outcome = await unpackSwapped(base, elsewhere);
    assert.ok(outcome.error, 'unpack fails');
    assert.equal(readFileSync(path.join(elsewhere, 'a.pdf'), 'utf8'), 'precious', 'the file outside is not removed');
    assert.equal(readFileSync(path.join(elsewhere, 'b.pdf'), 'utf8'), 'precious too');
  } finally {
    rmSync(base, { recursive: true, force: true });
  }
});

test.run();
