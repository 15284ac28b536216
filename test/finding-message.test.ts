// Issue 33, section 2: a finding's words are made when read. The sentence is not an own property of the finding
// (a report of 100,000 findings holds none until something reads one), yet JSON.stringify writes it in its
// place, a spread copy gets it from messageOf, and a copy that keeps the prototype still has it.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { checkUrl, messageOf, validateTicket } from '../src/index.js';
import { copyFinding } from '../src/rules/finding.js';

// The words of Table 4 example 23 as docs/rules.md shows the rule's sentence for one raw space.
const SPACE = 'The URL holds a space, which a URL may not contain; write each as %20.';

test('the message is read from the code and args, not held by the finding', () => {
  const f = checkUrl('file:///c:/my docs/a.pdf').findings.find((x) => x.code === 'unescaped-space')!;
  assert.is(f.message, SPACE);
  assert.not.ok(Object.hasOwn(f, 'message'), 'no own message');
  assert.not.ok(Object.keys(f).includes('message'));
});

test('JSON.stringify writes the message after the severity, as before', () => {
  const f = checkUrl('file:///c:/my docs/a.pdf').findings.find((x) => x.code === 'unescaped-space')!;
  const json = JSON.parse(JSON.stringify(f)) as Record<string, unknown>;
  assert.equal(Object.keys(json).slice(0, 3), ['code', 'severity', 'message']);
  assert.is(json.message, SPACE);
  assert.equal(json.args, f.args);
  assert.is(json.fix, 'file:///c:/my%20docs/a.pdf');
});

test('a spread copy carries no message; messageOf gives it, and copyFinding keeps it', () => {
  const report = validateTicket('<JDF Version="1.4"><ResourcePool><FileSpec URL="file:///C:/Jobs/a b.pdf"/></ResourcePool></JDF>');
  const f = report.references[0]!.findings.find((x) => x.code === 'unescaped-space')!;
  const copy = { ...f };
  assert.is((copy as { message?: string }).message, undefined);
  assert.is(messageOf(copy), SPACE);
  assert.is(messageOf(f), SPACE);
  assert.is(messageOf({ code: 'internal-error', message: 'plain words' }), 'plain words');
  const kept = copyFinding(f, { fix: 'file:///C:/Jobs/a%20b.pdf' });
  assert.is(kept.message, SPACE);
  assert.is(kept.line, f.line);
});

test.run();
