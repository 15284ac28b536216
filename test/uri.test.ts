import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { equivalent, merge, normalize, parseReference, recompose, removeDotSegments, resolveReference } from '../src/index.js';
import { loadData } from './helpers.js';

// RFC 3986 5.4.1 and 5.4.2, strict parser results.
for (const c of loadData<any[]>('rfc3986-examples.json')) {
  test(`RFC 3986 ${c.section}: "${c.ref}" against ${c.base}`, () => {
    assert.is(resolveReference(c.ref, c.base), c.expected);
  });
}

const appendix = loadData('jdf-appendix-examples.json');

for (const c of appendix.rfc2396Normal.cases) {
  test(`appendix Table 3: "${c.ref}" against ${appendix.rfc2396Normal.base}`, () => {
    assert.is(resolveReference(c.ref, appendix.rfc2396Normal.base), c.resolved);
  });
}

for (const c of appendix.relative.cases) {
  test(`appendix 2.2: "${c.ref}" against ${appendix.relative.directory}`, () => {
    assert.is(resolveReference(c.ref, appendix.relative.directory), c.resolved);
  });
}

for (const c of appendix.good.cases) {
  test(`appendix Table 2 example ${c.n} resolves as the appendix says`, () => {
    assert.is(resolveReference(c.url, appendix.good.directory), c.resolved);
    if (c.withoutDirectory) assert.is(resolveReference(c.url, c.withoutDirectory.documentFolder), c.withoutDirectory.resolved);
  });
}

test('appendix 2.2 item 4: no Directory, the base is the folder of the ticket', () => {
  for (const c of appendix.noDirectory.cases) assert.is(resolveReference(c.ref, appendix.noDirectory.documentFolder), c.resolved);
});

test('appendix 2.2 XML example, with and without the trailing slash', () => {
  const x = appendix.xmlExample;
  const directory = /Directory="([^"]+)"/.exec(x.jdf)![1]!;
  const url = /URL="([^"]+)"/.exec(x.jdf)![1]!;
  assert.is(resolveReference(url, directory), x.resolved);
  assert.is(resolveReference(url, x.withoutTrailingSlash.directory), x.withoutTrailingSlash.resolved);
});

for (const c of appendix.rfc8089.driveRelative.cases) {
  test(`RFC 8089 E.2.1: "${c.ref}" against ${c.base} keeps the drive when asked`, () => {
    assert.is(resolveReference(c.ref, c.base, { drivePreserving: true }), c.resolved);
    assert.is.not(resolveReference(c.ref, c.base), c.resolved, 'strict RFC 3986 does not keep the drive');
  });
}

test('RFC 3986 5.2.4: the two worked examples of remove_dot_segments', () => {
  assert.is(removeDotSegments('/a/b/c/./../../g'), '/a/g');
  assert.is(removeDotSegments('mid/content=5/../6'), 'mid/6');
});

test('remove_dot_segments handles a megabyte of "../" in linear time (it finishes)', () => {
  const path = '/a' + '/..'.repeat(350_000) + '/b';
  assert.is(removeDotSegments(path), '/b');
});

test('RFC 3986 5.2.3: merge with an authority and an empty base path', () => {
  assert.is(merge({ authority: 'a', path: '' }, 'g'), '/g');
  assert.is(merge({ path: 'b/c' }, 'g'), 'b/g');
  assert.is(merge({ path: 'c' }, 'g'), 'g');
});

test('strict-RFC pitfall: "//p" from remove_dot_segments never becomes an authority', () => {
  assert.is(removeDotSegments('/.//p'), '//p');
  assert.is(resolveReference('file:/.//p', ''), 'file:/.//p');
  assert.is(resolveReference('/.//p', 'file:/a/b'), 'file:/.//p');
  assert.is(recompose({ scheme: 'file', path: '//p' }), 'file:/.//p');
  // with an authority the path may begin with "//"
  assert.is(resolveReference('/.//p', 'file:///a/b'), 'file:////p');
});

test('RFC 3986 appendix B: components of the example URI', () => {
  assert.equal(parseReference('http://www.ics.uci.edu/pub/ietf/uri/#Related'), {
    scheme: 'http', authority: 'www.ics.uci.edu', path: '/pub/ietf/uri/', fragment: 'Related',
  });
  assert.equal(parseReference('foo://example.com:8042/over/there?name=ferret#nose'), {
    scheme: 'foo', authority: 'example.com:8042', path: '/over/there', query: 'name=ferret', fragment: 'nose',
  });
  assert.equal(parseReference('urn:example:animal:ferret:nose'), { scheme: 'urn', path: 'example:animal:ferret:nose' });
  assert.equal(parseReference(''), { path: '' });
  assert.equal(parseReference('?#'), { path: '', query: '', fragment: '' });
});

test('a scheme must match RFC 3986 3.1: "1a:b" and "my file:x" are paths', () => {
  assert.equal(parseReference('1a:b'), { path: '1a:b' });
  assert.equal(parseReference('my file:x'), { path: 'my file:x' });
  assert.equal(parseReference('./foo:'), { path: './foo:' });
});

// Every string of up to five characters from "a:/?#": the delimiters at the very end ("a:", "a:/", "//", "a:?",
// "a#") are where the scan stops reading, and each must still split as appendix B's regular expression splits it.
test('RFC 3986 appendix B: every short string of delimiters splits as the appendix\'s regular expression does', () => {
  const appendixB = /^(([^:/?#]+):)?(\/\/([^/?#]*))?([^?#]*)(\?([^#]*))?(#(.*))?$/s;
  const split = (s: string) => {
    const m = appendixB.exec(s)!; // its only scheme candidates are runs of "a", which 3.1 allows
    const parts: Record<string, string> = { path: m[5]! };
    if (m[2] !== undefined) parts.scheme = m[2];
    if (m[3] !== undefined) parts.authority = m[4]!;
    if (m[6] !== undefined) parts.query = m[7]!;
    if (m[8] !== undefined) parts.fragment = m[9]!;
    return parts;
  };
  let strings = [''];
  for (let n = 1; n <= 5; n++) strings = strings.concat(strings.filter((s) => s.length === n - 1).flatMap((s) => [...'a:/?#'].map((c) => s + c)));
  for (const s of strings) assert.equal(parseReference(s), split(s), s);
});

test('recomposition (5.3) gives back every example URI unchanged', () => {
  for (const s of ['http://a/b/c/d;p?q', 'file:///c:/a.pdf', 'g:h', '//g', '?y', '#s', '', 'file://localhost/c:/x', 'mailto:a@b']) {
    assert.is(recompose(parseReference(s)), s);
  }
});

test('RFC 3986 6.2.2: the section\'s own equivalent pair', () => {
  assert.ok(equivalent('example://a/b/c/%7Bfoo%7D', 'eXAMPLE://a/./b/../b/%63/%7bfoo%7d'));
  assert.is(normalize('eXAMPLE://a/./b/../b/%63/%7bfoo%7d'), 'example://a/b/c/%7Bfoo%7D');
});

test('RFC 3986 6.2.2.1: host case folds, path case does not', () => {
  assert.ok(equivalent('FILE://Server/Share/a.pdf', 'file://server/Share/a.pdf'));
  assert.not.ok(equivalent('file://server/Share/a.pdf', 'file://server/share/a.pdf'));
  assert.not.ok(equivalent('file:///a%2Fb', 'file:///a/b'), '%2F is reserved and not decoded');
});

test('a base without a scheme does not throw', () => {
  assert.is(resolveReference('g', 'a/b'), 'a/g');
});

test.run();
