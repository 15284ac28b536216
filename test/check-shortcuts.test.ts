// The values checkUrl answers from the value their fixes make, without running the rules on them (src/checker/unc.ts,
// src/checker/drive.ts, src/checker/relative.ts, the Directory answer in src/check.ts): UNC paths after file://, Windows
// drive paths, relative names with raw spaces or "\\" separators, bare UNC paths and Directories without their
// trailing "/", and their near misses, held equal to the reference way (every rule asked, every fix checked again),
// with the standard forms RFC 8089 and the appendix give for a few.
import fc from 'fast-check';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { checkUrl, checkUrlBySpec } from '../src/check.js';

const RUNS = Number(process.env.FC_RUNS ?? 3000);

// Mostly names no rule reports on, so that the fixed value is often quiet and the answer is taken without the rules.
const plainSegment = fc.oneof(fc.constantFrom('a', 'Jobs', 'x.pdf', 'PTConfig', 'a%20b', 'M%C3%BCller', 'a&b', '(1)'), fc.stringMatching(/^[A-Za-z0-9][A-Za-z0-9._~-]{0,5}$/));
const oddSegment = fc.oneof(
  fc.constantFrom('CON', 'nul.txt', 'a.', 'name ', 'a b', 'My Docs', '%20', '%2E%2E', '.a', '.', '..', '', 'a:b', 'c:', '%25', '%2F', '%00', '%E9', 'q@r',
    'u:p@h', '?', 'a#b', '$$X$$', '\t', 'ü', 'Broschüre', '\u00a0', 'a\ud800', '€', 'Łódź', 'localhost', 'a;b', '{x}', 'a|b', 'x'.repeat(700)),
  fc.string({ unit: fc.constantFrom('a', 'Z', '9', '.', '-', '_', '~', ' ', 'é', '%'), maxLength: 6 }),
);
const segment = fc.oneof({ arbitrary: plainSegment, weight: 3 }, { arbitrary: oddSegment, weight: 1 });
const separator = fc.constantFrom('\\', '\\', '\\', '/', '\\\\', '%5C', '%5c');
const path = fc.tuple(fc.array(fc.tuple(separator, segment), { minLength: 1, maxLength: 5 }), fc.boolean())
  .map(([parts, trailing]) => parts.map(([sep, s], i) => (i === 0 ? s : sep + s)).join('') + (trailing ? '\\' : ''));
const lead = fc.constantFrom('E:/', 'C:/', 'file://\\', 'file://\\\\', 'FILE://\\\\\\', 'file://%5C%5C', 'file:\\\\', '\\\\', 'E:\\', 'c:\\', 'e|\\', 'E:', 'File://D:\\',
  'file://d:\\', 'file://D|\\', 'file://D:', 'file:///D:\\', 'file:D:\\');
const windowsValue = fc.tuple(lead, path, fc.constantFrom('', '', ' ', '/')).map(([l, p, end]) => l + p + end);

const directoryLead = fc.constantFrom('file://h/', 'file:///c:/', 'FILE:///D:/', 'file://KIE-STRESS-P2/', 'http://h/', 'http://h', 'http://h:80', 'https://x.y/',
  'ftp://f/', 'file:///', 'file://localhost/', 'file://c:/', 'file://h', 'file:///c|/', 'http://h?', '//h/', 'a/', 'file:/h/');
const directoryValue = fc.tuple(directoryLead, fc.array(segment, { minLength: 0, maxLength: 4 }), fc.constantFrom('', '', '/')).map(([l, s, end]) => l + s.join('/') + end);

const options = fc.record({
  base: fc.constantFrom('file:///c:/pub/', 'file://srv/share/a', 'http://a/b/c/d;p?q'),
  profile: fc.constantFrom('jdf', 'rfc8089', 'lenient'),
  platform: fc.constantFrom('any', 'windows', 'mac', 'unix'),
  role: fc.constantFrom('url', 'directory'),
  charset: fc.constantFrom('utf-8', 'iso-8859-1', 'windows-1252', 'us-ascii'),
  jdfVersion: fc.constantFrom('1.2', '1.3', '2.0', 'x'),
  localHosts: fc.constant(['SRV', 'h']),
}, { requiredKeys: [] });

const sameAsReference = (value: string, o: object) =>
  assert.equal(checkUrl(value, o as any), checkUrlBySpec(value, o as any), `${JSON.stringify(value)} ${JSON.stringify(o)}`);

test('UNC paths after file://, Windows drive paths and their near misses: checkUrl gives what the reference way gives', () => {
  fc.assert(fc.property(windowsValue, options, sameAsReference), { numRuns: RUNS });
});

test('Directories without their trailing "/", raw non-ASCII among them, and their near misses: as the reference way', () => {
  fc.assert(fc.property(directoryValue, options, (value, o) => sameAsReference(value, { ...o, role: 'directory' })), { numRuns: RUNS });
});

