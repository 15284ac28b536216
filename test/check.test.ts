import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { checkUrl, decodeSegment, escapeSegment, MUST_ESCAPE } from '../src/index.js';
import { createFinding } from '../src/rules/finding.js';
import { loadData } from './helpers.js';

const appendix = loadData('jdf-appendix-examples.json');

// The forms real tickets carry (issue 2): each is an error under jdf, and `fixed` is a clean URL for the same file.
const REAL_FORMS: Array<[string, string]> = [
  ['file://\\\\HOST\\share\\x.pdf', 'file://HOST/share/x.pdf'],
  ['file://H:\\docs\\a b.pdf', 'file:///H:/docs/a%20b.pdf'],
  ['sub\\a.pdf', 'sub/a.pdf'],
  ['my docs/a.pdf', 'my%20docs/a.pdf'],
  ['c:\\Jobs\\a b.pdf', 'file:///c:/Jobs/a%20b.pdf'],
  ['\\\\srv\\share\\x.pdf', 'file://srv/share/x.pdf'],
  ['file:/c:/folder/a.pdf', 'file:///c:/folder/a.pdf'],
  ['file://c:/folder/a.pdf', 'file:///c:/folder/a.pdf'],
  ['file:///c:/my docs/a.pdf', 'file:///c:/my%20docs/a.pdf'],
  ['file:///c:\\folder\\a.pdf', 'file:///c:/folder/a.pdf'],
  ['file:///c%3a%2ffolder%2fa%2epdf', 'file:///c%3a/folder/a%2epdf'],
  ['file:c|/path/to/file', 'file:///c:/path/to/file'],
  [' file:///c:/a.pdf\t', 'file:///c:/a.pdf'],
  ['Müller 100%.pdf', 'M%C3%BCller%20100%25.pdf'],
  ['1st:proof.pdf', './1st:proof.pdf'],
];

for (const [value, fixed] of REAL_FORMS) {
  test(`${JSON.stringify(value)} is an error under jdf and fixes to ${fixed}`, () => {
    const r = checkUrl(value);
    assert.ok(r.findings.some((f) => f.severity === 'error'), 'an error');
    assert.is(r.fixed, fixed);
    const again = checkUrl(r.fixed!);
    assert.equal(again.findings.filter((f) => f.severity !== 'info' && f.code !== 'root-without-drive'), [], 'the fixed URL is clean');
  });
}

test('fixed is absent when nothing can be fixed', () => {
  assert.is(checkUrl('file:///c:/a.pdf').fixed, undefined);
  assert.is(checkUrl('file://a.pdf').fixed, undefined);
});

test('finding offsets point at the problem in the value', () => {
  const value = 'file:///c:/my docs/a.pdf';
  const f = checkUrl(value).findings.find((x) => x.code === 'unescaped-space')!;
  assert.is(value[f.offset!], ' ');
  const g = checkUrl('  file://c:/a.pdf').findings.find((x) => x.code === 'drive-letter-as-host')!;
  assert.is(g.offset, 9);
});

test('a password never appears in the result: value, resolved, messages, fixes', () => {
  for (const value of ['file://user:hunter2@host.example.com/my docs/a.pdf', 'ftp://u:hunter2@cip4.org/a b.pdf', 'file://user:hunter2@c:/x']) {
    const r = checkUrl(value, { base: 'file:///c:/pub/' });
    assert.ok(r.findings.some((f) => f.code === 'password-in-userinfo'));
    assert.not.ok(JSON.stringify(r).includes('hunter2'), JSON.stringify(r));
  }
  const rel = checkUrl('../../../a b.pdf', { base: 'file://u:hunter2@host/c:/x/' });
  assert.not.ok(JSON.stringify(rel).includes('hunter2'), JSON.stringify(rel));
});

test('Table 1: escapeSegment gives each listed escape', () => {
  for (const [ch, escaped] of appendix.escaping.mustEscape) assert.is(escapeSegment(ch), escaped, ch);
  for (const [ch, escaped] of appendix.escaping.nonAscii) assert.is(escapeSegment(ch), escaped, ch);
  assert.is(MUST_ESCAPE.size, appendix.escaping.mustEscape.length);
});

