// Issue 20, MEDIUM: `fix` turned Directory="&d;" into "&amp;d%3B", changing what a DTD-aware consumer reads.
// A value holding an entity reference (other than the five predefined ones), a character reference to a
// non-character or a bare "&" is never rewritten; it is reported as not fixed.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { fixFile } from '../src/node/fix.js';
import { planFixes } from '../src/ticket/rewrite.js';
import { validateTicket } from '../src/index.js';
import { removeTempFolders, tempFolder } from './helpers.js';

const ticket = (runList: string, url: string) => `<JDF Version="1.4"><ResourcePool><RunList Directory="${runList}"><FileSpec URL="${url}"/></RunList></ResourcePool></JDF>`;
const plan = (text: string) => planFixes(text, validateTicket(text, { documentUri: 'file:///srv/hot/t.jdf' }));

const NEVER: Array<[string, string, string]> = [
  // [label, Directory, URL]; the value under test needs a fix (a space, a missing "/") so that one is offered.
  ['an undefined entity in a Directory', '&d;', 'a.pdf'],
  ['an undefined entity in a URL', 'file:///srv/', '&x; b.pdf'],
  ['a character reference to NUL', 'file:///srv/', 'a b&#0;.pdf'],
  ['a bare "&"', 'file:///srv/', 'a b&c.pdf'],
];

for (const [label, directory, url] of NEVER) {
  test(`entity rewrite: ${label} is reported as not fixed, never rewritten`, () => {
    const text = ticket(directory, url);
    const p = plan(text);
    const value = directory.includes('&') ? directory : url;
    assert.not.ok(p.edits.some((e) => text.slice(e.span[0], e.span[1]) === value), 'no edit of the value');
    assert.ok(p.skipped.some((s) => /reference/.test(s.reason)), 'reported as not fixed');
  });
}

test('entity rewrite: predefined and character references are still fixed around', () => {
  const text = ticket('file:///srv/', 'a b&amp;c&#x20;d.pdf');
  assert.equal(plan(text).edits.map((e) => e.written), ['a%20b&amp;c%20d.pdf']);
});

test('entity rewrite: fix leaves the file byte for byte when its only fixable value holds "&d;"', async () => {
  const dir = tempFolder('jfs-secent-');
  const file = path.join(dir, 't.jdf');
  const text = ticket('&d;', 'a.pdf');
  writeFileSync(file, text);
  const outcome = await fixFile(file, { dryRun: false, backup: false, validate: {} });
  assert.is(outcome.written, false);
  assert.is(readFileSync(file, 'utf8'), text);
});

test.after(removeTempFolders);
test.run();
