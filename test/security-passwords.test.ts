// Issue 20, MEDIUM: a password in a URL must not be printed in any output, in any spelling a consumer reads as
// user information. Each form carries its own secret; every output format is searched for all of them.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { redactPassword, stripPassword } from '../src/fileurl/redact.js';
import { checkUrl, validateTicket } from '../src/index.js';
import { removeTempFolders, tempFolder } from './helpers.js';
import { runCli } from './in-process.js';

const cli = (...args: string[]) => runCli(args, { encoding: 'utf8' });
const dir = tempFolder('jfs-secpw-');

// [label, value as written in the ticket (XML), its secret]
const FORMS: Array<[string, string, string]> = [
  ['ftp://u:p@h/', 'ftp://u:sekrit01@h/a b.pdf', 'sekrit01'],
  ['file:////u:p@h/ (UNC in the path)', 'file:////u:sekrit02@h/a.pdf', 'sekrit02'],
  ['file://\\\\u:p@h\\ (UNC after file://)', 'file://\\\\u:sekrit03@h\\a.pdf', 'sekrit03'],
  ['file:\\\\u:p@h\\', 'file:\\\\u:sekrit04@h\\a.pdf', 'sekrit04'],
  ['ftp:\\\\u:p@h\\', 'ftp:\\\\u:sekrit05@h\\a.pdf', 'sekrit05'],
  ['ftp:/u:p@h/', 'ftp:/u:sekrit06@h/a.pdf', 'sekrit06'],
  ['ftp:u:p@h/', 'ftp:u:sekrit07@h/a.pdf', 'sekrit07'],
  ['"@" as a character reference', 'ftp://u:sekrit08&#64;h/a b.pdf', 'sekrit08'],
  ['":" as a character reference', 'ftp://u&#x3A;sekrit09@h/a b.pdf', 'sekrit09'],
  ['a password holding ":" and "@"', 'ftp://u:sek:rit@10@h/a b.pdf', 'rit@10'],
  ['a backslash fix', 'ftp://u:sekrit11@h\\dir\\a.pdf', 'sekrit11'],
  // Issue 26: the backslash fix moved this one out of the authority, and the fix and its note printed it.
  ['a backslash before the user (in its fix)', 'ftp://host\\user:sekrit15@evil/a.pdf', 'sekrit15'],
  ['in a Directory', 'file://u:sekrit12@h\\jobs', 'sekrit12'],
];
const SECRETS = FORMS.map(([, , s]) => s);
const leaked = (out: string) => SECRETS.filter((s) => out.includes(s));

const line = ([, value]: [string, string, string], i: number) =>
  i === FORMS.length - 1 ? `<RunList Directory="${value}"><FileSpec URL="x y.pdf"/></RunList>` : `<FileSpec URL="${value}"/><FileSpec URL="plain b.pdf"/>`;
// One value per line, and one line with all of them (a diff shows whole lines).
const ticketText = `<?xml version="1.0"?>\n<JDF Version="1.4"><ResourcePool><RunList Directory="file:///srv/hot/">\n${FORMS.map((f, i) => line(f, i)).join('\n')}\n${FORMS.slice(0, -1).map((f, i) => line(f, i)).join('')}\n</RunList></ResourcePool></JDF>\n`;
const ticket = path.join(dir, 'secrets.jdf');
writeFileSync(ticket, ticketText);

for (const format of ['text', 'json', 'sarif', 'unix', 'github']) {
  test(`passwords: validate --format ${format} --references prints none of them`, async () => {
    const r = await cli('validate', ticket, '--format', format, '--references', '--profile', 'lenient');
    assert.ok(r.stdout.length > (format === 'unix' || format === 'github' ? 500 : 1000), r.stdout);
    assert.match(r.stdout, 'password-in-userinfo');
    assert.equal(leaked(r.stdout + r.stderr), []);
  });
}

// Issue 20: file:\\u:p@h\ and file:////u:p@h/ were masked but not reported. One recogniser (userinfoPassword)
// now says both where to mask and what to report: every spelling that is masked is a password-in-userinfo.
// Not yet reported: the RFC 3986 reading of ftp://host\user:p@evil/ (userinfo "host\user:p", which WHATWG reads
// as a path); it is masked, in the value and in its fix.
const UNREPORTED = new Set(['sekrit15']);
test('passwords: the suggestions for a value of two meanings (file:/user:pw@host/share/...) describe the server masked', () => {
  // A property run found it: each suggestion's description names the first segment, userinfo and all.
  const found = checkUrl('file:/user:S3CRETpw@evil/share/x.pdf', {}).findings.find((f) => f.suggestions !== undefined);
  assert.ok(found, 'the value has two meanings, so suggestions');
  assert.not.ok(JSON.stringify(found).includes('S3CRETpw'), JSON.stringify(found));
});