test('section 3: the safe specials and alphanumerics are not escaped', () => {
  const safe = appendix.escaping.safe.join('') + 'azAZ09';
  assert.is(escapeSegment(safe), safe);
});

test('control characters escape as %00-%1F and %7F', () => {
  assert.is(escapeSegment('\u0000\u001f\u007f'), '%00%1F%7F');
});

test('decoding is per segment and honours the charset (appendix section 3)', () => {
  assert.equal(decodeSegment('caf%C3%A9'), { text: 'café', valid: true });
  assert.is(decodeSegment('caf%E9').valid, false);
  assert.equal(decodeSegment('caf%E9', 'iso-8859-1'), { text: 'café', valid: true });
  assert.equal(decodeSegment('%80', 'windows-1252'), { text: '€', valid: true });
  assert.equal(decodeSegment('a%2Fb'), { text: 'a/b', valid: true });
});

test('an escaped non-UTF-8 octet is flagged in a UTF-8 ticket, not in a Latin-1 one', () => {
  assert.ok(checkUrl('caf%E9.pdf').findings.some((f) => f.code === 'invalid-escaped-octets'));
  assert.not.ok(checkUrl('caf%E9.pdf', { charset: 'iso-8859-1' }).findings.some((f) => f.code === 'invalid-escaped-octets'));
});

test('hosts: reg-name, IPv4, IPv6 literal, localhost', () => {
  assert.is(checkUrl('file://[2001:db8::7]/a.pdf').host, '[2001:db8::7]');
  assert.equal(checkUrl('file://[2001:db8::7]/a.pdf').findings, []);
  assert.ok(checkUrl('file://[2001:db8::7::1]/a.pdf').findings.some((f) => f.code === 'invalid-host'));
  assert.is(checkUrl('file://LOCALHOST/c:/a.pdf').local, true);
  assert.is(checkUrl('File://212.34.55.66/folder/a.pdf').host, '212.34.55.66');
});

test('checkUrl never throws on odd strings', () => {
  for (const v of ['\ud800', '%', '%%', '//', ':', '::', '[', 'file://[', 'file:', '?', '#', '\u0000', 'a'.repeat(100000), '%'.repeat(200000), '../'.repeat(100000)]) {
    checkUrl(v, { base: 'file:///c:/x/' });
    checkUrl(v, { role: 'directory', base: v });
  }
});

// Diagnostics are data (issue 12): a finding keeps the arguments its sentence is made from.
test('a finding carries its args: the count and the first character of unescaped-space', () => {
  const f = checkUrl('file:///c:/my docs/a b.pdf').findings.find((x) => x.code === 'unescaped-space');
  assert.equal(f?.args, { count: 2, char: "' '" });
  assert.is(f?.message, 'The URL holds 2 spaces, which a URL may not contain; write each as %20.');
});

test('args never hold a password: a resolved URL in drive-lost-in-resolution is masked like the message', () => {
  const f = checkUrl('/other/a.pdf', { base: 'ftp://user:secret@host/c:/pub/' }).findings.find((x) => x.code === 'drive-lost-in-resolution');
  assert.ok(f, 'drive-lost-in-resolution');
  assert.not.ok(JSON.stringify(f).includes('secret'), JSON.stringify(f));
});

test('findings of one code say what their own arguments say, after one with other arguments, and after the caller changes its object', () => {
  const words = (v: string) => checkUrl(v).findings.find((f) => f.code === 'unescaped-space')!.message;
  assert.match(words('a b.pdf'), 'holds a space');
  assert.match(words('a b c.pdf'), 'holds 2 spaces');
  assert.match(words('x y.pdf'), 'holds a space');
  const args: Record<string, string | number> = { count: 5, char: "' '" };
  assert.match(createFinding('unescaped-space', args).message, 'holds 5 spaces');
  args.count = 3;
  assert.match(createFinding('unescaped-space', args).message, 'holds 3 spaces');
});

test.run();
