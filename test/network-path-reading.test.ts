// The UNC path written with "/" that consumersDisagree reads a second time (src/ticket/network-path-reading.ts) is
// said to agree without resolving it: wherever the shortcut says so, disagreement (every reading resolved and its
// file identity compared) must say so too, on generated values of that shape and their near misses, under many
// bases. The shortcut must also answer for the values it is there for, or it saves nothing.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import fc from 'fast-check';
import { agreesAsNetworkPath } from '../src/ticket/network-path-reading.js';
import { disagreement, disagreementOf } from '../src/ticket/readings.js';

const BASES = [
  'file:///c:/Jobs/4711/', 'file:///c:/Jobs/4711', 'file:///C|/Jobs/', 'file:///c:', 'file:///', 'file://srv/share/dir/', 'file://localhost/d:/x/',
  'FILE:///srv/hot/', 'File:///srv/hot/', 'file:/srv/a b/', 'file:///srv/a%20b/', 'file:srv', 'file:///srv/x/?q#f', 'file:///srv/../x/', 'file://u@h/x/',
  'file://HEIPC83231/PTJobs/Jobs/4711/SheetViewables', 'file:///c:\\Jobs\\', 'file:///srv/M%C3%BCller/', 'file:///srv/Müller/', 'file://[::1]/x/',
  'http://h:8080/a/', 'https://h/', 'cid:x@y', '', 'not a url', '/relative/', 'c:\\Jobs\\', 'file:///srv/{x}/', 'file:///srv/x|y/',
];

const NEAR = ['%', '%20', '%2e', ':', '|', '?', '#', '\t', '\u0000', 'ü', '"', '<', '>', '`', '{', '}', '^', '[', ']', ';', '@', '$', '.', '..', ' ', '\\', '/', '//'];
const PLAIN = ['a', 'Z', '0', '_', '~', '-', '!', '*', "'", '(', ')', '+', ',', '&', '=', '.', ' ', 'p 0000002.pdf', 'share', 'x.pdf'];
const piece = fc.oneof({ weight: 10, arbitrary: fc.constantFrom(...PLAIN) }, { weight: 3, arbitrary: fc.constant('/') }, { weight: 1, arbitrary: fc.constantFrom(...NEAR) });
const pieces = fc.array(piece, { maxLength: 8 }).map((a) => a.join(''));
const host = fc.constantFrom('server', 'SERVER', 'Srv-1', 'h', 'localhost', 'LocalHost', 'localhost2', 'xn--abc', 'XN--nxasmq6b', 'a.b', '1', '1.2.3.4', '0x1f', 'ü', 'a b', 'a%41', '', 'c:', 'C|', 'C', 'x_y', '-a', 'a-', '[::1]', 'u@h', 'h:80');
const name = fc.array(fc.oneof({ weight: 12, arbitrary: fc.constantFrom(...PLAIN) }, { weight: 1, arbitrary: fc.constantFrom(...NEAR) }), { minLength: 1, maxLength: 4 }).map((a) => a.join(''));
const value = fc.oneof(
  { weight: 1, arbitrary: fc.tuple(fc.constantFrom('//', '//', '//', '/', '///', '\\\\', ' //'), host, fc.constantFrom('/', '/', '', '//'), pieces).map((p) => p.join('')) },
  // The shape itself, a near miss now and then.
  { weight: 2, arbitrary: fc.tuple(host, fc.array(name, { minLength: 1, maxLength: 4 })).map(([h, names]) => `//${h}/${names.join('/')}`) },
);

test('where the shortcut says a network path agrees, every reading names one file; disagreementOf is disagreement', () => {
  let answered = 0;
  fc.assert(fc.property(value, fc.constantFrom(...BASES), fc.boolean(), (v, base, withJoin) => {
    const slow = disagreement(v, base, withJoin);
    if (agreesAsNetworkPath(v, base, withJoin, disagreement)) {
      assert.is(slow, null, `${JSON.stringify(v)} against ${JSON.stringify(base)}`);
      answered++;
    }
    assert.equal(disagreementOf(v, base, withJoin), slow, `${JSON.stringify(v)} against ${JSON.stringify(base)}`);
  }), { numRuns: 40_000, seed: 20261127 });
  assert.ok(answered >= 2000, `answered ${answered}`);
});

test('the broken shape\'s UNC values, written with "/", take the shortcut under file bases', () => {
  for (const base of ['file:///c:/Jobs/4711/', 'file://HEIPC83231/PTJobs/Jobs/4711/SheetViewables', 'FILE:///srv/hot/']) {
    for (const v of ['//server/share/p 0000002.pdf', '//SERVER/Share/Job 1/Seite (2).pdf', '//h/x']) {
      assert.ok(agreesAsNetworkPath(v, base, true, disagreement), `${v} against ${base}`);
      assert.is(disagreement(v, base, true), null);
    }
  }
});

test('near misses and other bases are left to disagreement', () => {
  const base = 'file:///c:/Jobs/4711/';
  const misses = ['//localhost/s/x', '//LOCALHOST/s/x', '//xn--abc/s/x', '//1/s/x', '//a.b/s/x', '//server', '//server/', '//server/s/', '//server/s//x',
    '//server/s/x ', '//server/ s', '//server/.x', '//server/s/../x', '//server/s%20x', '//server/s:x', '//server/s?x', '//server/s#x', '//server/ü',
    '//server/s\\x', '\\\\server\\s\\x', '///server/s', '/server/s', ' //server/s', '//-a/s', '//server/s;x', '//server/s@x', '//server/s$x'];
  for (const v of misses) assert.not.ok(agreesAsNetworkPath(v, base, true, disagreement), v);
  // A base whose string join keeps it whole (a space, a backslash), one not a file URL, one WHATWG refuses.
  for (const other of ['file:/srv/a b/', 'file:///c:\\Jobs\\', 'http://h/a/', 'file://[x/', '/relative/', '']) {
    assert.not.ok(agreesAsNetworkPath('//server/share/x.pdf', other, true, disagreement), other);
  }
});

test.run();
