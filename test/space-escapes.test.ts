// sameUpToSpaceEscapes (src/ticket/space-escapes.ts) says two file URLs have the same file identity without working
// either out: wherever it says so, identityParts (the file identity itself) must agree, on generated pairs (a URL
// and the same with some raw spaces written "%20" or back) and near misses. It must also say so for the pairs it is
// there for (a broken value's partial fix against its WHATWG reading), or it saves nothing.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import fc from 'fast-check';
import { sameUpToSpaceEscapes } from '../src/ticket/space-escapes.js';
import { fileIdentity } from '../src/ticket/readings.js';

const PIECES = ['a', 'Z', '0', '.', '..', '/', '//', ' ', '%20', '%2e', '%2E', '%41', '%', '%2', '%C3%BC', 'ü', '?', '#', ':', 'c:', 'C|', '\\', '@', 'localhost', 'srv', 'SRV', ';', '~'];
const text = fc.array(fc.constantFrom(...PIECES), { maxLength: 10 }).map((a) => a.join(''));
const head = fc.constantFrom('file://', 'file:///', 'file:////', 'file://srv/', 'file://SRV/', 'file://localhost/', 'file://a b/', 'file://a%20b/', 'FILE:///', 'file:', 'http://h/', '');
/** `url` with each space or "%20" (as `flips` says, in turn) written the other way. */
function flipped(url: string, flips: readonly boolean[]): string {
  let n = 0;
  return url.replace(/ |%20/g, (m) => (flips[n++ % flips.length] ? (m === ' ' ? '%20' : ' ') : m));
}
const pair = fc.tuple(head, text, fc.array(fc.boolean(), { minLength: 1, maxLength: 6 }), fc.oneof(fc.constant(''), text)).map(([h, t, flips, tail]) => {
  const a = h + t;
  return [a, tail === '' ? flipped(a, flips) : flipped(a, flips) + tail] as const;
});

test('where it says two URLs are the same file, their file identities are equal', () => {
  let said = 0;
  fc.assert(fc.property(pair, ([a, b]) => {
    if (!sameUpToSpaceEscapes(a, b)) return;
    said++;
    assert.is(fileIdentity(a, 'utf-8'), fileIdentity(b, 'utf-8'), `${JSON.stringify(a)} ${JSON.stringify(b)}`);
    assert.is(fileIdentity(a, 'windows-1252'), fileIdentity(b, 'windows-1252'), `${JSON.stringify(a)} ${JSON.stringify(b)} (windows-1252)`);
  }), { numRuns: 60_000, seed: 20261127 });
  assert.ok(said >= 3000, `said ${said}`);
});

test('the broken shape\'s partial fixes against their WHATWG readings, and near misses', () => {
  assert.ok(sameUpToSpaceEscapes('file:///c:/Jobs/4711/pages/p 0000000.pdf', 'file:///c:/Jobs/4711/pages/p%200000000.pdf'));
  assert.ok(sameUpToSpaceEscapes('file://server/share/p 0000002.pdf', 'file://server/share/p%200000002.pdf'));
  assert.ok(sameUpToSpaceEscapes('file:///a%20b', 'file:///a b'));
  const misses: Array<[string, string]> = [
    ['file://a b/x', 'file://a%20b/x'], ['file:////a b/x', 'file:////a%20b/x'], ['file:///a b?q', 'file:///a%20b?q'], ['file:///a b#f', 'file:///a%20b#f'],
    ['file:///a b%41', 'file:///a%20b%41'], ['file:///a b%2', 'file:///a%20b%2'], ['file:///a b', 'file:///a%20c'], ['file:///a b', 'file:///a%20'],
    ['http://h/a b', 'http://h/a%20b'], ['FILE:///a b', 'FILE:///a%20b'], ['file:///a  b', 'file:///a%20b'], ['file://h', 'file://h'],
  ];
  for (const [a, b] of misses) {
    assert.not.ok(sameUpToSpaceEscapes(a, b), `${a} ${b}`);
    assert.not.ok(sameUpToSpaceEscapes(b, a), `${b} ${a}`);
  }
});

test.run();
