// What the report calls fixed is what `fix` writes: a reference has `fixed` exactly when fix changes its value
// to it, and `fixRefused` (the fix and why) when fix leaves it. The refused shapes: a
// Directory with a backslash and no drive (on POSIX "\" is part of a name), a Windows path holding "%20" (a name
// with "%20" in it, or an escaped space?), a raw "#" (it may start a fragment). The oracle is the ticket fix
// wrote, read again.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { validateTicket } from '../src/index.js';
import { removeTempFolders, tempFolder } from './helpers.js';
import { runCli } from './in-process.js';

const dir = tempFolder('jfs-fix-decision-');

const REFUSED = ['file:///Jobs/Current\\', 'E:\\Jobs\\a%20b.pdf', 'file:///c:/a b#c.pdf'];
const TICKET = `<?xml version="1.0" encoding="UTF-8"?>
<JDF xmlns="http://www.CIP4.org/JDFSchema_1_1" Type="Product" ID="n" JobPartID="p" Status="Waiting" Version="1.3">
  <ResourcePool>
    <RunList ID="RL1" Class="Parameter" Status="Available" Directory="${REFUSED[0]}"><LayoutElement><FileSpec URL="a.pdf"/></LayoutElement></RunList>
    <RunList ID="RL2" Class="Parameter" Status="Available"><LayoutElement><FileSpec URL="${REFUSED[1]}"/></LayoutElement></RunList>
    <RunList ID="RL3" Class="Parameter" Status="Available"><LayoutElement><FileSpec URL="${REFUSED[2]}"/></LayoutElement></RunList>
    <RunList ID="RL4" Class="Parameter" Status="Available"><LayoutElement><FileSpec URL="file:///c:/a b.pdf"/></LayoutElement></RunList>
    <RunList ID="RL5" Class="Parameter" Status="Available" Directory="file:///srv/jobs/4711"><LayoutElement><FileSpec URL="x.pdf"/></LayoutElement></RunList>
  </ResourcePool>
</JDF>
`;

test('a reference has fixed exactly when fix writes it, and fixRefused with the reason when fix leaves it', async () => {
  const file = path.join(dir, 't.jdf');
  writeFileSync(file, TICKET);
  const shown = await runCli(['validate', '--format', 'json', file]);
  const before = (JSON.parse(shown.stdout) as { files: Array<{ references: Array<{ value: string; fixed?: string; fixRefused?: { fixed: string; reason: string } }> }> }).files[0]!.references;
  const fixed = await runCli(['fix', file]);
  assert.is(fixed.status, 1, 'the refused values leave their errors');
  const after = validateTicket(new Uint8Array(readFileSync(file)), { documentUri: pathToFileURL(file).href }).references;
  assert.is(after.length, before.length);
  before.forEach((ref, i) => {
    const now = after[i]!.value;
    if (ref.fixed !== undefined) assert.is(now, ref.fixed, `${ref.value}: the report's fixed is what fix wrote`);
    else assert.is(now, ref.value, `${ref.value}: no fixed in the report, and fix left it`);
  });
  const refused = before.filter((r) => r.fixRefused !== undefined);
  assert.equal(refused.map((r) => r.value), REFUSED);
  for (const r of refused) {
    assert.is(r.fixed, undefined);
    assert.ok(fixed.stderr.includes(`${JSON.stringify(r.fixRefused!.fixed)}: ${r.fixRefused!.reason}`), 'fix gives the same reason');
  }
  assert.ok(before.some((r) => r.fixed === 'file:///c:/a%20b.pdf'), 'a fix fix writes is still reported as fixed');
  assert.ok(before.some((r) => r.fixed === 'file:///srv/jobs/4711/'));
});

// XML 1.0 2.2: a surrogate is no Char, and encodeURIComponent refuses an unpaired one (ECMA-262 Encode, URIError),
// so no URL can name the Windows path; a ticket given as a string can hold one all the same. Bad input is data.
test('a Windows path holding an unpaired surrogate (a ticket given as a string) is reported, never a crash', () => {
  for (const value of ['C:\\Jobs\\a\uD800 b.pdf', '\\\\srv\\share\\a\uDC00.pdf']) {
    const ticket = `<JDF xmlns="http://www.CIP4.org/JDFSchema_1_1" Version="1.4"><ResourcePool><RunList ID="R" Directory="file:///c:/J/"><LayoutElement><FileSpec URL="${value}"/></LayoutElement></RunList></ResourcePool></JDF>`;
    const ref = validateTicket(ticket, {}).references.find((r) => r.attribute === 'URL');
    assert.ok(ref, value);
    assert.ok(ref.findings.some((f) => f.code === 'invalid-xml-char'), value);
  }
});

test.after(removeTempFolders);
test.run();
