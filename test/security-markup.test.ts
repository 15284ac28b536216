// Issue 20, MEDIUM and LOW: what fast-xml-parser accepts and XML does not, outside the values we read, is
// reported: a second XML declaration, "--" in a comment, an undefined entity or a bare "&" in text. The same
// checks run on tickets whose tree comes from our scan of the tags (src/ticket/xml/scan.ts), where nothing
// reaches the parser, and the scan reads "<?>" as the parser does (a whole PI), so a malformed ticket never
// passes clean.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { validateTicket } from '../src/index.js';
import type { RuleCode } from '../src/rules/codes.js';

const BODY = '<JDF Version="1.4"><ResourcePool><RunList Directory="file:///srv/hot/"><FileSpec URL="a.pdf"/></RunList></ResourcePool></JDF>';
const codesOf = (text: string, chunkChars?: number) => {
  const r = validateTicket(text, { documentUri: 'file:///srv/hot/t.jdf', ...(chunkChars ? { chunkChars } : {}) });
  return [...r.findings, ...r.references.flatMap((x) => x.findings)].map((f) => f.code);
};

const CASES: Array<[string, string, RuleCode]> = [
  ['a second XML declaration', `<?xml version="1.0"?>\n<?xml version="1.0" encoding="UTF-8"?>\n${BODY}`, 'xml-declaration-misplaced'],
  ['an XML declaration after white space', `\n<?xml version="1.0"?>${BODY}`, 'xml-declaration-misplaced'],
  ['an XML declaration after the root', `${BODY}<?XML version="1.0"?>`, 'xml-declaration-misplaced'],
  ['"--" in a comment in the prolog', `<?xml version="1.0"?>\n<!-- a -- b -->\n${BODY}`, 'comment-double-hyphen'],
  ['a comment ending "--->"', BODY.replace('<FileSpec', '<!-- x ---><FileSpec'), 'comment-double-hyphen'],
  ['an undefined entity in text', BODY.replace('<FileSpec', 'a &nbsp; b<FileSpec'), 'undefined-entity'],
  ['a bare "&" in text', BODY.replace('<FileSpec', 'a & b<FileSpec'), 'bare-ampersand'],
  ['a reference to a non-character in text', BODY.replace('<FileSpec', '&#0;<FileSpec'), 'invalid-char-ref'],
  // XML 1.0 3.1 (STag, Attribute, AttValue), 2.3 (Name), 2.4 (CharData), 4.1: in every tag, read by the walk or not.
  ['an unquoted value before the URL of a FileSpec', BODY.replace('<FileSpec URL', '<FileSpec X=bad URL'), 'tag-malformed'],
  ['an unquoted value in an element not read', BODY.replace('<FileSpec', '<X a=b/><FileSpec'), 'tag-malformed'],
  ['an element name that is not an XML Name', BODY.replace('<FileSpec', '<1bad/><FileSpec'), 'tag-malformed'],
  ['an attribute without a value', BODY.replace('URL="a.pdf"', 'URL="a.pdf" X'), 'tag-malformed'],
  ['attributes without white space between them', BODY.replace('URL="a.pdf"', 'URL="a.pdf"X="y"'), 'tag-malformed'],
  ['an end tag holding more than its name', BODY.replace('</RunList>', '</RunList x="y">'), 'tag-malformed'],
  ['a bare "&" in any attribute', BODY.replace('<FileSpec', '<X a="&"/><FileSpec'), 'bare-ampersand'],
  ['a "<" in any attribute', BODY.replace('<FileSpec', '<X a="<"/><FileSpec'), 'lt-in-attribute'],
  ['an undefined entity in any attribute', BODY.replace('<FileSpec', '<X a="&bogus;"/><FileSpec'), 'undefined-entity'],
  ['an undefined entity in an ID', BODY.replace('<RunList', '<RunList ID="&bogus;"'), 'undefined-entity'],
  ['"]]>" in text', BODY.replace('<FileSpec', 'a ]]> b<FileSpec'), 'cdata-end-in-text'],
];

