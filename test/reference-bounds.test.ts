import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { referenceBounds } from '../src/uri/parse.js';

// [scheme's ":", authority start (after "//"), path start, path end, query end]; -1 where absent. Expected
// indexes counted by hand from the examples of RFC 3986 section 3 and appendix B.
const bounds = (s: string) => [...referenceBounds(s)];

test('RFC 3986 3: every component', () => {
  // foo://example.com:8042/over/there?name=ferret#nose
  // 0  3  6               22         33          45
  assert.equal(bounds('foo://example.com:8042/over/there?name=ferret#nose'), [3, 6, 22, 33, 45]);
});

test('RFC 3986 3: a scheme and a path alone', () => {
  assert.equal(bounds('urn:example:animal:ferret:nose'), [3, -1, 4, 30, -1]);
});

test('appendix B: a fragment and no query', () => {
  // http://www.ics.uci.edu/pub/ietf/uri/#Related: the path ends at "#" (36), no query
  assert.equal(bounds('http://www.ics.uci.edu/pub/ietf/uri/#Related'), [4, 7, 22, 36, -1]);
});

test('an empty authority, a relative path and no scheme (3.1: "1a" is none)', () => {
  assert.equal(bounds('file:///c:/x'), [4, 7, 7, 12, -1]);
  assert.equal(bounds('a b/c.pdf'), [-1, -1, 0, 9, -1]);
  assert.equal(bounds('1a:b?q'), [-1, -1, 0, 4, 6]);
});

test.run();
