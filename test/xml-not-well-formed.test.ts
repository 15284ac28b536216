// What is not well-formed, in our words and at our place: the validator's messages never reach the user. Every
// line and column here is counted by hand from the text beside it.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { validateTicket } from '../src/index.js';

const PARSER_WORDS = /Invalid '|Expected closing tag|Unclosed tag|is not expected|has no space in starting|is without value|boolean attribute|possible root|open quote|proper closing|has not been opened|Start tag expected|Extra text/;

const malformed = (text: string, strictXml = false) => {
  const f = validateTicket(text, { strictXml }).findings.find((x) => x.code === 'xml-malformed');
  assert.ok(f, `xml-malformed for ${JSON.stringify(text)}`);
  assert.not.match(f.message, PARSER_WORDS);
  return { reason: f.args?.reason, line: f.line, column: f.column, message: f.message };
};

// The ticket of the CI-citizen issue, cut off after a FileSpec: line 4 is 6 spaces and 23 characters, so the
// text ends at 4:30; RunList opened at 3:5 (after 4 spaces).
const CUT = ['<JDF Version="1.4">', '  <ResourcePool>', '    <RunList ID="r">', '      <FileSpec URL="a.pdf"/>', ''];

for (const [name, eol] of [['LF', '\n'], ['CRLF', '\r\n'], ['CR', '\r']] as const) {
  test(`a ticket cut off between elements (${name}): the innermost open element, where it opened, at the end`, () => {
    for (const strict of [false, true]) {
      const f = malformed(CUT.join(eol), strict);
      assert.equal([f.reason, f.line, f.column], ['cut-off', 4, 30]);
      assert.match(f.message, 'The text ends while <RunList>, opened at 3:5, is still open (inside <ResourcePool>, <JDF>).');
    }
  });
}

test('one element left open: named with its place; the end is the last character that is not white space', () => {
  // "  <ResourcePool/>" is 17 characters: the text ends at 2:18.
  const f = malformed('<JDF>\n  <ResourcePool/>\n\n');
  assert.equal([f.reason, f.line, f.column], ['cut-off', 2, 18]);
  assert.match(f.message, 'The text ends while <JDF>, opened at 1:1, is still open.');
});

test('cut off inside a start tag, a comment, a CDATA section, a PI: which, and where it began', () => {
  const cases: Array<[string, number, number, string]> = [
    ['<JDF>\n<a x="1"', 2, 9, 'inside the start tag <a, begun at 2:1, while <JDF>, opened at 1:1, is still open.'],
    ['<JDF><!-- x', 1, 12, 'inside a comment, begun at 1:6, while <JDF>, opened at 1:1, is still open.'],
    ['<JDF><![CDATA[ x', 1, 17, 'inside a CDATA section, begun at 1:6, while <JDF>, opened at 1:1, is still open.'],
    ['<JDF><?pi x', 1, 12, 'inside a processing instruction, begun at 1:6, while <JDF>, opened at 1:1, is still open.'],
    ['<JDF', 1, 5, 'inside the start tag <JDF, begun at 1:1.'],
  ];
  for (const [text, line, column, words] of cases) {
    const f = malformed(text);
    assert.equal([f.reason, f.line, f.column], ['cut-off', line, column], text);
    assert.match(f.message, `The text ends ${words}`);
  }
});

test('deep nesting names the innermost element and three that hold it, then how many more', () => {
  // "<a><b><c><d><e>" after "<JDF>": <e> opens at 1:18, the text ends at 1:21.
  const f = malformed('<JDF><a><b><c><d><e>');
  assert.equal([f.line, f.column], [1, 21]);
  assert.match(f.message, '<e>, opened at 1:18, is still open (inside <d>, <c>, <b> and 2 more).');
});

test('every other error of the validator: our reason, our words, the place of what is wrong (--strict-xml)', () => {
  const cases: Array<[string, string, number, number, string]> = [
    ['<JDF><ResourcePool></JDF>', 'end-tag-mismatch', 1, 20, 'The end tag </JDF> stands where <ResourcePool>, opened at 1:6, should be closed.'],
    ['</JDF>', 'end-tag-unopened', 1, 1, 'The end tag </JDF> has no start tag.'],
    ['<JDF></a x></JDF>', 'end-tag-content', 1, 6, 'The end tag </a> holds more than its name.'],
    ['<1JDF/>', 'tag-name', 1, 1, '"1JDF" is not an XML name'],
    ['< JDF/>', 'space-after-lt', 1, 1, 'A "<" is followed by white space'],
    ['<JDF><a b="x/></JDF>', 'open-quote', 1, 6, 'A value in the tag <a> has no closing quote.'],
    ['<JDF a="1" a="2"/>', 'attribute-repeated', 1, 12, 'The attribute a is given twice in one tag.'],
    ['<JDF><a b="1"c="2"/></JDF>', 'attribute-space', 1, 14, 'The attribute c has no white space before it.'],
    ['<JDF><a b/></JDF>', 'attribute-no-value', 1, 9, 'The attribute b has no quoted value.'],
    ['<JDF><a 1b="x"/></JDF>', 'attribute-name', 1, 9, '"1b" is not an XML name'],
    ['<JDF>x & y</JDF>', 'bare-ampersand', 1, 8, 'A "&" starts no entity or character reference.'],
    ['x<JDF/>', 'text-outside-root', 1, 1, 'There is text before the root element.'],
    ['<JDF/>\n junk', 'text-outside-root', 2, 2, 'There is text after the root element.'],
  ];
  for (const [text, reason, line, column, words] of cases) {
    const f = malformed(text, true);
    assert.equal([f.reason, f.line, f.column], [reason, line, column], text);
    assert.match(f.message, words, text);
  }
});

test.run();
