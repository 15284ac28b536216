// The one home of drive letters (src/fileurl/drive.ts), against the appendix's tables and RFC 8089 appendix E
// (test/data/jdf-appendix-examples.json): what each form names, and the folding that makes two spellings one.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import {
  fileUrlDriveIndex, foldDriveSegment, foldFileUrlDrive, hasDriveSegment, isDriveAuthority, isDriveHost, isDriveLetter,
  isDriveScheme, isWindowsDriveAt, startsWithDrivePath,
} from '../src/fileurl/drive.js';
import { driveSegmentLength } from '../src/uri/resolve.js';
import { parseAuthority, parseReference } from '../src/uri/parse.js';
import { loadData } from './helpers.js';

const data = loadData('jdf-appendix-examples.json');
const bad = (n: number): string => data.bad.cases.find((c: { n: number }) => c.n === n).url;
const good = (n: number): string => data.good.cases.find((c: { n: number }) => c.n === n).url;

test('RFC 8089 E.2.2: the "|" forms fold to the ":" form the appendix gives as their update', () => {
  const updates = data.rfc8089.nonstandard.filter((c: { appendix: string; update?: string }) => c.appendix === 'E.2.2');
  assert.is(updates.length, 3);
  for (const { url, update } of updates) {
    const [ref, want] = [parseReference(url), parseReference(update)];
    // With or without an authority, the path's drive segment folds; a URL with an authority folds whole.
    const path = ref.path.startsWith('/') ? ref.path : `/${ref.path}`;
    const wantPath = want.path.startsWith('/') ? want.path : `/${want.path}`;
    assert.is(foldDriveSegment(path), wantPath, url);
    if (ref.authority !== undefined) assert.is(foldFileUrlDrive(url), update, url);
  }
});

test('a file URL with an authority: where its drive letter is, folded to lower case and ":"', () => {
  // Table 2 example 4: file://localhost/c:/folder/a.pdf, the "c" at index 17 ("file://localhost/" is 17 long).
  assert.is(fileUrlDriveIndex(good(4)), 17);
  assert.is(foldFileUrlDrive(good(4)), good(4));
  assert.is(foldFileUrlDrive('FILE:///C|/Jobs/a.pdf'), 'FILE:///c:/Jobs/a.pdf');
  // Table 4 example 26 (no drive) and example 28 (the drive escaped: only a decoding consumer sees it).
  assert.is(fileUrlDriveIndex(bad(26)), -1);
  assert.is(fileUrlDriveIndex(bad(28)), -1);
  assert.ok(hasDriveSegment(parseReference(bad(28)).path));
  // E.2: file:c:/path has no authority, so no "file://" drive.
  assert.is(fileUrlDriveIndex('file:c:/path/to/file'), -1);
});

test('Table 4 example 22: "c:" taken as the host is a drive letter, as an authority and as a host', () => {
  const url = parseReference(bad(22));
  assert.is(url.authority, 'c:');
  assert.ok(isDriveAuthority(url.authority!));
  assert.ok(isDriveHost(parseAuthority(url.authority!).host));
  for (const host of ['c', 'C', 'c:', 'c|']) assert.ok(isDriveHost(host), host);
  for (const host of ['', 'cc', 'localhost', '1', 'c:/']) assert.not.ok(isDriveHost(host), host);
});

test('a drive letter alone, a drive scheme (Table 3 "g:h"), a Windows path\'s drive (draft 3.1, Table 5, Table 6)', () => {
  for (const s of ['c:', 'C|', 'z:']) assert.ok(isDriveLetter(s), s);
  for (const s of ['c', 'c:/', 'cc:', '1:', '%3A', 'c%3A']) assert.not.ok(isDriveLetter(s), s);
  assert.ok(isDriveScheme(parseReference(data.rfc2396Normal.cases[0].ref).scheme!));
  assert.not.ok(isDriveScheme('file'));
  const windows = data.rfc8089.pathToUri.cases.filter((c: { platform: string }) => c.platform === 'windows' || c.platform === 'unc');
  assert.equal(windows.map((c: { path: string }) => isWindowsDriveAt(c.path)), [true, true, false]);
  // A Mac volume "HD1:bar" and a Unix name "foo:" are not drives; nor is the URL's old form "c|" in a path.
  for (const c of [...data.mac.cases, ...data.unix.cases].filter((x: { path: string | null }) => x.path !== null)) assert.not.ok(isWindowsDriveAt(c.path), c.path);
  assert.not.ok(isWindowsDriveAt('c|\\x'));
});

test('a Windows path that starts on a drive (RFC 8089 E.2, Table 5), and a path whose first segment is a drive', () => {
  const windows = data.rfc8089.pathToUri.cases.filter((c: { platform: string }) => c.platform === 'windows' || c.platform === 'unc');
  assert.equal(windows.map((c: { path: string }) => startsWithDrivePath(c.path)), [true, true, false]);
  for (const s of ['c:', 'C|', 'z:/Jobs', 'Z|\\Jobs']) assert.ok(startsWithDrivePath(s), s);
  for (const s of ['c:Jobs', 'cc:\\x', '1:\\x', '*:\\x', 'c%3A\\x', '\\\\srv\\share']) assert.not.ok(startsWithDrivePath(s), s);
  // E.2.2: "/c|" is the drive segment "/c:" too; a segment that only starts like one is not.
  const lengths = ['/c:', '/C|/x', '/c:/', 'c:/x', '/c:x', '/cc:/x', '/c%3A/x', ''].map(driveSegmentLength);
  assert.equal(lengths, [3, 3, 3, 0, 0, 0, 0, 0]);
});

test.run();
