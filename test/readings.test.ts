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

// mayDisagree passes over a value only when comparing every reading would find them alike: on names of every
// shape, plain, escaped, with the characters one consumer escapes and another keeps, and with every kind of special
// character (dot segments written or escaped, ":", "|", "?", "#", "\\", tabs, U+FEFF, surrogates, a trailing "/").
const anyChar = fc.constantFrom('a', 'Z', '0', '-', '_', '~', '.', '/', '..', ':', '%20', '%2e', '%2E', '%2f', '%FF', '%C3', '%BC', '%41', '%',
  ' ', '\u00a0', '\ufeff', '\ud83d', '\ude00', '\ud83d\ude00', 'ü', '"', '<', '^', '`', '{', '[', ']', '!', "'", '(', '*', '+', ',', '$',
  '&', ';', '=', '@', '\\', 'c:', 'C|', '|', '?', '#', 'localhost', '\t', '\u0085', '\u3002');
const anyName = fc.oneof(someName, fc.array(anyChar, { minLength: 1, maxLength: 10 }).map((a) => a.join('')),
  fc.array(fc.array(anyChar.filter((c) => !/[/:|?#\\\t\ud800-\udfff]|^\.\.$/.test(c)), { minLength: 1, maxLength: 4 }).map((a) => a.join('')), { minLength: 1, maxLength: 3 }).map((a) => a.join('/')));
const moreBase = fc.oneof(someBase, fc.constantFrom('file://localhost/..//', 'file://1.2/', 'https://H/a/', 'file://[::1]/x/', 'x-y:/a/', '//', 'file:///c:'));

test('disagreement gives what comparing every reading gives, on any name under any base (a backslash in the path is taken as settling it)', () => {
  fc.assert(fc.property(anyName, moreBase, fc.boolean(), (value, base, withJoin) => {
    assert.equal(disagreement(value, base, withJoin), differing(readings(value, base, withJoin)), `${value} against ${base}`);
  }), { numRuns: Number(process.env.FC_RUNS) || 30_000 });
});

test('mayDisagree does not pass over these: each is a disagreement the readings show', () => {
  const cases: Array<[string, string]> = [
    ['a/', 'file:///Jobs/'], // JDFLibJ drops the trailing "/"
    ['%2e%2e/x.pdf', 'file:///Jobs/In/'], // WHATWG climbs an escaped dot segment, RFC 3986 keeps it as a name
    ['1:x.pdf', 'file:///Jobs/'], // JDFLibJ takes it for a URL with a scheme, RFC 3986 for a name (a scheme starts with a letter)
    ['a\tb.pdf', 'file:///Jobs/'], // WHATWG drops the tab
    ['{.', 'file://localhost/..//'], // the name lands in the host, which WHATWG escapes and no one decodes
  ];
  for (const [value, base] of cases) {
    assert.ok(differing(readings(value, base, true)) !== null, `${value} against ${base}: the readings differ`);
    assert.ok(mayDisagree(value, base), `${value} against ${base}`);
  }
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
