// The WHATWG reading written out without the parser (src/ticket/whatwg-reading.ts) for three shapes of value must
// be what the parser gives: the oracle is Node's own `new URL(value, base).href` (null where it throws), on
// generated values of those shapes and their near misses (a character more, a quirk of the parser's), under many
// bases. The shortcut must also answer for the shapes it is there for, or it saves nothing.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import fc from 'fast-check';
import { whatwgHref, whatwgShortcut } from '../src/ticket/whatwg-reading.js';

const parsed = (value: string, base: string): string | null => {
  try {
    return new URL(value, base).href;
  } catch {
    return null;
  }
};

const BASES = [
  'file:///c:/Jobs/4711/', 'file:///c:/Jobs/4711', 'file:///C|/Jobs/', 'file:///c:', 'file:///c:/', 'file:///', 'file://srv/share/dir/',
  'file://localhost/d:/x/', 'FILE:///srv/hot/', 'file:/srv/a b/', 'file:srv', 'file:///srv/x/?q#f', 'file:///srv/%2e%2e/x/', 'file:///srv/../x/',
  'file://HEIPC83231/PTJobs/Jobs/4711/SheetViewables', 'file:///srv/M%C3%BCller/', 'http://h:8080/a/', 'https://h/', 'cid:x@y', 'urn:a:b',
  '', 'not a url', 'http://[bad/', 'file://[::1]/x/', 'file://1.2/x/', '/relative/', 'c:\\Jobs\\',
];

// The characters of each shape, and the near misses around them.
const NEAR = ['%', '%20', '%2e', '%2E', ':', '|', '?', '#', '\t', '\n', '\r', '\u0000', '\u001f', '\u007f', 'ü', '"', '<', '>', '`', '{', '}', '^', '[', ']', '.', '..', ' ', '\\', '/'];
const PLAIN = ['a', 'Z', '0', '9', '_', '~', '-', '!', '$', '&', "'", '(', ')', '*', '+', ',', ';', '=', '@', '.', ' ', 'p 0000001.pdf', 'Jobs', 'x.pdf'];
const SEP = ['\\', '/'];
const piece = fc.oneof({ weight: 8, arbitrary: fc.constantFrom(...PLAIN) }, { weight: 3, arbitrary: fc.constantFrom(...SEP) }, { weight: 1, arbitrary: fc.constantFrom(...NEAR) });
const pieces = fc.array(piece, { maxLength: 8 }).map((a) => a.join(''));
const host = fc.oneof(fc.constantFrom('server', 'SERVER', 'srv-1', 'localhost', 'LocalHost', 'xn--abc', 'XN--nxasmq6b', 'a', 'a.b', '1', '0x1f', '1.2.3.4', 'ü', 'a b', 'a%41', '', 'c:', 'C|', 'x_y', '-a', 'a-', '[::1]', 'u@h', 'h:80'), pieces);
const scheme = fc.constantFrom('C', 'c', 'x', 'urn', 'cid', 'a+b.c-d', 'File', 'file', 'HTTP', 'https', 'ftp', 'ws', 'WSS', 'mailto', '1c', 'c d');
const value = fc.oneof(
  { weight: 2, arbitrary: pieces },
  { weight: 1, arbitrary: fc.tuple(fc.constantFrom('', ' ', '.', './', '..\\'), pieces).map(([a, b]) => a + b) },
  { weight: 4, arbitrary: fc.tuple(fc.constantFrom('\\\\', '//', '\\/', '/\\', '\\\\\\', '///'), host, fc.constantFrom('\\', '/', '', '\\\\'), pieces).map((p) => p.join('')) },
  { weight: 2, arbitrary: fc.tuple(scheme, fc.constantFrom(':', ':/', ':\\', '://', ':\\\\'), pieces).map((p) => p.join('')) },
);

test('the shortcut gives what new URL gives, wherever it answers, and whatwgHref gives it everywhere', () => {
  const answered = { opaque: 0, unc: 0, relative: 0 };
  fc.assert(fc.property(value, fc.constantFrom(...BASES), (v, base) => {
    const expected = parsed(v, base);
    const known = whatwgShortcut(v, base);
    if (known !== undefined) {
      assert.is(known, expected, `shortcut: ${JSON.stringify(v)} against ${JSON.stringify(base)}`);
      answered[/^[A-Za-z][A-Za-z0-9+.-]*:/.test(v) ? 'opaque' : /^[\\/]{2}/.test(v) ? 'unc' : 'relative']++;
    }
    assert.is(whatwgHref(v, base), expected, `${JSON.stringify(v)} against ${JSON.stringify(base)}`);
  }), { numRuns: 60_000, seed: 20261127 });
  // Each shape was answered often enough for the comparison to mean something.
  for (const [shape, n] of Object.entries(answered)) assert.ok(n >= 500, `${shape}: ${n}`);
});

// The forms of bench/shapes.ts 'broken' and their like: each must take the shortcut, and each gives the parser's href.
const BROKEN = ['pages\\p 0000000.pdf', 'C:\\Jobs\\4711\\p0000001.pdf', '\\\\server\\share\\p 0000002.pdf', '//server/share/p 0000002.pdf', 'p 0000003.pdf', 'E:\\a\\b.pdf', 'c:\\x', 'Job 1\\Seite (2).pdf'];
test('the broken shapes take the shortcut, with the parser\'s answer', () => {
  for (const base of ['file:///c:/Jobs/4711/', 'file://HEIPC83231/PTJobs/Jobs/4711/SheetViewables', 'file:///srv/hot/']) {
    for (const v of BROKEN) assert.is(whatwgShortcut(v, base), parsed(v, base), `${v} against ${base}`);
  }
});

test('near misses of each shape are left to the parser', () => {
  const base = 'file:///c:/Jobs/4711/';
  const misses = ['pages\\p 1.pdf ', ' pages\\p.pdf', 'pages\\.\\p.pdf', 'pages\\..\\p.pdf', 'a%20b', 'a\tb', 'c|\\x', 'a?b', 'a#b', 'ü.pdf', '\\\\localhost\\s\\x', '\\\\xn--abc\\s\\x', '\\\\1\\s\\x', '\\\\a.b\\s\\x', '\\\\server', 'file:\\x', 'http:\\x', 'c:/x', 'c:\\a b', 'c:\\a?b', 'c:\\a#b', 'c:'];
  for (const v of misses) assert.is(whatwgShortcut(v, base), undefined, v);
  assert.is(whatwgShortcut('C:\\x', 'http://[bad/'), undefined, 'a base the parser refuses');
  assert.is(whatwgHref('C:\\x', 'http://[bad/'), null);
});

test.run();