test('passwords: every spelling that is masked is reported as password-in-userinfo, in every profile', async () => {
  for (const profile of ['jdf', 'rfc8089', 'lenient'] as const) {
    for (const form of FORMS.filter(([, , secret]) => !UNREPORTED.has(secret))) {
      const text = `<JDF Version="1.4"><ResourcePool>${line(form, FORMS.indexOf(form))}</ResourcePool></JDF>`;
      const ref = validateTicket(text, { profile, platform: 'unix' }).references[0]!;
      assert.ok(ref.findings.some((f) => f.code === 'password-in-userinfo'), `${profile}, ${form[0]}: ${ref.findings.map((f) => f.code)}`);
      assert.not.match(JSON.stringify(ref), form[2]);
    }
  }
});

// Issue 20: the README says fixes remove a password, but fix left file://u:p@h/a.pdf as it was (removing only
// ":p" left file://u@h/a.pdf, userinfo-in-file-url, an error the value did not have, so the fix was withheld).
// In a file URL the fix drops the whole user information, which names the same file; and it converges.
test('passwords: fix removes a password from a file URL, and a second fix changes nothing', async () => {
  const file = path.join(dir, 'file-url.jdf');
  const text = '<JDF Version="1.4"><ResourcePool><RunList><FileSpec URL="file://u:sekrit13@h/a.pdf"/><FileSpec URL="ftp://u:sekrit14@h/b.pdf"/></RunList></ResourcePool></JDF>';
  writeFileSync(file, text);
  const r = await cli('fix', file);
  assert.is(r.status, 0, r.stderr);
  assert.is(readFileSync(file, 'utf8'), text.replace('u:sekrit13@', '').replace(':sekrit14', ''));
  assert.not.match(r.stdout + r.stderr, 'sekrit1');
  const again = await cli('fix', file, '--dry-run');
  assert.is(again.stdout, '');
});

test('passwords: fix --dry-run (the diff, its context and the values not fixed) prints none of them', async () => {
  const r = await cli('fix', '--dry-run', ticket, '--profile', 'lenient');
  assert.match(r.stdout, '@@');
  assert.equal(leaked(r.stdout + r.stderr), []);
});

test('passwords: fix prints none of them', async () => {
  const copy = path.join(dir, 'fixed.jdf');
  writeFileSync(copy, ticketText);
  const r = await cli('fix', copy, '--profile', 'lenient');
  assert.equal(leaked(r.stdout + r.stderr), []);
  assert.not.equal(readFileSync(copy, 'utf8'), ticketText, 'something was fixed');
});

// Issue 26: the backslash fix of this value kept the password, in the text fix: line, JSON fix and fixed, SARIF's
// fix and fix's "not fixed" note. The fix is shown masked, and never written: the file would get "****".
test('passwords: a fix that still holds a password is shown masked (as refused) and not written', async () => {
  const file = path.join(dir, 'masked-fix.jdf');
  const text = '<JDF Version="1.4"><ResourcePool><RunList><FileSpec URL="ftp://host\\user:sekrit16@evil/a.pdf"/></RunList></ResourcePool></JDF>';
  writeFileSync(file, text);
  const json = JSON.parse((await cli('validate', file, '--format', 'json')).stdout);
  const ref = json.files[0].references[0];
  // fix does not write it, so the report does not call it fixed: it says why (one decision, src/ticket/fix-decision.ts).
  assert.is(ref.fixed, undefined);
  assert.equal(ref.fixRefused, { fixed: 'ftp://host/user:****@evil/a.pdf', reason: 'the fixed value still holds a password (shown masked), so it is not written; remove the password by hand' });
  // RFC 3986 3.2: the authority runs to the first "/", so a strict consumer sends the password to the host "evil":
  // masked, and reported as what it is (with no fix: WHATWG reads a path there, not even the same host).
  const password = ref.findings.find((f: { code: string }) => f.code === 'password-in-userinfo');
  assert.ok(password, 'reported as a password in the user information');
  assert.is(password.fix, undefined);
  // Shown in fixRefused only: no finding offers as its fix what fix does not write.
  assert.ok(ref.findings.every((f: { fix?: string }) => f.fix === undefined));
  const sarif = (await cli('validate', file, '--format', 'sarif')).stdout;
  assert.match(sarif, 'backslash');
  assert.not.match(sarif, '"fixes"', 'a SARIF fix is applied as it stands: a masked one is not offered');
  const r = await cli('fix', file);
  assert.is(r.status, 1, r.stderr); // the password is left, an error: exit 1, as eslint --fix
  assert.match(r.stderr, 'not fixed: /JDF/ResourcePool/RunList/FileSpec/@URL "ftp://host\\\\user:****@evil/a.pdf" -> "ftp://host/user:****@evil/a.pdf": the fixed value still holds a password');
  assert.is(readFileSync(file, 'utf8'), text);
  assert.not.match(r.stdout + r.stderr + JSON.stringify(json) + sarif, 'sekrit16');
});

