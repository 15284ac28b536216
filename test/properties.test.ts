// Invariants under random input (fast-check). FC_RUNS raises the number of cases: FC_RUNS=100000 npm test.
import fc from 'fast-check';
import { test } from 'uvu';
import { resolveBySpec } from '../src/uri/resolve.js';
import { checkUrlBySpec as checkByRules } from '../src/check.js';
import { factsBySpec, KIND, scanFacts } from '../src/rules/facts.js';
import { escapeChar, escapeNonAscii } from '../src/escape/percent.js';
import * as assert from 'uvu/assert';
import { checkUrl, decodeSegment, escapeSegment, parseReference, recompose, removeDotSegments, resolveReference, validateTicket } from '../src/index.js';

const RUNS = Number(process.env.FC_RUNS ?? 2000);
const property = (name: string, prop: fc.IProperty<any> | fc.IAsyncProperty<any>, runs = RUNS) =>
  test(name, () => fc.assert(prop as fc.IProperty<any>, { numRuns: runs }));

// Strings built from the characters that matter to URLs, so that random cases hit the interesting paths.
const urlChar = fc.constantFrom(...'abcXYZ019-._~:/?#[]@!$&\'()*+,;=% \\|<>"{}^`\t\n\u00e9\u30ab'.split(''), '%2F', '%2e', '%00', '%E9', '..', '.', 'file:', '//', 'c:', 'C|');
const urlish = fc.array(urlChar, { maxLength: 24 }).map((parts) => parts.join(''));
const anyString = fc.oneof(urlish, fc.string({ maxLength: 40 }), fc.string({ unit: 'binary', maxLength: 40 }));
const pathChars = fc.array(fc.constantFrom('a', 'b', '.', '..', '/', '//', './', '../', '/.', '/..', 'c:', '?', '#', ':'), { maxLength: 16 }).map((p) => p.join(''));
const bases = fc.constantFrom('file:///c:/pub/jdf-folder/', 'file://machine1/folder1/', 'http://a/b/c/d;p?q', 'file:/x', 'file:///c:/foo.txt', 'cid:x', 'file:', 'a/b', '');

property('checkUrl never throws, on any string and any base', fc.property(anyString, bases, fc.constantFrom('jdf', 'rfc8089', 'lenient'), fc.constantFrom('url', 'directory'), (value, base, profile, role) => {
  checkUrl(value, { base, profile: profile as any, role: role as any });
}));

property('resolveReference never throws', fc.property(anyString, anyString, (r, b) => {
  resolveReference(r, b);
  resolveReference(r, b, { drivePreserving: true });
}));

property('a resolution parses again and is a fixed point: resolving it against any base gives it back', fc.property(urlish, bases, bases, (r, base, other) => {
  fc.pre(parseReference(base).scheme !== undefined);
  const target = resolveReference(r, base);
  assert.is(recompose(parseReference(target)), target);
  assert.is(resolveReference(target, other), target);
}));

property('the fast resolver gives exactly what RFC 3986 5.2 as written gives', fc.property(fc.oneof(urlish, pathChars), fc.oneof(bases, urlish.map((u) => 'file:///' + u)), fc.boolean(), (r, base, keepDrive) => {
  assert.is(resolveReference(r, base, { drivePreserving: keepDrive }), resolveBySpec(r, base, { drivePreserving: keepDrive }), `${r} against ${base}`);
}));

const plainChar = fc.constantFrom(...'aZ09-_.!*\'()~+,$@&=/'.split(''), 'CON', 'lpt1', 'x.', ' ', '%20', ':', '..');
const plainish = fc.array(plainChar, { minLength: 1, maxLength: 12 }).map((a) => a.join(''));
property('the plain-relative shortcut of checkUrl gives exactly what running every rule gives', fc.property(
  plainish,
  fc.constantFrom('file:///c:/pub/jdf-folder/', 'file://srv/share/', 'file:///c:/no-slash', 'http://a/b/', 'file:///x/.//'),
  fc.constantFrom('any', 'windows', 'mac', 'unix'),
  fc.constantFrom('jdf', 'rfc8089', 'lenient'),
  (value, base, platform, profile) => {
    const options = { base, platform: platform as any, profile: profile as any };
    assert.equal(checkUrl(value, options), checkByRules(value, options), `${value} against ${base} (${platform}, ${profile})`);
  },
));

