// LineIndex: line and column of offsets where CR, LF and CRLF all end a line (XML 1.0 2.11), against positions
// worked out by hand and against an oracle that splits the text on /\r\n|\r|\n/.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { LineIndex } from '../src/ticket/positions.js';

const at = (text: string, offset: number) => new LineIndex(text).position(offset);

test('LF, CRLF and a lone CR each end one line', () => {
  const text = 'ab\ncd\r\nef\rgh\r';
  assert.equal(at(text, 0), { line: 1, column: 1 });
  assert.equal(at(text, 2), { line: 1, column: 3 }); // the LF itself is on the line it ends
  assert.equal(at(text, 3), { line: 2, column: 1 });
  assert.equal(at(text, 6), { line: 2, column: 4 }); // the LF of a CRLF
  assert.equal(at(text, 7), { line: 3, column: 1 });
  assert.equal(at(text, 10), { line: 4, column: 1 });
  assert.equal(at(text, 13), { line: 5, column: 1 }); // after a CR that ends the text
});

test('CR LF CR and LF CR LF: runs of line ends', () => {
  assert.equal(at('\r\n\r', 3), { line: 3, column: 1 });
  assert.equal(at('\n\r\n', 1), { line: 2, column: 1 });
  assert.equal(at('\n\r\n', 3), { line: 3, column: 1 });
  assert.equal(at('\r\r\n\n', 4), { line: 4, column: 1 });
});

/** The oracle: the lines are what /\r\n|\r|\n/ splits the text into. */
function oracle(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let start = 0;
  const ends = /\r\n|\r|\n/g;
  for (let m = ends.exec(text); m !== null && m.index + m[0].length <= offset; m = ends.exec(text)) {
    line++;
    start = m.index + m[0].length;
  }
  return { line, column: offset - start + 1 };
}

test('every offset of random texts of CR, LF and x agrees with the oracle', () => {
  let seed = 7;
  const next = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
  for (let k = 0; k < 2000; k++) {
    let text = '';
    for (let n = Math.floor(next() * 14); n > 0; n--) text += '\r\nx'[Math.floor(next() * 3)]!;
    const index = new LineIndex(text);
    for (let offset = 0; offset <= text.length; offset++) assert.equal(index.position(offset), oracle(text, offset), JSON.stringify(text) + ' at ' + offset);
  }
});

test.run();
