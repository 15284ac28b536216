// Issue 20, HIGH: a DOCTYPE's internal subset can give a URL attribute a default (XML 1.0 3.3.2) that
// DTD-aware consumers apply: <!ATTLIST FileSpec URL CDATA "file:///etc/passwd"> names a file the ticket does
// not show. Every such default (and every parameter-entity reference, which may declare one) is an error;
// nothing is ever expanded.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { validateTicket } from '../src/index.js';
import { parseUrlAttribute } from '../src/ticket/vocabulary.js';
import { removeTempFolders, tempFolder } from './helpers.js';
import { runCli } from './in-process.js';

const BODY = '<JDF Version="1.4"><ResourcePool><RunList Directory="file:///srv/hot/"><LayoutElement><FileSpec/></LayoutElement></RunList></ResourcePool></JDF>';
const withSubset = (subset: string) => `<?xml version="1.0"?>\n<!DOCTYPE JDF [\n${subset}\n]>\n${BODY}`;
const defaults = (text: string) => validateTicket(text, { documentUri: 'file:///srv/hot/t.jdf' }).findings.filter((f) => f.code === 'doctype-attribute-default');

const FLAGGED: Array<[string, string]> = [
  ['a CDATA default for FileSpec/@URL', '<!ATTLIST FileSpec URL CDATA "file:///etc/passwd">'],
  ['a #FIXED FileSpec/@URL', '<!ATTLIST FileSpec URL CDATA #FIXED "file:///etc/passwd">'],
  ['single quotes', "<!ATTLIST FileSpec URL CDATA 'file:///etc/passwd'>"],
  ['a prefixed element type', '<!ATTLIST jdf:FileSpec URL CDATA "file:///etc/passwd">'],
  ['URL second of several definitions', '<!ATTLIST FileSpec Status (Available|Unavailable) "Available"\n  URL CDATA "file:///etc/passwd">'],
  ['an enumerated type', '<!ATTLIST FileSpec URL (file:///etc/passwd) "file:///etc/passwd">'],
  ['a RunList/@Directory', '<!ATTLIST RunList Directory CDATA "file:///etc/">'],
  ['an rRef', '<!ATTLIST LayoutElementRef rRef IDREF "LE9">'],
  ['after a comment holding "]>" and a quote', "<!-- ]> don't -->\n<!ATTLIST FileSpec URL CDATA \"file:///etc/passwd\">"],
  ['after a PI', '<?pi ]> ?>\n<!ATTLIST FileSpec URL CDATA "file:///etc/passwd">'],
  ['a parameter entity that declares it', `<!ENTITY % d "<!ATTLIST FileSpec URL CDATA 'file:///etc/passwd'>">\n%d;`],
];

for (const [label, subset] of FLAGGED) {
  test(`doctype: ${label} is a doctype-attribute-default error`, async () => {
    const found = defaults(withSubset(subset));
    assert.ok(found.length >= 1, 'reported');
    assert.ok(found.every((f) => f.severity === 'error'));
  });
}

const CLEAN: Array<[string, string]> = [
  ['#IMPLIED', '<!ATTLIST FileSpec URL CDATA #IMPLIED>'],
  ['#REQUIRED', '<!ATTLIST FileSpec URL CDATA #REQUIRED>'],
  ['a default for an attribute we do not read', '<!ATTLIST FileSpec Status CDATA "Available" MimeType CDATA "application/pdf">'],
  ['a default inside a comment', '<!-- <!ATTLIST FileSpec URL CDATA "file:///etc/passwd"> -->'],
  ['a general entity with "%" in its value', '<!ENTITY pc "100%d;">'],
];

for (const [label, subset] of CLEAN) {
  test(`doctype: ${label} is not a doctype-attribute-default`, async () => {
    assert.equal(defaults(withSubset(subset)), []);
  });
}

test('doctype: the finding names the element, attribute and value, and points at the declaration', async () => {
  const text = withSubset('<!ATTLIST FileSpec URL CDATA "file:///etc/passwd">');
  const [f] = defaults(text);
  assert.match(f!.message, 'FileSpec/@URL');
  assert.match(f!.message, 'file:///etc/passwd');
  assert.is(f!.line, 3);
  assert.is(f!.column, 1);
});

test('doctype: a default for an attribute the ticket is read for by --url-attribute (or the config) is reported', async () => {
  const text = withSubset('<!ATTLIST Device HDM:Hotfolder CDATA "file:///evil/">');
  const rows = [parseUrlAttribute('Device/@HDM:Hotfolder=directory')!];
  const found = validateTicket(text, { documentUri: 'file:///srv/hot/t.jdf', urlAttributes: rows }).findings.filter((f) => f.code === 'doctype-attribute-default');
  assert.is(found.length, 1);
  assert.ok(found[0]!.message.includes('"file:///evil/" for Device/@HDM:Hotfolder'), found[0]!.message);
  // Without the row, nobody here reads that attribute: not ours to report.
  assert.equal(defaults(text), []);
});

test('doctype: a password in a default is masked', async () => {
  const [f] = defaults(withSubset('<!ATTLIST FileSpec URL CDATA "ftp://u:hunter2@h/a.pdf">'));
  assert.not.match(f!.message, 'hunter2');
});

test('doctype: the CLI exits 1 on a ticket whose only URL comes from the DOCTYPE', async () => {
  const dir = tempFolder('jfs-doctype-');
  const file = path.join(dir, 'attlist.jdf');
  writeFileSync(file, withSubset('<!ATTLIST FileSpec URL CDATA "file:///etc/passwd">'));
  const r = await runCli(['validate', file], { encoding: 'utf8' });
  assert.is(r.status, 1);
  assert.match(r.stdout, 'doctype-attribute-default');
});

test.after(removeTempFolders);
test.run();