property('one scan finds what asking the spec about each kind on its own finds', fc.property(fc.oneof(urlish, anyString, fc.array(fc.constantFrom('%C3', '%BC', '%E2', '%82', '%AC', '%F0', '%9F', '%ED', '%A0', '%C0', '%FF', 'a', '/', 'ü', '%41'), { maxLength: 10 }).map((a) => a.join(''))), (core) => {
  const fast = scanFacts(core);
  const spec = factsBySpec(core);
  for (const [name, kind] of Object.entries(KIND)) {
    assert.equal([fast.has(kind), fast.first(kind), fast.count(kind)], [spec.has(kind), spec.first(kind), spec.count(kind)], `${name} in ${JSON.stringify(core)}`);
  }
}));

property('escapeChar gives the UTF-8 octets TextEncoder gives, lone surrogates included', fc.property(fc.oneof(fc.integer({ min: 0, max: 0x10ffff }), fc.integer({ min: 0xd800, max: 0xdfff })), (cp) => {
  const ch = String.fromCodePoint(cp);
  const expected = [...new TextEncoder().encode(ch)].map((b) => '%' + b.toString(16).toUpperCase().padStart(2, '0')).join('');
  assert.is(escapeChar(ch), expected);
}));

property('escapeNonAscii escapes every character above 127 as its UTF-8 octets (TextEncoder) and keeps the rest', fc.property(fc.string({ unit: fc.oneof(fc.constantFrom('a', '/', '%', ' '), fc.string({ unit: 'binary', minLength: 1, maxLength: 1 })), maxLength: 20 }), (s) => {
  const octets = (ch: string) => [...new TextEncoder().encode(ch)].map((b) => '%' + b.toString(16).toUpperCase().padStart(2, '0')).join('');
  assert.is(escapeNonAscii(s), [...s].map((ch) => (ch.codePointAt(0)! < 128 ? ch : octets(ch))).join(''));
}));

// The single-scan checker (facts of one scan, clean fixes taken as they are, fixes composed in one pass) against
// the reference way (each rule scanning for itself, every fix checked again, fixes applied one at a time).
const jdfVersions = fc.constantFrom(undefined, '1.2', '1.4', '2.1');
const charsets = fc.constantFrom(undefined, 'utf-8', 'iso-8859-1');
const checkOptions = fc.record({
  base: fc.option(fc.oneof(bases, fc.constantFrom('file://HEIPC83231/PTJobs/Jobs/Brosch%C3%BCre/', 'file:///C:/Jobs/4711', 'file://srv/share/a/b/')), { nil: undefined }),
  profile: fc.constantFrom('jdf', 'rfc8089', 'lenient'),
  platform: fc.constantFrom('any', 'windows', 'mac', 'unix'),
  role: fc.constantFrom('url', 'directory'),
  jdfVersion: jdfVersions,
  charset: charsets,
  drivePreserving: fc.boolean(),
}, { requiredKeys: [] });
property('the single-scan checkUrl gives exactly what the reference way gives, on random strings', fc.property(fc.oneof(urlish, anyString), checkOptions, (value, options) => {
  assert.equal(checkUrl(value, options as any), checkByRules(value, options as any), `${JSON.stringify(value)} ${JSON.stringify(options)}`);
}));

// Every form of URL value that real tickets carry (the shapes seen in public tickets), each with and without a base.
const REAL_FORMS = [
  'pages/p1.pdf', 'Brosch%C3%BCre%2001/Logo%20final.pdf', 'my docs/p 1.pdf', '\\\\server\\share\\p1.pdf', 'pages\\p1.pdf',
  'Broschüre(88-0026)/Seite 1.pdf', 'file://kie-wf16prdy/PTJobs/Jobs/Job1/Content/p1.pdf', 'file:///C:/Jobs/4711/p1.pdf',
  'file:/C:/Jobs/4711/p1.pdf', 'http://10.1.0.150:8080/prodflow/content/p1.pdf', 'cid:part1@example.com', '../Shared/Fonts/f1.otf',
  'file:///c|/jobs/a.pdf', 'file://c:/jobs/a.pdf', 'C:\\Jobs\\a b.pdf', 'file://\\\\HOST\\share\\x.pdf', 'file:////host/share/a.pdf',
  'file://%5C%5CKIE-WF12PRDY%5CTestArea%5Ca.jdf', 'file:///Volumes/Data/Job 1/a.pdf', 'file://localhost/c:/a%20b.pdf', ' a.pdf ',
  'file://user:secret@host/a.pdf', 'ftp://u:p@cip4.org/a.pdf', 'a?b#c.pdf', 'file:///c:/a;1.pdf', '100%.pdf', 'caf%E9.pdf', 'file:///fo%00/bar',
  'a%2Fb.pdf', 'file:///c:/jobs/../a.pdf', './a.pdf', 'CON.pdf', 'file:///c:/x/final./a.pdf', 'Müller\\{1}^.pdf', 'file:file:///c:/a.pdf',
  'file://file:/c:/jobs/a.pdf', '', 'file:///c:/a%7B1%7D.pdf', 'file://[::1]/a.pdf', 'file://[fe80::1/a.pdf', 'a\tb.pdf',
];
property('the single-scan checkUrl gives exactly what the reference way gives, on every real URL form', fc.property(fc.constantFrom(...REAL_FORMS), checkOptions, (value, options) => {
  assert.equal(checkUrl(value, options as any), checkByRules(value, options as any), `${JSON.stringify(value)} ${JSON.stringify(options)}`);
}));

