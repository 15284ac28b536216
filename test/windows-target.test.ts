// windowsTarget (src/ticket/windows-reading.ts) on a drive path: the drive, ":\" and the names between separators,
// "." dropped, ".." removing the name before it (never the drive), case-folded (RFC 8089 E.2, E.2.2). The oracle
// here is that statement written with split, filter and join, on generated file URLs and near misses (a drive
// written "|", a letter that is not ASCII, a name of two characters that is no drive).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import fc from 'fast-check';
import { windowsTarget } from '../src/ticket/windows-reading.js';

function oracle(uri: string): string | null | undefined {
  const names: string[] = [];
  for (const n of uri.slice('file://'.length).split(/[\\/]/)) {
    if (n === '' || n === '.') continue;
    if (n === '..') {
      if (names.length > 1) names.pop();
    } else names.push(n);
  }
  const drive = /^([A-Za-z])[:|]$/.exec(names[0] ?? '');
  return drive === null ? undefined : `${drive[1]}:\\${names.slice(1).join('\\')}`.toLowerCase();
}

const first = fc.constantFrom('c:', 'C|', 'z:', 'Z|', 'cc', 'c;', '@:', '[:', '`|', '{:', 'ć:', 'C:x', 'c', '..', '.');
const name = fc.constantFrom('Jobs', 'a', 'A B', 'ü', '.', '..', '', 'x.pdf', 'c:', 'Ä', 'İ');
const uri = fc.tuple(first, fc.array(fc.tuple(fc.constantFrom('/', '\\', '//'), name), { maxLength: 5 }), fc.constantFrom('', '/', '\\'))
  .map(([drive, rest, end]) => 'file:///' + drive + rest.map(([sep, n]) => sep + n).join('') + end);

test('windowsTarget names the drive path the spec statement names', () => {
  fc.assert(fc.property(uri, (u) => assert.is(windowsTarget(u), oracle(u), u)), { numRuns: 20_000, seed: 20261127 });
});

test('a drive path and its near misses', () => {
  assert.is(windowsTarget('file:///C:/Jobs/4711/p0000001.pdf'), 'c:\\jobs\\4711\\p0000001.pdf');
  assert.is(windowsTarget('file:///C:\\Jobs\\4711\\p0000001.pdf'), 'c:\\jobs\\4711\\p0000001.pdf');
  assert.is(windowsTarget('file:///c|/a/../b/./c'), 'c:\\b\\c');
  assert.is(windowsTarget('file:///c:'), 'c:\\');
  assert.is(windowsTarget('file:///cc/a'), undefined);
  assert.is(windowsTarget('file:///@:/a'), undefined);
  assert.is(windowsTarget('file:///ć:/a'), undefined);
});

test.run();
