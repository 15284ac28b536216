// The "string join" reading of consumers-disagree is JDFLibJ's UrlUtil.getURLWithDirectory. Expected values are
// those of CIP4's own test of it (JDFLibJ UrlUtilTest.testGetURLWithDirectory) and the appendix's XML example.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import fc from 'fast-check';
import { differing, disagreement, disagreementOf, mayDisagree, readings, stringJoin } from '../src/ticket/readings.js';

const CIP4_CASES: Array<[string, string, string]> = [
  ['File:/dir', 'File://a.b', 'File://a.b'], // a URL with a scheme is taken as it is
  ['File://dir/', 'a.b', 'File://dir/a.b'],
  ['File://dir', 'a.b', 'File://dir/a.b'], // the '/' is added
  ['File://dir/', '/a.b', 'File://a.b'], // an absolute path keeps the scheme only: its first segment is the host
  ['File://dir', '/a.b', 'File://a.b'],
  ['File://dir/', '//a.b', 'File://a.b'],
];

for (const [directory, url, expected] of CIP4_CASES) {
  test(`string join: ${directory} + ${url} is ${expected} (JDFLibJ)`, () => assert.is(stringJoin(directory, url), expected));
}

test('string join: /abs/x.pdf against file://host/dir is file://abs/x.pdf', () => {
  assert.is(stringJoin('file://host/dir', '/abs/x.pdf'), 'file://abs/x.pdf');
});

test("string join: '..' and a Directory without '/' (the appendix's example) and file:/// kept", () => {
  assert.is(stringJoin('file:///c:/DownloadDir/Title-J626103', '../F-22/job001.pdf'), 'file:///c:/DownloadDir/F-22/job001.pdf');
  assert.is(stringJoin('file:///c:/jobs/', './a/./b//c.pdf'), 'file:///c:/jobs/a/b/c.pdf');
});

// disagreementOf works out once per base what plain names under it come to; disagreement resolves each reading.
const baseSegment = fc.constantFrom('SheetViewables', 'a.b', '..', '.', '', 'x%20y', 'M%C3%BCller', 'c:', 'C|', 'ü', 'a b', 'localhost');
const baseStart = fc.constantFrom('file:///', 'file://HEIPC83231/', 'file://localhost/', 'FILE://Srv/', 'file:/', 'file:', 'file:////srv/', 'http://h:8080/', 'cid:', '', '/');
const someBase = fc.tuple(baseStart, fc.array(baseSegment, { maxLength: 4 }), fc.constantFrom('', '/', '?q', '#f')).map(([s, segs, end]) => s + segs.join('/') + end);
const plainSegment = fc.tuple(fc.constantFrom('a', 'Z', '0', '-', '_', '~'), fc.array(fc.constantFrom('a', '9', '.', '..', '-', '~'), { maxLength: 4 })).map(([h, t]) => h + t.join(''));
const plainName = fc.array(plainSegment, { minLength: 1, maxLength: 3 }).map((s) => s.join('/'));
const nameChar = fc.constantFrom('a', 'Z', '0', '-', '_', '~', '.', '/', '..', ':', '%20', ' ', '\\', 'c:', 'ü', '?', '#');
const someName = fc.oneof(plainName, fc.array(nameChar, { minLength: 1, maxLength: 10 }).map((a) => a.join('')), fc.constantFrom('p0000001.pdf', 'pages/p1.pdf', 'x', 'y-z/w~0.v', 'a..b', 'CON', 'pages\\p 1.pdf', '\\\\srv\\share\\a.pdf', 'C:\\Jobs\\a.pdf', '..\\a.pdf', 'a\\b?c'));
test('disagreementOf gives what disagreement gives, on plain names and others, under any base', () => {
  fc.assert(fc.property(someName, someBase, fc.boolean(), (value, base, withJoin) => {
    assert.equal(disagreementOf(value, base, withJoin), disagreement(value, base, withJoin));
  }), { numRuns: Number(process.env.FC_RUNS) || 20_000 });
});

// The rule passes the value trimmed (white space around it is a finding of its own). Escapes and other characters
// are left to the value's own shapes; a plain name (segments of unreserved characters, none starting with ".") must
// never be passed over.
test('mayDisagree passes over no plain name whose readings name different files', () => {
  fc.assert(fc.property(plainName, someBase, fc.boolean(), (value, base, withJoin) => {
    if (differing(readings(value, base, withJoin)) !== null) assert.ok(mayDisagree(value, base), `${value} against ${base}`);
  }), { numRuns: Number(process.env.FC_RUNS) || 20_000 });
});

test('disagreement gives what comparing every reading gives (a backslash in the path is taken as settling it)', () => {
  fc.assert(fc.property(someName, someBase, fc.boolean(), (value, base, withJoin) => {
    fc.pre(mayDisagree(value, base));
    assert.equal(disagreement(value, base, withJoin), differing(readings(value, base, withJoin)));
  }), { numRuns: Number(process.env.FC_RUNS) || 20_000 });
});

test('disagreementOf under the Directory Prinect writes without its "/": the four readings of each name', () => {
  const base = 'file://HEIPC83231/PTJobs/Jobs/4711/SheetViewables';
  assert.equal(disagreementOf('p1.pdf', base, true), [
    { consumer: 'strict RFC 3986', href: 'file://HEIPC83231/PTJobs/Jobs/4711/p1.pdf' },
    { consumer: 'RFC 8089 E.2.1', href: 'file://HEIPC83231/PTJobs/Jobs/4711/p1.pdf' },
    { consumer: 'WHATWG URL', href: 'file://heipc83231/PTJobs/Jobs/4711/p1.pdf' },
    { consumer: 'string join', href: 'file://HEIPC83231/PTJobs/Jobs/4711/SheetViewables/p1.pdf' },
  ]);
  assert.is(disagreementOf('p1.pdf', base + '/', true), null);
});

test.run();
