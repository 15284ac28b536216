// Issue 20, MEDIUM and LOW: what fast-xml-parser accepts and XML does not, outside the values we read, is
// reported: a second XML declaration, "--" in a comment, an undefined entity or a bare "&" in text. The same
// checks run on big tickets parsed in runs, where the prolog and the text between runs never reach the parser,
// and the run scanner reads "<?>" as the parser does (a whole PI), so a malformed big ticket never passes clean.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { validateTicket } from '../src/index.js';

const BODY = '<JDF Version="1.4"><ResourcePool><RunList Directory="file:///srv/hot/"><FileSpec URL="a.pdf"/></RunList></ResourcePool></JDF>';
const codesOf = (text: string, chunkChars?: number) => {
  const r = validateTicket(text, { documentUri: 'file:///srv/hot/t.jdf', ...(chunkChars ? { chunkChars } : {}) });
  return [...r.findings, ...r.references.flatMap((x) => x.findings)].map((f) => f.code);
};

const CASES: Array<[string, string, string]> = [
  ['a second XML declaration', `<?xml version="1.0"?>\n<?xml version="1.0" encoding="UTF-8"?>\n${BODY}`, 'xml-declaration-misplaced'],
  ['an XML declaration after white space', `\n<?xml version="1.0"?>${BODY}`, 'xml-declaration-misplaced'],
  ['an XML declaration after the root', `${BODY}<?XML version="1.0"?>`, 'xml-declaration-misplaced'],
  ['"--" in a comment in the prolog', `<?xml version="1.0"?>\n<!-- a -- b -->\n${BODY}`, 'comment-double-hyphen'],
  ['a comment ending "--->"', BODY.replace('<FileSpec', '<!-- x ---><FileSpec'), 'comment-double-hyphen'],
  ['an undefined entity in text', BODY.replace('<FileSpec', 'a &nbsp; b<FileSpec'), 'undefined-entity'],
  ['a bare "&" in text', BODY.replace('<FileSpec', 'a & b<FileSpec'), 'bare-ampersand'],
  ['a reference to a non-character in text', BODY.replace('<FileSpec', '&#0;<FileSpec'), 'invalid-char-ref'],
];

for (const [label, text, code] of CASES) {
  test(`markup: ${label} is ${code}, parsed whole or in runs`, () => {
    for (const size of [Infinity, 1, 16]) assert.ok(codesOf(text, size).includes(code), `${codesOf(text, size)} at ${size}`);
  });
}

const CLEAN: Array<[string, string]> = [
  ['one declaration at the start, comments, PIs, predefined and character references', `<?xml version="1.0"?>\n<!-- a - b -->\n<?pi x="--"?>\n${BODY.replace('<FileSpec', 'a &amp; &#x41; &lt;<![CDATA[ & &x; ]]><FileSpec')}`],
  ['"&" and "--" inside attribute values, CDATA and PIs', BODY.replace('<FileSpec', '<Other a="x -- &amp;" b=\'&#38;\'/><![CDATA[<!-- -- -->]]><?pi & -- <?xml?><FileSpec')],
  ['a processing instruction whose target starts with xml', `<?xml version="1.0"?><?xml-stylesheet href="s.xsl"?>${BODY}`],
];

for (const [label, text] of CLEAN) {
  test(`markup: ${label} is clean`, () => {
    const markup = ['xml-declaration-misplaced', 'comment-double-hyphen', 'undefined-entity', 'bare-ampersand', 'invalid-char-ref', 'xml-malformed'];
    for (const size of [Infinity, 1]) assert.equal(codesOf(text, size).filter((c) => markup.includes(c)), [], `at ${size}`);
  });
}

test('markup: a ticket with many problems of a kind has one finding per kind', () => {
  const text = BODY.replace('<FileSpec', `${'&x; '.repeat(10_000)}<!-- -- --><!-- -- --><FileSpec`);
  const codes = codesOf(text);
  assert.is(codes.filter((c) => c === 'undefined-entity').length, 1);
  assert.is(codes.filter((c) => c === 'comment-double-hyphen').length, 1);
});

test('runs: "<?>" is a whole PI to the scanner as to the parser, so a damaged big ticket is malformed in runs too', () => {
  // Found by the damage fuzz of test/chunks.test.ts: the scanner took "<?>a ... </?>" as one PI and skipped it.
  const page = (i: number) => `<LayoutElement><FileSpec URL="p${i}.pdf"/></LayoutElement>\n`;
  const pages = Array.from({ length: 5000 }, (_, i) => page(i)).join('');
  const text = `<?xml version="1.0"?>\n<JDF Version="1.4"><ResourcePool><RunList Directory="file:///srv/hot/">${pages}<?>LayoutElement>${page(1)}</?>ayoutElement>${pages}</RunList></ResourcePool></JDF>`;
  assert.ok(text.length > 256 * 1024);
  const whole = codesOf(text, Infinity);
  assert.ok(whole.includes('xml-malformed'), String(whole));
  for (const size of [undefined, 1000, 8]) assert.equal(codesOf(text, size), whole, `at ${size}`);
});

test.run();