// The borders of what checkUrl takes as quiet without asking the rules (src/checker/plain.ts): hosts and segments
// near the plain ones (localhost, a dot, a reserved name, an empty segment, a backslash, a colon, a space), written
// as file://, //, \\\\ or relative, as values and as the values their fixes make.
const nearHost = fc.oneof(fc.constantFrom('srv', 'localhost', 'LocalHost', 'a.b', 'x_y~', '', 'c:', 'h o', 'Ü', '[::1]', 'h:8080', 'u@h'), fc.string({ unit: fc.constantFrom('a', 'Z', '0', '-', '.', '_', '~', '%'), maxLength: 6 }));
const nearSegment = fc.oneof(fc.constantFrom('a.pdf', 'CON', 'nul.txt', 'final.', 'x ', '.', '..', '.hidden', '', 'a:b', 'p%20q', 'ü', 'a\\b'), fc.string({ unit: fc.constantFrom('a', 'Z', '9', '.', '-', "'", '(', '$', '&', '=', '+', ',', ' '), maxLength: 5 }));
const nearPlain = fc.tuple(fc.constantFrom('file://', '//', '\\\\', '', 'FILE://', 'file:'), nearHost, fc.array(nearSegment, { minLength: 0, maxLength: 3 }), fc.constantFrom('/', '\\'))
  .map(([lead, host, segments, sep]) => lead + host + (segments.length > 0 ? sep + segments.join(sep) : ''));
property('checkUrl gives what the reference way gives near the values it takes as quiet', fc.property(nearPlain, checkOptions, (value, options) => {
  assert.equal(checkUrl(value, options as any), checkByRules(value, options as any), `${JSON.stringify(value)} ${JSON.stringify(options)}`);
}));

test('a plain relative path longer than the schemas allow is reported (url-too-long), as the reference way does', () => {
  const value = 'a/'.repeat(2100) + 'b.pdf';
  const fast = checkUrl(value, { base: 'file:///c:/jobs/' });
  assert.equal(fast, checkByRules(value, { base: 'file:///c:/jobs/' }));
  assert.equal(fast.findings.map((f) => f.code), ['url-too-long']);
});

test('a clean fix that makes the value longer than the schemas allow is checked again, as the reference way does', () => {
  for (const value of ['a'.repeat(4090) + ' b c d.pdf', 'Ü'.repeat(1400) + '.pdf', 'x'.repeat(4094) + ' ']) {
    const fast = checkUrl(value, { base: 'file:///c:/jobs/' });
    assert.equal(fast, checkByRules(value, { base: 'file:///c:/jobs/' }));
    assert.ok(fast.findings.length > 0, 'the case has findings');
  }
});

property('remove_dot_segments is idempotent and leaves no "." or ".." segment', fc.property(pathChars, (p) => {
  const once = removeDotSegments(p);
  assert.is(removeDotSegments(once), once);
  assert.not.ok(once.split('/').some((s) => s === '.' || s === '..'), `${p} -> ${once}`);
}));

property('no resolution turns a path into an authority', fc.property(pathChars, fc.constantFrom('file:/a/b', 'file:/', 'x:/.//y', 'file:c:/d/'), (r, base) => {
  fc.pre(!r.startsWith('//') && parseReference(r).scheme === undefined); // those carry an authority of their own
  const target = parseReference(resolveReference(r, base));
  assert.is(target.authority, undefined);
}));

// Differential against WHATWG URL (Node's URL) for http(s) bases. The filter keeps references where RFC 3986
// and WHATWG agree by design: no scheme, no network-path ("//g" gets a "/" path in WHATWG), no "%" (WHATWG
// decodes "%2e" as a dot), no backslash (WHATWG reads it as "/"), no characters WHATWG percent-encodes.
const segment = fc.constantFrom('g', 'h', '.', '..', 'x.y', 'a-b', '');
const query = fc.option(fc.constantFrom('?y', '?', '?a=b'), { nil: '' });
const frag = fc.option(fc.constantFrom('#s', '#', '#a/b'), { nil: '' });
const webRef = fc.tuple(fc.boolean(), fc.array(segment, { maxLength: 6 }), query, frag)
  .map(([abs, segs, q, f]) => (abs ? '/' : '') + segs.join('/') + q + f)
  .filter((r) => !r.startsWith('//'));
