// Issue 20, HIGH: attributes are read by exact name in no namespace (Namespaces in XML 1.0 6.2), as XML
// consumers do: "x:URL" is another attribute, never the FileSpec's URL. And a second attribute of the same name
// (which fast-xml-parser and others read instead of the first) is always an error, with or without --strict-xml.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { validateTicket } from '../src/index.js';

const OPTIONS = { documentUri: 'file:///srv/hot/ticket.jdf' };
const ticket = (body: string) => `<JDF xmlns:x="urn:x" Version="1.4"><ResourcePool>${body}</ResourcePool></JDF>`;
const codes = (r: ReturnType<typeof validateTicket>) => [...r.findings, ...r.references.flatMap((x) => x.findings)].map((f) => f.code);

const FOREIGN: Array<[string, string, string[]]> = [
  // [label, body, the values read as references]
  ['x:URL before URL', '<FileSpec x:URL="file:///etc/passwd" URL="a.pdf"/>', ['a.pdf']],
  ['x:URL after URL', '<FileSpec URL="a.pdf" x:URL="file:///etc/passwd"/>', ['a.pdf']],
  ['only x:URL', '<FileSpec x:URL="file:///etc/passwd"/>', []],
  ['x:Directory before Directory', '<RunList x:Directory="file:///etc/" Directory="file:///srv/jobs/"><FileSpec URL="a.pdf"/></RunList>', ['file:///srv/jobs/', 'a.pdf']],
  ['xURL is not URL', '<FileSpec xURL="file:///etc/passwd" URL="a.pdf"/>', ['a.pdf']],
];

for (const [label, body, values] of FOREIGN) {
  test(`namespaces: ${label}: only the attribute in no namespace is read`, () => {
    const report = validateTicket(ticket(body), OPTIONS);
    assert.equal(report.references.map((r) => r.value), values);
    assert.not.ok(report.references.some((r) => (r.resolved ?? '').includes('/etc/')));
  });
}

test('namespaces: the base comes from the Directory in no namespace', () => {
  const report = validateTicket(ticket('<RunList x:Directory="file:///etc/" Directory="file:///srv/jobs/"><FileSpec URL="a.pdf"/></RunList>'), OPTIONS);
  assert.is(report.references[1]!.resolved, 'file:///srv/jobs/a.pdf');
});

test('namespaces: an rRef in another namespace is not followed, an ID in another namespace is no target', () => {
  const report = validateTicket(ticket('<LayoutElement x:ID="L1" ID="L2"><FileSpec URL="a.pdf"/></LayoutElement><RunList Directory="file:///j/"><LayoutElementRef x:rRef="L1" rRef="L2"/></RunList>'), OPTIONS);
  assert.equal(report.references.map((r) => r.resolved), ['file:///j/', 'file:///j/a.pdf']);
  assert.not.ok(codes(report).some((c) => c === 'dangling-rref' || c === 'duplicate-attribute'));
});

const DUPLICATES: Array<[string, string]> = [
  ['URL twice', '<FileSpec URL="a.pdf" URL="file:///etc/passwd"/>'],
  ['URL twice, other quotes and space', `<FileSpec URL='a.pdf'\n  URL = "file:///etc/passwd"/>`],
  ['Directory twice', '<RunList Directory="file:///srv/" Directory="file:///etc/"/>'],
  ['rRef twice', '<LayoutElement ID="L1"><FileSpec URL="a.pdf"/></LayoutElement><RunList><LayoutElementRef rRef="L1" rRef="L9"/></RunList>'],
];

for (const [label, body] of DUPLICATES) {
  test(`duplicates: ${label} is an error without strictXml`, () => {
    const report = validateTicket(ticket(body), OPTIONS);
    assert.ok(codes(report).includes('duplicate-attribute'), String(codes(report)));
    assert.ok([...report.findings, ...report.references.flatMap((x) => x.findings)].some((f) => f.code === 'duplicate-attribute' && f.severity === 'error'));
  });
}

test('duplicates: the finding points at the second name', () => {
  const text = ticket('<FileSpec URL="a.pdf" URL="b.pdf"/>');
  const f = validateTicket(text, OPTIONS).references[0]!.findings.find((x) => x.code === 'duplicate-attribute')!;
  assert.is(f.column, text.lastIndexOf('URL=') + 1);
});

test('duplicates: x:URL and URL are not duplicates', () => {
  assert.equal(codes(validateTicket(ticket('<FileSpec x:URL="b.pdf" URL="a.pdf"/>'), OPTIONS)), []);
});

test.run();
