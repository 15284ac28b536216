// A US-ASCII ticket's non-ASCII values get no fix, on purpose (README, "Fixing tickets"): "all encoded octets must
// use the encoding declared on the XML document header's encoding attribute" (JDF appendix section 3), and
// US-ASCII (RFC 20) has no octet above 127, so no escape names 'é' there. Such a ticket holds 'é' only as a
// character reference. The UTF-8 escape a US-ASCII-blind fix would write is read in the ticket's encoding as
// octets it lacks.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { decodeSegment } from '../src/escape/percent.js';
import { validateTicket } from '../src/index.js';
import { removeTempFolders, tempFolder } from './helpers.js';
import { runCli } from './in-process.js';

const dir = tempFolder('jfs-fix-us-ascii-');
const ticket = (url: string) => `<?xml version="1.0" encoding="US-ASCII"?>
<JDF xmlns="http://www.CIP4.org/JDFSchema_1_1" Type="Product" ID="n" JobPartID="p" Status="Waiting" Version="1.4">
  <ResourcePool><RunList ID="r" Class="Parameter" Status="Available"><LayoutElement><FileSpec URL="${url}"/></LayoutElement></RunList></ResourcePool>
</JDF>
`;

test('no fix for a non-ASCII character in a US-ASCII ticket; the message says what to do; fix leaves it', async () => {
  const text = ticket('file:///c:/r&#xE9;sum&#xE9;.pdf');
  const report = validateTicket(new Uint8Array(Buffer.from(text, 'ascii')));
  assert.is(report.encoding, 'US-ASCII');
  const ref = report.references[0]!;
  const f = ref.findings.find((x) => x.code === 'non-ascii')!;
  assert.is(f.fix, undefined);
  assert.is(ref.fixed, undefined);
  assert.match(f.message, 'US-ASCII');
  assert.match(f.message, 'UTF-8');
  const file = path.join(dir, 't.jdf');
  writeFileSync(file, text);
  await runCli(['fix', file]);
  assert.is(readFileSync(file, 'utf8'), text, 'left byte for byte');
});

test('why: the UTF-8 escape, read in the declared US-ASCII, is octets US-ASCII has none of', () => {
  // RFC 20: US-ASCII is 7 bits; Python agrees (b'\\xc3'.decode('ascii') raises UnicodeDecodeError).
  assert.is(decodeSegment('r%C3%A9sum%C3%A9.pdf', 'us-ascii').valid, false);
  assert.is(decodeSegment('r%E9sum%E9.pdf', 'us-ascii').valid, false);
  assert.is(decodeSegment('r%C3%A9sum%C3%A9.pdf', 'utf-8').text, 'r\u00e9sum\u00e9.pdf', 'in a UTF-8 ticket it is the name');
});

test.after(removeTempFolders);
test.run();