test('passwords: check (text and JSON) prints none of them', async () => {
  const values = FORMS.filter(([, v]) => !v.includes('&')).map(([, v]) => v);
  for (const format of ['text', 'json']) {
    const r = await cli('check', ...values, '--format', format, '--profile', 'lenient');
    assert.ok(r.stdout.length > 500);
    assert.equal(leaked(r.stdout + r.stderr), [], format);
  }
});

// [label, text, whether the default pass finds it too (else only --strict-xml does)]
const MALFORMED: Array<[string, string, boolean]> = [
  ['an end tag', '<JDF><a></ftp://u:sekrit01@h></JDF>', true],
  ['a tag name', '<JDF><ftp:u:sekrit07@h/></JDF>', false],
  ['an attribute without value', '<JDF><FileSpec ftp://u:sekrit02@h/a.pdf/></JDF>', false],
];
for (const [label, text, always] of MALFORMED) {
  test(`passwords: an xml-malformed message quoting ${label} masks it`, async () => {
    const file = path.join(dir, 'malformed.jdf');
    writeFileSync(file, text);
    for (const strict of always ? [[], ['--strict-xml']] : [['--strict-xml']]) {
      const r = await cli('validate', file, '--format', 'json', ...strict);
      assert.match(r.stdout, 'xml-malformed');
      assert.equal(leaked(r.stdout + r.stderr), []);
    }
  });
}

// Hand-written expectations: the mask replaces exactly the password; a fix drops exactly ":password".
const REDACT: Array<[string, string, string]> = [
  ['ftp://u:p@h/x', 'ftp://u:****@h/x', 'ftp://u@h/x'],
  ['file:////u:p@h/x', 'file:////u:****@h/x', 'file:////u@h/x'],
  ['file://\\\\u:p@h\\x', 'file://\\\\u:****@h\\x', 'file://\\\\u@h\\x'],
  // Free text cannot tell "ftp:u@" from a user "ftp" and a password "u" (a host argument "ftp:u@h"): masked.
  ['ftp:u:p@h/x', 'ftp:u:****@h/x', 'ftp:****@h/x'],
  ['ftp:/u:p:q@r@h/x', 'ftp:/u:****@h/x', 'ftp:/u@h/x'],
  ['ftp://u@h/x', 'ftp://u@h/x', 'ftp://u@h/x'],
  ['a/b@c.pdf', 'a/b@c.pdf', 'a/b@c.pdf'],
  // A fix is shown as the value is: the "@" written as a reference reads as one in a ticket's text.
  ['ftp://u:p&#64;h/x', 'ftp://u:****&#64;h/x', 'ftp://u:****&#64;h/x'],
  // Issue 26: what the backslash fix leaves in the path is masked as it is in the value.
  ['ftp://host/user:p@evil/a.pdf', 'ftp://host/user:****@evil/a.pdf', 'ftp://host/user:****@evil/a.pdf'],
];
for (const [value, shown, fixed] of REDACT) {
  test(`passwords: redactPassword(${JSON.stringify(value)}) and stripPassword`, async () => {
    assert.is(redactPassword(value), shown);
    assert.is(stripPassword(value), fixed);
  });
}

test.after(removeTempFolders);
test.run();