// Relative names a Windows user typed (src/checker/relative.ts): raw spaces, "\\" separators, a bare UNC path, and their
// near misses (a "/" among the "\\", an empty or dot name, escapes, leading or trailing spaces, other leads).
const nameSegment = fc.oneof({ arbitrary: plainSegment, weight: 2 }, { arbitrary: oddSegment, weight: 1 },
  { arbitrary: fc.constantFrom('p 0000000.pdf', 'my docs', 'a  b', 'Seite 1 (neu).pdf', 'x+y=z', 'a.b c', 'WILL BE SET BY ALCES', 'SET BY X', 'A WILL BE REPLACED BY B1'), weight: 2 });
const relativeLead = fc.constantFrom('', '', '', '\\\\', '\\\\', '\\', '\\\\\\', './', '../', '/', '//', 'C:', ' ', 'a:');
const relativeSeparator = fc.constantFrom('\\', '\\', '/', '/', '\\\\', '%5C');
const relativeNearMiss = fc.constantFrom('WILL BE SET BY ALCES', 'WILL BE REPLACED BY X', '\\\\server/share/p 1.pdf', 'a\\b/c d', 'p 1.pdf ', ' p 1.pdf', 'a\\ b',
  'a/../b c', '../b c', './b c', '..\\b c', '.a b');
const generatedRelative = fc.tuple(relativeLead, fc.array(fc.tuple(relativeSeparator, nameSegment), { minLength: 1, maxLength: 5 }), fc.constantFrom('', '', '', ' ', '\\', '/', '?q', '#f'))
  .map(([l, parts, end]) => l + parts.map(([sep, s], i) => (i === 0 ? s : sep + s)).join('') + end);
const relativeValue = fc.oneof({ arbitrary: generatedRelative, weight: 9 }, { arbitrary: relativeNearMiss, weight: 1 });
const relativeOptions = fc.record({
  base: fc.constantFrom('file:///c:/Jobs/4711/', 'file://srv/share/', 'http://a/b/c/d;p?q', 'file:///c:/Jobs/4711', 'file://u:pw@srv/a/', 'https://h/x/', 'file://localhost/d:/x/', 'a/b/'),
  profile: fc.constantFrom('jdf', 'rfc8089', 'lenient'),
  platform: fc.constantFrom('any', 'windows', 'mac', 'unix'),
  role: fc.constantFrom('url', 'url', 'url', 'directory'),
  charset: fc.constantFrom('utf-8', 'iso-8859-1', 'us-ascii'),
  jdfVersion: fc.constantFrom('1.2', '1.4', '2.0'),
  localHosts: fc.constant(['SRV', 'h']),
}, { requiredKeys: [] });

test('relative names with raw spaces or "\\" separators, bare UNC paths and their near misses: as the reference way', () => {
  fc.assert(fc.property(relativeValue, relativeOptions, sameAsReference), { numRuns: RUNS });
});

test('each answer carries the standard form RFC 8089 and the appendix give as its fixed value', () => {
  const fixed = (value: string, o = {}) => checkUrl(value, o).fixed;
  // RFC 8089 E.3.1: \\server\share\a.pdf is file://server/share/a.pdf; Table 4 example 23: a space is %20.
  assert.is(fixed('file://\\\\HOST\\share\\my docs\\x.pdf'), 'file://HOST/share/my%20docs/x.pdf');
  // Appendix 2.2: a Directory ends with "/".
  assert.is(fixed('file://\\\\HOST\\share\\dir', { role: 'directory' }), 'file://HOST/share/dir/');
  assert.is(fixed('file:///c:/DownloadDir/Title-J626103', { role: 'directory' }), 'file:///c:/DownloadDir/Title-J626103/');
  // Table 1: Ä is %C3%84 in a UTF-8 ticket (JDF 1.2); from JDF 1.3 the raw character is an IRI, left as it is.
  assert.is(fixed('file://srv/Ä', { role: 'directory', jdfVersion: '1.2' }), 'file://srv/%C3%84/');
  assert.is(fixed('file://srv/Ä', { role: 'directory', jdfVersion: '1.3' }), 'file://srv/Ä/');
  // Table 3 and Table 4 example 22, RFC 8089 E.2: the drive belongs in the path of file:///.
  assert.is(fixed('E:\\JDFs\\a.ppf'), 'file:///E:/JDFs/a.ppf');
  assert.is(fixed('File://D:\\Busy\\a.jmf'), 'File:///D:/Busy/a.jmf');
  // Table 4 examples 23 and 24, RFC 8089 E.4 and E.3.1: spaces %20, "\\" separators "/", a UNC path a file URL.
  const under = { base: 'file:///c:/Jobs/4711/' };
  assert.is(fixed('p 1.pdf', under), 'p%201.pdf');
  assert.is(fixed('pages\\p 1.pdf', under), 'pages/p%201.pdf');
  assert.is(fixed('\\\\server\\share\\p 1.pdf', under), 'file://server/share/p%201.pdf');
});

test.run();
