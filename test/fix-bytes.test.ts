// fixTicketBytes (no file system, for the browser page) gives the bytes `jdf-filespec fix` writes.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { fixTicketBytes } from '../src/ticket/fix-bytes.js';
import { projectRoot, removeTempFolders, tempFolder } from './helpers.js';
import { runCli } from './in-process.js';

const root = fileURLToPath(projectRoot);
const dir = tempFolder('jfs-fix-bytes-');

/** Runs `fix` on a copy of `original` and returns what it left in the file. */
async function cliFix(name: string, original: Buffer): Promise<Buffer> {
  const file = path.join(dir, name);
  writeFileSync(file, original);
  const r = await runCli(['fix', file], { encoding: 'utf8' });
  // 1: errors are left that fix cannot correct; 2 would be a file not read or written.
  assert.ok(r.status === 0 || r.status === 1, r.stderr);
  return readFileSync(file);
}

async function sameAsCli(name: string, original: Buffer): Promise<void> {
  const expected = await cliFix(name, original);
  const result = fixTicketBytes(new Uint8Array(original), { documentUri: pathToFileURL(path.join(dir, name)).href });
  const got = Buffer.from(result.fixed ?? original);
  assert.ok(got.equals(expected), `${name}: the bytes differ from fix's`);
  assert.is(result.fixed !== undefined, !expected.equals(original), `${name}: fixed is present exactly when fix changed the file`);
}

const samples = readdirSync(path.join(root, 'samples')).filter((f) => /\.(jdf|xjdf|jmf)$/.test(f));
for (const name of samples) {
  test(`fixTicketBytes gives fix's bytes on samples/${name}`, async () => {
    await sameAsCli(name, readFileSync(path.join(root, 'samples', name)));
  });
}

const TICKET = `<?xml version="1.0" encoding="UTF-8"?>
<JDF Version="1.2" ID='n1'><ResourcePool>
  <RunList ID="RL1" Directory='file:///srv/jobs/4711'>
    <LayoutElement><FileSpec URL="my docs/Müller &amp; Co.pdf"/></LayoutElement>
    <LayoutElement><FileSpec URL='art\\logo.eps'/></LayoutElement>
  </RunList>
</ResourcePool></JDF>
`;
const variants: Array<[string, Buffer]> = [
  ['crlf.jdf', Buffer.from(TICKET.replace(/\n/g, '\r\n'))],
  ['cr.jdf', Buffer.from(TICKET.replace(/\n/g, '\r'))],
  ['bom8.jdf', Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(TICKET)])],
  ['utf16le.jdf', Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(TICKET.replace('UTF-8', 'UTF-16'), 'utf16le')])],
  ['utf16be.jdf', Buffer.concat([Buffer.from([0xfe, 0xff]), Buffer.from(TICKET.replace('UTF-8', 'UTF-16'), 'utf16le').swap16()])],
  ['latin1.jdf', Buffer.from(TICKET.replace('UTF-8', 'ISO-8859-1'), 'latin1')],
];
for (const [name, bytes] of variants) {
  test(`fixTicketBytes gives fix's bytes on ${name}`, () => sameAsCli(name, bytes));
}

test('fixTicketBytes refuses malformed XML and bytes invalid in their encoding, as fix does', async () => {
  const malformed = fixTicketBytes(new TextEncoder().encode('<JDF><ResourcePool><FileSpec URL="a b.pdf"></JDF>'));
  assert.is(malformed.fixed, undefined);
  assert.is(malformed.refused, 'the XML is not well-formed');
  const invalid = fixTicketBytes(Uint8Array.from([...Buffer.from('<JDF><FileSpec URL="a b'), 0xff, ...Buffer.from('.pdf"/></JDF>')]));
  assert.is(invalid.fixed, undefined);
  assert.is(invalid.refused, 'the file does not decode in its declared encoding');
});

test('fixTicketBytes on a string fixes its UTF-8 bytes, the same as on those bytes', async () => {
  const text = TICKET.replace(/\n/g, '\r\n');
  const fromString = fixTicketBytes(text, { base: 'file:///srv/' });
  const fromBytes = fixTicketBytes(new TextEncoder().encode(text), { base: 'file:///srv/' });
  assert.ok(fromString.fixed !== undefined);
  assert.equal([...fromString.fixed!], [...fromBytes.fixed!]);
});

test.after(removeTempFolders);
test.run();
