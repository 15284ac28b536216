// detectPackage reads bytes, not a string made of them. Its oracle here is the reading RFC 5322 2.2 and RFC 2046
// 5.1.1 give as regular expressions over the first 16 KiB as ISO-8859-1 text (one character per byte): a header
// of field lines that names a multipart Content-Type or a MIME-Version, or a body that starts with a boundary
// line followed by a field line. fast-check holds the two equal on inputs built from the pieces that matter.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import fc from 'fast-check';
import { detectPackage } from '../src/index.js';

function byRegex(head: Uint8Array): 'mime' | 'zip' | null {
  if (head.length >= 4 && head[0] === 0x50 && head[1] === 0x4b) return detectPackage(head); // zips: not this test's
  let text = '';
  for (const b of head.subarray(0, 16 * 1024)) text += String.fromCharCode(b);
  const headerEnd = text.search(/\r?\n\r?\n/);
  const header = headerEnd === -1 ? text : text.slice(0, headerEnd);
  if (/^[!-9;-~]+:/.test(header) && /^(content-type:[ \t]*multipart\/|mime-version:)/im.test(header)) return 'mime';
  if (/^--[0-9A-Za-z'()+_,\-./:=?]{1,70}[ \t]*\r?\n[!-9;-~]+:/.test(text)) return 'mime';
  return null;
}

const pieces = ['Content-Type:', 'content-type: ', 'CONTENT-TYPE:\t', 'multipart/related', 'MULTIPART/', 'text/xml', 'MIME-Version: 1.0',
  'mime-version:', '--', '--b0undary', 'x'.repeat(69), 'x'.repeat(71), ' ', '\t', '\r', '\n', '\r\n', ':', '<?xml version="1.0"?>', '<JDF',
  'Subject:', 'é', '\u00ff', '(', '?', '=', '/'];
const input = fc.array(fc.oneof(fc.constantFrom(...pieces), fc.string({ maxLength: 3 })), { maxLength: 24 })
  .map((parts) => Uint8Array.from(parts.join(''), (c) => c.charCodeAt(0) & 0xff));

test('detectPackage on bytes agrees with the RFC 5322 / RFC 2046 reading over text', () => {
  fc.assert(fc.property(input, (head) => detectPackage(head) === byRegex(head)), { numRuns: Number(process.env.FC_RUNS) || 20000 });
});

test('detectPackage: the shapes of real packages and tickets', () => {
  const bytes = (s: string) => Uint8Array.from(s, (c) => c.charCodeAt(0));
  assert.is(detectPackage(bytes('MIME-Version: 1.0\r\nContent-Type: multipart/related; boundary="b"\r\n\r\n--b\r\n')), 'mime');
  assert.is(detectPackage(bytes('Content-Type: Multipart/Related; boundary=x\n\n--x\n')), 'mime');
  assert.is(detectPackage(bytes('--abc123\r\nContent-Type: application/vnd.cip4-jdf+xml\r\n\r\n<JDF/>')), 'mime');
  assert.is(detectPackage(bytes('<?xml version="1.0" encoding="UTF-8"?>\n<JDF Version="1.4"/>')), null);
  assert.is(detectPackage(bytes('Subject: hello\r\n\r\nMIME-Version: 1.0\r\n')), null); // after the header: body text
  assert.is(detectPackage(bytes(`--${'b'.repeat(71)}\r\nContent-Type: text/xml\r\n`)), null); // a boundary is at most 70
  assert.is(detectPackage(Uint8Array.of(0x50, 0x4b, 0x03, 0x04, 0, 0, 0, 0)), 'zip');
});

test.run();
