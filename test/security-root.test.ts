// Issue 20, MEDIUM and LOW: --root. A path is followed as the operating system follows it ("sub/../x" where sub
// is a link goes up from the link's target), nothing outside the root is looked at, and after the look the
// path must still be inside (a link swapped in between makes it outside-root). "..foo.pdf" is a plain name; a
// root named through a symbolic link is the same root; --map prefixes match on segment boundaries.
import { createHash } from 'node:crypto';
import { mkdirSync, realpathSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { resolveInside, stillInside } from '../src/node/confine.js';
import { checkIntegrity } from '../src/node/integrity.js';
import { checkLocalFiles, type LocalFileOptions } from '../src/node/local-files.js';
import { validateTicket } from '../src/index.js';
import { removeTempFolders, tempFolder } from './helpers.js';

const base = realpathSync(tempFolder('jfs-secroot-'));
const root = path.join(base, 'root');
const out = path.join(base, 'out');
mkdirSync(path.join(root, 'jobs'), { recursive: true });
mkdirSync(path.join(out, 'inner'), { recursive: true });
writeFileSync(path.join(out, 'secret.pdf'), 'not yours');
writeFileSync(path.join(root, 'jobs', 'a.pdf'), '%PDF');
writeFileSync(path.join(root, '..foo.pdf'), '%PDF');
symlinkSync(path.join(out, 'inner'), path.join(root, 'sub')); // a link that leaves the root
symlinkSync('sub/../secret.pdf', path.join(root, 'evil')); // lexically root/secret.pdf; really out/secret.pdf
symlinkSync('jobs/a.pdf', path.join(root, 'good')); // a link that stays inside
symlinkSync(root, path.join(base, 'root-link')); // the root, named through a link

async function codes(directory: string, urls: string[], options: Partial<LocalFileOptions> = {}): Promise<Record<string, string[]>> {
  const text = `<JDF Version="1.4"><ResourcePool><RunList Directory="${directory}">${urls.map((u) => `<FileSpec URL="${u}"/>`).join('')}</RunList></ResourcePool></JDF>`;
  const report = validateTicket(text, { platform: 'unix' });
  await checkLocalFiles(report, { checkExists: true, maps: [], root, ...options });
  const keep = new Set(['outside-root', 'file-missing', 'not-a-file', 'not-checked', 'case-mismatch']);
  return Object.fromEntries(report.references.filter((r) => r.attribute === 'URL').map((r) => [r.value, r.findings.map((f) => f.code).filter((c) => keep.has(c))]));
}

const rootUrl = pathToFileURL(root).href + '/';

test('root: a link to "sub/../x" where sub leaves the root is outside-root', async () => {
  assert.equal(await codes(rootUrl, ['evil']), { evil: ['outside-root'] });
});

test('root: "sub/%2E%2E/secret.pdf" is walked through the link, not cut short on paper', async () => {
  assert.equal(await codes(rootUrl, ['sub/%2E%2E/secret.pdf']), { 'sub/%2E%2E/secret.pdf': ['outside-root'] });
});

test('root: links that stay inside, and plain files, are fine; a missing file is file-missing', async () => {
  assert.equal(await codes(rootUrl, ['good', 'jobs/a.pdf', 'jobs/none.pdf']), { good: [], 'jobs/a.pdf': [], 'jobs/none.pdf': ['file-missing'] });
});

test('root: "..foo.pdf" is a plain name inside the root', async () => {
  assert.equal(await codes(rootUrl, ['..foo.pdf']), { '..foo.pdf': [] });
});

test('root: a root named through a symbolic link is the same root', async () => {
  const viaLink = pathToFileURL(path.join(base, 'root-link')).href + '/';
  assert.equal(await codes(viaLink, ['jobs/a.pdf', 'evil'], { root: path.join(base, 'root-link') }), { 'jobs/a.pdf': [], evil: ['outside-root'] });
  assert.equal(await codes(rootUrl, ['jobs/a.pdf'], { root: path.join(base, 'root-link') }), { 'jobs/a.pdf': [] });
});

test('root: the walk never leaves the root; an absolute link back into it is followed', async () => {
  const r = { named: root, real: root };
  assert.equal(await resolveInside(r, path.join(root, 'sub', 'x')), { outside: ' through a symbolic link' });
  assert.equal(await resolveInside(r, path.join(root, 'good')), { path: path.join(root, 'jobs', 'a.pdf') });
  assert.equal(await resolveInside(r, path.join(base, 'other')), { outside: '' });
});

test('root: after the look, a component swapped for a link to outside is caught', async () => {
  const r = { named: root, real: root };
  // What the walk returned, before the swap: root/jobs/a.pdf. Now "swapped" is a link where the walk saw a folder.
  symlinkSync(out, path.join(root, 'swapped'));
  assert.is(await stillInside(r, path.join(root, 'jobs', 'a.pdf')), true);
  assert.is(await stillInside(r, path.join(root, 'swapped', 'secret.pdf')), false);
  assert.is(await stillInside(r, path.join(root, 'swapped', 'missing.pdf')), false);
  assert.is(await stillInside(r, path.join(root, 'jobs', 'missing.pdf')), true);
});

// Issue 20: the integrity checks (FileSize, MimeType, page count, MD5) opened the file again by its path, after the
// walk: a link swapped in between was followed, and file-size-mismatch printed the size of a file outside. Made
// deterministic by running the integrity checks again after the swap: they must read the file the look found.
const inside = '%PDF-1.4 inside\n';
const outsideBytes = 'outside the root, and longer\n';
const md5 = (s: string) => createHash('md5').update(s).digest('hex');

async function swappedIntegrity(folder: string, swap: () => void): Promise<Array<[string, unknown]>> {
  mkdirSync(path.join(root, folder));
  writeFileSync(path.join(root, folder, 'a.pdf'), inside);
  const facts = `FileSize="${inside.length}" MimeType="application/pdf" CheckSum="${md5(inside)}"`;
  const text = `<JDF Version="1.4"><ResourcePool><RunList Directory="${rootUrl}${folder}/"><FileSpec URL="a.pdf" ${facts}/></RunList></ResourcePool></JDF>`;
  const report = validateTicket(text, { platform: 'unix' });
  await checkLocalFiles(report, { checkExists: true, maps: [], root, verifyChecksums: true });
  const ref = report.references.find((r) => r.attribute === 'URL')!;
  assert.equal(ref.findings.map((f) => f.code), [], 'clean before the swap');
  swap();
  ref.findings.length = 0;
  await checkIntegrity(report, { verifyChecksums: true });
  return ref.findings.map((f) => [f.code, f.args ?? {}]);
}

test('root: the integrity checks never read through a last component swapped for a link to outside', async () => {
  writeFileSync(path.join(out, 'long.pdf'), outsideBytes);
  const found = await swappedIntegrity('swap-file', () => {
    rmSync(path.join(root, 'swap-file', 'a.pdf'));
    symlinkSync(path.join(out, 'long.pdf'), path.join(root, 'swap-file', 'a.pdf'));
  });
  assert.equal(found.map(([code]) => code), ['outside-root']);
  assert.not.match(JSON.stringify(found), String(outsideBytes.length));
});

test('root: the integrity checks never read through a folder swapped for a link to outside', async () => {
  mkdirSync(path.join(out, 'folder'));
  writeFileSync(path.join(out, 'folder', 'a.pdf'), outsideBytes);
  const found = await swappedIntegrity('swap-folder', () => {
    renameSync(path.join(root, 'swap-folder'), path.join(root, 'swap-folder-was'));
    symlinkSync(path.join(out, 'folder'), path.join(root, 'swap-folder'));
  });
  assert.equal(found.map(([code]) => code), ['outside-root']);
  assert.not.match(JSON.stringify(found), String(outsideBytes.length));
});

test('map: a prefix without "/" matches on segment boundaries only', async () => {
  const maps = [{ prefix: 'file://fileserver/Jobs', folder: path.join(root, 'jobs') }];
  assert.equal(await codes('file://fileserver/', ['JobsSecret/a.pdf', 'Jobs/a.pdf'], { maps }), { 'JobsSecret/a.pdf': ['not-checked'], 'Jobs/a.pdf': [] });
});

test.after(removeTempFolders);
test.run();
