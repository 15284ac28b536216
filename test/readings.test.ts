// The "string join" reading of consumers-disagree is JDFLibJ's UrlUtil.getURLWithDirectory. Expected values are
// those of CIP4's own test of it (JDFLibJ UrlUtilTest.testGetURLWithDirectory) and the appendix's XML example.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { stringJoin } from '../src/ticket/readings.js';

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

test.run();
