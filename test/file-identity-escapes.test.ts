// fileIdentity decodes each path segment in the ticket's charset (JDF appendix section 3): a segment of ASCII
// escapes takes a short way in UTF-8, which must give what the long way gives. Expected values are written by
// hand from RFC 3986 2.1 (each triplet is its octet) and checked against Python's urllib.parse.unquote.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import fc from 'fast-check';
import { fileIdentity } from '../src/ticket/readings.js';

const CASES: Array<[string, string, string]> = [
  ['file:///c:/Jobs/p%200000.pdf', 'utf-8', 'file:///c:/Jobs/p 0000.pdf'],
  ['file:///a/%41%62c', 'UTF-8', 'file:///a/Abc'],
  ['file:///a/x%2Fy', 'utf-8', 'file:///a/x%2Fy'], // an escaped "/" stays in its segment
  ['file:///a/100%', 'utf-8', 'file:///a/100%'], // a "%" that starts no triplet stands for itself
  ['file:///a/%zz%4', 'utf-8', 'file:///a/%zz%4'],
  ['file:///a/M%C3%BCller', 'utf-8', 'file:///a/M\u00fcller'], // non-ASCII octets: the long way
  ['file:///a/%FC', 'iso-8859-1', 'file:///a/\u00fc'],
  ['file:///a/%7e%7E', 'utf-8', 'file:///a/~~'],
];

for (const [uri, charset, expected] of CASES) {
  test(`fileIdentity(${uri}, ${charset}) is ${expected}`, () => assert.is(fileIdentity(uri, charset), expected));
}

test('a segment of ASCII characters and ASCII escapes decodes alike in UTF-8 and in ISO-8859-1 (the same octets, the same characters)', () => {
  const segment = fc.array(fc.oneof(fc.constantFrom('%20', '%41', '%2F', '%25', '%', '%7', '%g1', 'a', ' ', '.'), fc.integer({ min: 0x21, max: 0x7e }).map((c) => String.fromCharCode(c))), { maxLength: 12 }).map((a) => a.join('').replace(/[/?#]/g, 'x')).filter((s) => !/%[89a-f][0-9a-f]/i.test(s)); // pieces may join into a non-ASCII octet (%a0): left out
  fc.assert(fc.property(segment, (s) => fileIdentity(`file:///d/${s}`, 'utf-8') === fileIdentity(`file:///d/${s}`, 'iso-8859-1')));
});

test.run();
