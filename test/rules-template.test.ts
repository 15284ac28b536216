// Issue 28, section 1: a value holding a placeholder is a template, not a broken URL. One info finding says so; no
// rule judges its syntax, nothing offers a fix, and `fix` rewrites nothing. Values and tickets are written by hand.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { checkUrl, validateTicket } from '../src/index.js';
import { NOT_ADOPTED, PLACEHOLDER_FORMS } from '../src/rules/template-forms.js';
import { checkLocalFiles } from '../src/node/local-files.js';
import { planFixes } from '../src/ticket/rewrite.js';

// Before issue 28 these gave file-url-relative-path, unescaped-space (fixed to WILL%20BE...), invalid-host and unsafe-character.
const TEMPLATES: ReadonlyArray<[string, number, string]> = [
  ['file:$$_PATH_$$/job 1/a.pdf', 5, "'$$_PATH_$$'"],
  ['$$JOB$$\\pages\\a.pdf', 0, "'$$JOB$$'"],
  ['http://${alces.host}:${alces.port}/alces/jmf', 7, "'${alces.host}'"],
  ['WILL BE SET BY ALCES', 0, "'WILL BE SET BY ALCES'"],
  ['THE URL WILL BE REPLACED BY ALCES', 0, "'THE URL WILL BE REPLACED BY ALCES'"],
];

for (const [value, offset, placeholder] of TEMPLATES) {
  test(`template ${JSON.stringify(value)}: one info finding, no fix, under every profile and platform`, () => {
    for (const options of [{}, { profile: 'rfc8089' as const }, { profile: 'lenient' as const, platform: 'windows' as const }, { base: 'file:///c:/jobs/' }]) {
      const r = checkUrl(value, options);
      assert.equal(r.findings.map((f) => [f.code, f.severity, f.offset]), [['template-placeholder', 'info', offset]], JSON.stringify(options));
      assert.is(r.findings[0]!.args?.placeholder, placeholder);
      assert.is(r.findings[0]!.fix, undefined);
      assert.is(r.fixed, undefined);
    }
  });
}

test('a template without a Directory or ticket folder: no no-base warning, no consumers-disagree, nothing for fix to rewrite', () => {
  const text = '<JDF Version="1.4"><ResourcePool><RunList ID="r" Directory="file:///c:/jobs/Title"><LayoutElement><FileSpec URL="$$PATH$$/a b.pdf"/></LayoutElement></RunList>'
    + '<FileSpec ID="f" URL="$$PATH$$\\x.pdf"/></ResourcePool></JDF>';
  const report = validateTicket(text);
  const byValue = new Map(report.references.map((r) => [r.value, r.findings.map((f) => `${f.severity} ${f.code}`)]));
  assert.equal(byValue.get('$$PATH$$/a b.pdf'), ['info template-placeholder']);
  assert.equal(byValue.get('$$PATH$$\\x.pdf'), ['info template-placeholder']);
  assert.ok(report.references.every((r) => r.value.includes('$$') ? r.fixed === undefined : true));
  // The Directory's own finding (no trailing '/') is fixed; no template is touched.
  assert.equal(planFixes(text, report).edits.map((e) => e.attribute), ['Directory']);
});

test('--check-exists looks for no file a template names (it names none yet)', async () => {
  const text = '<JDF Version="1.4"><ResourcePool><FileSpec ID="f" Class="Parameter" URL="file:$$_PATH_$$/a.pdf"/>'
    + '<FileSpec ID="g" Class="Parameter" URL="WILL BE SET BY ALCES"/><FileSpec ID="h" Class="Parameter" URL="missing-a.pdf"/></ResourcePool></JDF>';
  const documentUri = 'file:///nonexistent-jdf-filespec-test/t.jdf';
  const report = validateTicket(text, { documentUri });
  await checkLocalFiles(report, { checkExists: true, maps: [], documentUri });
  assert.equal(report.references.map((r) => r.findings.map((f) => f.code)), [['template-placeholder'], ['template-placeholder'], ['file-missing']]);
});

test('a "$" that is no placeholder is judged as before', () => {
  assert.equal(checkUrl('file:///c:/jobs/$1/a b.pdf').findings.map((f) => f.code), ['unescaped-space']);
  assert.equal(checkUrl('$1/a.pdf', { base: 'file:///c:/jobs/' }).findings, []);
  assert.is(checkUrl('$1/a.pdf', { base: 'file:///c:/jobs/' }).resolved, 'file:///c:/jobs/$1/a.pdf');
  assert.equal(checkUrl('Will be set by hand.pdf').findings.map((f) => f.code), ['unescaped-space']);
});

test('the forms not adopted stay URLs: their characters are judged', () => {
  assert.equal(checkUrl('file:///c:/{{job}}/a.pdf').findings.map((f) => f.code), ['unsafe-character']);
  assert.equal(checkUrl('file:///c:/%JOB%/a.pdf').findings.map((f) => f.code), ['invalid-percent-encoding']);
  assert.equal(NOT_ADOPTED.map((f) => f.form), ['{{name}}', '%NAME%']);
});

test('every adopted form says where it was seen, and matches what it names', () => {
  for (const form of PLACEHOLDER_FORMS) {
    assert.ok(form.seen.length > 0 && form.seen.every((s) => s.tickets.length > 0 && s.values > 0 && s.attributes.length > 0), form.form);
    const found = form.pattern.exec(TEMPLATES.find(([v]) => form.pattern.test(v))?.[0] ?? '');
    assert.ok(found?.[0].includes(form.hint), `${form.form}: a hand-written example holds its hint`);
    // The rule looks further only at a value with a '$' or a space: every form's hint holds one.
    assert.ok(form.hint.includes('$') || form.hint.includes(' '), form.form);
  }
});

test.run();