const webBase = fc.constantFrom('http://a/b/c/d;p?q', 'https://a/', 'http://a/b/', 'https://example.com/x/y/z', 'http://a/b/c/d/e/f/');

property('agrees with WHATWG URL on http(s) references where the two standards agree', fc.property(webRef, webBase, (r, base) => {
  assert.is(resolveReference(r, base), new URL(r, base).href, `${r} against ${base}`);
}));

property('decode(escape(s)) == s for any well-formed string', fc.property(fc.string({ unit: 'grapheme', maxLength: 30 }), (s) => {
  assert.is(decodeSegment(escapeSegment(s)).text, s);
}));

property('fixing converges: the fixed URL has nothing left to fix, and fixing again changes nothing', fc.property(anyString, fc.constantFrom('jdf', 'lenient'), (value, profile) => {
  const fixed = checkUrl(value, { profile: profile as any }).fixed;
  if (fixed === undefined) return;
  const again = checkUrl(fixed, { profile: profile as any });
  assert.is(again.fixed, undefined, `${JSON.stringify(value)} -> ${JSON.stringify(fixed)} -> ${JSON.stringify(again.fixed)}`);
}));

// Issue 26: a password in user information, in the spellings consumers read as one, among characters that draw
// fixes (backslashes, spaces, "%", "..", "#"): shown nowhere in what checkUrl and validateTicket return, the fixes
// of findings and the value's fixed one included (the backslash fix of ftp://host\user:p@evil/ kept it).
const SECRET = 'S3CRETpw';
const secretValue = fc.tuple(
  fc.constantFrom('ftp:', 'file:', 'http:', 'FTP:', ''),
  fc.constantFrom('//', '\\\\', '/', '', '////', '//\\\\'),
  fc.constantFrom('', 'host\\', 'host/', 'h o\\', 'c:\\'),
  fc.constantFrom('user', '', 'u\\v', 'a b'),
  fc.constantFrom('evil', 'h', 'c:', ''),
  fc.array(fc.constantFrom('/', '\\', ' ', 'a', '%', '.pdf', '..', '#', '?', '%20', '\u00e9'), { maxLength: 6 }),
).filter(([scheme, slashes]) => scheme !== '' || slashes !== '') // "user:p@h" is the scheme "user:", no authority
  .map(([scheme, slashes, before, user, host, rest]) => `${scheme}${slashes}${before}${user}:${SECRET}@${host}${rest.join('')}`);
const xmlAttribute = (v: string) => v.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/"/g, '&quot;');
property('a password is shown nowhere, in values, messages, fixes and fixed values', fc.property(secretValue, checkOptions, (value, options) => {
  const checked = JSON.stringify(checkUrl(value, options as any));
  assert.not.ok(checked.includes(SECRET), `${JSON.stringify(value)}: ${checked}`);
  const ticket = `<JDF Version="1.4"><ResourcePool><RunList Directory="file:///srv/hot/"><FileSpec URL="${xmlAttribute(value)}"/></RunList></ResourcePool></JDF>`;
  const report = JSON.stringify(validateTicket(ticket, { documentUri: 'file:///srv/t.jdf', profile: (options as any).profile }));
  assert.not.ok(report.includes(SECRET), `${JSON.stringify(value)}: ${report}`);
}));

property('validateTicket never throws on any bytes', fc.property(fc.uint8Array({ maxLength: 300 }), (bytes) => {
  validateTicket(bytes, { documentUri: 'file:///pub/t.jdf' });
}), Math.max(200, RUNS / 4));

const ticketPiece = fc.constantFrom('<JDF>', '</JDF>', '<RunList Directory="', '">', '<FileSpec URL="', '"/>', '<LayoutElementRef rRef="', 'x', '&amp;', '&#9;', '&', '<', ']]>', '<!--', '-->', '<!DOCTYPE JDF [<!ENTITY a "b">]>', '\r', '\n', '<?xml version="1.0" encoding="ISO-8859-1"?>', 'ID="L"');
property('validateTicket never throws on ticket-like text', fc.property(fc.array(ticketPiece, { maxLength: 30 }), (parts) => {
  validateTicket(parts.join(''), { documentUri: 'file:///pub/t.jdf' });
}), Math.max(200, RUNS / 4));

test.run();
