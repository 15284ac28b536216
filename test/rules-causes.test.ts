// Issue 28, section 3: one cause, one finding (src/rules/causes.ts). Expected findings are hand-built: a UNC
// path's backslashes are its own separators (RFC 8089 E.3.1), and the readings are worked out by hand from RFC 3986
// 5.2 (a "\" is a name character), the WHATWG URL standard (in a special scheme "\" is a separator) and JDFLibJ's
// string join (Directory + URL).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { checkUrl, validateTicket } from '../src/index.js';
import { ONE_CAUSE, TWO_CAUSES } from '../src/rules/causes.js';
import { ruleCatalog } from '../src/index.js';

const codesOf = (value: string) => checkUrl(value).findings.map((f) => f.code);

test('a UNC path after file://: its backslashes are the UNC finding\'s, not a second finding', () => {
  assert.equal(codesOf('file://\\\\HOST\\share\\x.pdf'), ['unc-in-authority']);
  assert.is(checkUrl('file://\\\\HOST\\share\\x.pdf').fixed, 'file://HOST/share/x.pdf');
});

test('a UNC path as a URL: one finding, whose fix writes every separator', () => {
  assert.equal(codesOf('\\\\srv\\jobs\\a.pdf'), ['unc-path-as-url']);
  assert.is(checkUrl('\\\\srv\\jobs\\a.pdf').fixed, 'file://srv/jobs/a.pdf');
});

test('a backslash the UNC fix leaves (in the query) is still reported', () => {
  assert.ok(codesOf('file://\\\\HOST\\share\\x.pdf?a\\b').includes('backslash'));
});

test('pairs of two causes keep both findings', () => {
  assert.equal(codesOf('File://D:\\x\\a.pdf').sort(), ['backslash', 'drive-letter-as-host']);
  assert.equal(codesOf('E:\\x\\a.pdf').sort(), ['backslash', 'drive-letter-as-scheme']);
  assert.equal(codesOf('file:/Users/a.pdf').sort(), ['file-without-authority', 'root-without-drive']);
});

const ticket = (directory: string, url: string) =>
  `<JDF Version="1.4"><ResourcePool><RunList ID="r" Class="Parameter" Status="Available" Directory="${directory}"><LayoutElement><FileSpec URL="${url}"/></LayoutElement></RunList></ResourcePool></JDF>`;
const fileSpecFindings = (text: string) => validateTicket(text).references.find((r) => r.attribute === 'URL')!.findings;

test('readings that differ only because of the backslashes go into the backslash finding', () => {
  const found = fileSpecFindings(ticket('file:///c:/jobs/', 'sub\\a.pdf'));
  assert.equal(found.map((f) => f.code), ['backslash']);
  assert.is(found[0]!.args?.readings,
    'strict RFC 3986 file:///c:/jobs/sub\\a.pdf; RFC 8089 E.2.1 file:///c:/jobs/sub\\a.pdf; WHATWG URL file:///c:/jobs/sub/a.pdf; string join file:///c:/jobs/sub\\a.pdf');
  assert.ok(found[0]!.message.includes('consumers open different files: strict RFC 3986 file:///c:/jobs/sub\\a.pdf;'), found[0]!.message);
});

test('a UNC path under a Directory: its readings go into unc-path-as-url', () => {
  const found = fileSpecFindings(ticket('file:///c:/jobs/', '\\\\srv\\a.pdf'));
  assert.equal(found.map((f) => f.code), ['unc-path-as-url']);
  assert.ok(String(found[0]!.args?.readings).includes('WHATWG URL file://srv/a.pdf'), String(found[0]!.args?.readings));
});

test('readings that still differ with "/" for "\\" have another cause (the Directory): consumers-disagree stays', () => {
  const found = fileSpecFindings(ticket('file:///c:/jobs', 'sub\\a.pdf'));
  assert.equal(found.map((f) => f.code).sort(), ['backslash', 'consumers-disagree']);
  assert.is(found.find((f) => f.code === 'backslash')!.args?.readings, undefined);
});

test('every settled pair names rules of the catalog, and says why', () => {
  const codes = new Set(ruleCatalog.map((m) => m.code));
  for (const p of ONE_CAUSE) assert.ok(codes.has(p.cause) && codes.has(p.effect) && p.why.length > 0, `${p.cause} ${p.effect}`);
  for (const p of TWO_CAUSES) assert.ok(codes.has(p.pair[0]) && codes.has(p.pair[1]) && p.why.length > 0, p.pair.join(' '));
});

test.run();
