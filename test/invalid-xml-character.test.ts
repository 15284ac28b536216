// invalid-xml-char outside values (text, comments, markup), against XML 1.0 2.2's Char production:
//   Char ::= #x9 | #xA | #xD | [#x20-#xD7FF] | [#xE000-#xFFFD] | [#x10000-#x10FFFF]
// Each excluded class (C0 controls but tab, LF, CR; U+FFFE; U+FFFF) is flagged once, at its first place, as
// U+XXXX; the characters at each edge of the allowed ranges are not. The expected values are read from the
// production, never from the rule. A surrogate is a Char only as half of a pair (#x10000-#x10FFFF); alone it is not.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { validateTicket } from '../src/index.js';

const hex = (code: number) => `U+${code.toString(16).toUpperCase().padStart(4, '0')}`;
// A comment is text no other rule reads: only this rule can speak about what it holds.
const inComment = (body: string) => `<JDF><!-- ${body} --></JDF>`;
const flagged = (text: string) => validateTicket(text).findings.filter((f) => f.code === 'invalid-xml-char')
  .map((f) => ({ code: f.args?.code, line: f.line, column: f.column }));

const FORBIDDEN = [0x0, 0x1, 0x8, 0xb, 0xc, 0xe, 0x10, 0x1f, 0xfffe, 0xffff];
const ALLOWED = [0x9, 0xa, 0xd, 0x20, 0x7e, 0x7f, 0x80, 0x9f, 0xff, 0x100, 0xd7ff, 0xe000, 0xfffd];

test('XML 1.0 2.2: each character outside Char is flagged as U+XXXX where it stands (column 11: after "<JDF><!-- ")', () => {
  for (const code of FORBIDDEN) {
    assert.equal(flagged(inComment(String.fromCharCode(code))), [{ code: hex(code), line: 1, column: 11 }], hex(code));
  }
});

test('XML 1.0 2.2: tab, LF, CR and the edges of #x20-#xD7FF and #xE000-#xFFFD are Chars, not flagged', () => {
  for (const code of ALLOWED) assert.equal(flagged(inComment(`a${String.fromCharCode(code)}b`)), [], hex(code));
});

test('XML 1.0 2.2: #x10000 and #x10FFFF (a surrogate pair each) are Chars, not flagged', () => {
  assert.equal(flagged(inComment('\u{10000} \u{10FFFF} \u{1F600}')), []);
});

test('XML 1.0 2.2: a surrogate not in a pair (high alone, low alone, two highs, a low before its high) is flagged where it stands', () => {
  assert.equal(flagged(inComment('\uD800')), [{ code: 'U+D800', line: 1, column: 11 }]);
  assert.equal(flagged(inComment('\uDFFF')), [{ code: 'U+DFFF', line: 1, column: 11 }]);
  assert.equal(flagged(inComment('\u{1F600}\uDBFF\uDBFF\uDC00')), [{ code: 'U+DBFF', line: 1, column: 13 }]);
  assert.equal(flagged(inComment('a\uDC00\uD800')), [{ code: 'U+DC00', line: 1, column: 12 }]);
});

test('only the first forbidden character is reported, by line and column (in a text holding non-Latin-1 too)', () => {
  assert.equal(flagged(inComment('a\u0001b\u001fc')), [{ code: 'U+0001', line: 1, column: 12 }]);
  assert.equal(flagged(`<JDF>\n<!-- \u20ac\u{1F600} -->\n<!-- x\uffff \u0002 --></JDF>`), [{ code: 'U+FFFF', line: 3, column: 7 }]);
  assert.equal(flagged(inComment(`${'\t\r\n '.repeat(1000)}\u000b`)), [{ code: 'U+000B', line: 1001, column: 2 }]);
});

test.run();
