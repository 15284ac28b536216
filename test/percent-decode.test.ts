// percentDecodeToBytes (RFC 3986 2.1, JDF appendix section 3): the octets of a segment, against octets worked out
// by hand from RFC 3629's UTF-8 table (a lone surrogate is U+FFFD to an encoder, WHATWG Encoding 'UTF-8 encode').
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { percentDecodeToBytes } from '../src/escape/percent.js';

const cases: Array<[string, number[]]> = [
  ['', []],
  ['a.pdf', [0x61, 0x2e, 0x70, 0x64, 0x66]],
  ['%41', [0x41]],
  ['a%2Fb', [0x61, 0x2f, 0x62]],
  ['%25', [0x25]], // an escaped "%" starts no second triplet
  ['%2541', [0x25, 0x34, 0x31]],
  ['%%41', [0x25, 0x41]], // a "%" that starts no triplet stands for itself
  ['50%', [0x35, 0x30, 0x25]],
  ['%4', [0x25, 0x34]],
  ['%zz%e9', [0x25, 0x7a, 0x7a, 0xe9]],
  ['é%C3%A9', [0xc3, 0xa9, 0xc3, 0xa9]],
  ['€%', [0xe2, 0x82, 0xac, 0x25]],
  ['\u{1F600}%2f', [0xf0, 0x9f, 0x98, 0x80, 0x2f]],
  ['a\uD800b', [0x61, 0xef, 0xbf, 0xbd, 0x62]],
  ['%E9\uDC00%', [0xe9, 0xef, 0xbf, 0xbd, 0x25]],
];

for (const [segment, octets] of cases) {
  test(`percentDecodeToBytes ${JSON.stringify(segment)}`, () => {
    assert.equal([...percentDecodeToBytes(segment)], octets);
  });
}

test.run();
