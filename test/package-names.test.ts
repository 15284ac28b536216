// A part's name as a URL segment of the ticket it is written into: "all encoded octets must use the encoding
// declared on the XML document header's encoding attribute" (JDF appendix section 3). The expected octets are
// Python's codecs ('Preis€‚Ÿé'.encode('cp1252') is b'Preis\x80\x82\x9f\xe9'; 'é'.encode('latin-1') is b'\xe9')
// and, where the declared encoding has no octet for a character, its UTF-8 octets (RFC 8089 section 4).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { pathFor, segmentFor, utf8Escapes } from '../src/package/names.js';

test('windows-1252: its 0x80-0x9F characters are their one octet, not UTF-8', () => {
  assert.is(segmentFor('Preis\u20ac\u201a\u0178\u00e9.pdf', 'WINDOWS-1252'), 'Preis%80%82%9F%E9.pdf');
  assert.is(pathFor('content/\u20ac/a b.pdf', 'windows-1252'), 'content/%80/a%20b.pdf');
  // And back: the file system's UTF-8 form of the same name.
  assert.is(utf8Escapes('Preis%80.pdf', 'windows-1252'), 'Preis%E2%82%AC.pdf');
});

test('ISO-8859-1 writes its own octets; a character it lacks is UTF-8', () => {
  assert.is(segmentFor('r\u00e9sum\u00e9.pdf', 'ISO-8859-1'), 'r%E9sum%E9.pdf');
  assert.is(segmentFor('\u20ac.pdf', 'ISO-8859-1'), '%E2%82%AC.pdf');
});

test('US-ASCII has no octet above 127: UTF-8; UTF-8 tickets UTF-8', () => {
  assert.is(segmentFor('\u00e9.pdf', 'US-ASCII'), '%C3%A9.pdf');
  assert.is(segmentFor('\u20ac.pdf', 'UTF-8'), '%E2%82%AC.pdf');
});

test.run();