for (const [label, text, code] of CASES) {
  test(`markup: ${label} is ${code}, parsed whole or in runs`, () => {
    for (const size of [Infinity, 1, 16]) assert.ok(codesOf(text, size).includes(code), `${codesOf(text, size)} at ${size}`);
  });
}

const CLEAN: Array<[string, string]> = [
  ['tags with white space around "=", single quotes, line breaks and non-ASCII names', BODY.replace('<FileSpec URL="a.pdf"/>', '<FileSpec URL = \'a.pdf\'\n  Status="Available" /><Ä-b.c:d é="&#xE9;&amp;"></Ä-b.c:d >')],
  ['one declaration at the start, comments, PIs, predefined and character references', `<?xml version="1.0"?>\n<!-- a - b -->\n<?pi x="--"?>\n${BODY.replace('<FileSpec', 'a &amp; &#x41; &lt;<![CDATA[ & &x; ]]><FileSpec')}`],
  ['"&" and "--" inside attribute values, CDATA and PIs', BODY.replace('<FileSpec', '<Other a="x -- &amp;" b=\'&#38;\'/><![CDATA[<!-- -- -->]]><?pi & -- <?xml?><FileSpec')],
  ['a processing instruction whose target starts with xml', `<?xml version="1.0"?><?xml-stylesheet href="s.xsl"?>${BODY}`],
];

for (const [label, text] of CLEAN) {
  test(`markup: ${label} is clean`, () => {
    const markup = ['xml-declaration-misplaced', 'comment-double-hyphen', 'undefined-entity', 'bare-ampersand', 'invalid-char-ref', 'xml-malformed', 'tag-malformed', 'lt-in-attribute', 'cdata-end-in-text'];
    for (const size of [Infinity, 1]) assert.equal(codesOf(text, size).filter((c) => markup.includes(c)), [], `at ${size}`);
  });
}

test('markup: a ticket with many problems of a kind has one finding per kind', () => {
  const text = BODY.replace('<FileSpec', `${'&x; '.repeat(10_000)}<!-- -- --><!-- -- --><FileSpec`);
  const codes = codesOf(text);
  assert.is(codes.filter((c) => c === 'undefined-entity').length, 1);
  assert.is(codes.filter((c) => c === 'comment-double-hyphen').length, 1);
});

test('markup: a problem of a value the walk reads is reported once, with its reference; others in the file once more', () => {
  const text = BODY.replace('URL="a.pdf"', 'URL="a&b.pdf"').replace('<RunList', '<RunList ID="r&1" ').replace('</RunList>', '<X a="&" b="&amp;&c"/></RunList>');
  const r = validateTicket(text, { documentUri: 'file:///srv/hot/t.jdf' });
  const where = (fs: typeof r.findings) => fs.filter((f) => f.code === 'bare-ampersand').map((f) => `${f.line}:${f.column}`);
  const url = text.indexOf('a&b') + 1;
  assert.equal(where(r.references.flatMap((x) => x.findings)), [`1:${url + 1}`]);
  // The ID's "&" comes first in the file; the URL's is its reference's; X's two are counted.
  assert.equal(where(r.findings), [`1:${text.indexOf('r&1') + 2}`]);
  assert.is(r.findings.find((f) => f.code === 'bare-ampersand')!.message, "A bare '&' is not allowed in XML; write it as &amp;.");
});

test('markup: an rRef\'s problem is reported once', () => {
  const text = '<JDF><ResourcePool><RunList ID="a&b"/><RunList><RunListRef rRef="a&b"/></RunList></ResourcePool></JDF>';
  const r = validateTicket(text, { documentUri: 'file:///srv/hot/t.jdf' });
  const at = r.findings.filter((f) => f.code === 'bare-ampersand').map((f) => f.column);
  assert.equal(at, [text.indexOf('a&b') + 2, text.lastIndexOf('a&b') + 2]);
});

test('scan: "<?>" is a whole PI to the scanner as to the parser, so a damaged big ticket is malformed when scanned too', () => {
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
