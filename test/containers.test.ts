// Containers as appendix 4.6 says, and the false alarms of issue 11 (parts 2 and 3). Each fixture names the case;
// expected targets follow from the appendix ("the Base URI is the Absolute URI of where the JDF Consumer extracted
// the container file") and RFC 3986 5.2.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import fc from 'fast-check';
import { checkUrl, fileUrlToPath, PathConversionError, validateTicket, type TicketReport } from '../src/index.js';
import type { RuleCode } from '../src/rules/codes.js';

const HOT = 'file:///pub/hot-folder/ticket.jdf';
const jdf = (body: string) => `<JDF Version="1.4"><ResourcePool>${body}</ResourcePool></JDF>`;
const codesOf = (r: TicketReport) => [...r.findings.map((f) => f.code), ...r.references.flatMap((x) => x.findings.map((f) => f.code))].sort();
const targets = (r: TicketReport) => r.references.map((x) => `${x.value} -> ${x.resolved}`);

test('nested containers: a.pdf in c.zip in d.tar in ftp://www.any.com/d.tar.gz', () => {
  const r = validateTicket(jdf(`<FileSpec ID="F1" URL="a.pdf"><Container><FileSpec URL="c.zip"><Container><FileSpec URL="d.tar"><Container>
<FileSpec URL="ftp://www.any.com/d.tar.gz"/></Container></FileSpec></Container></FileSpec></Container></FileSpec>`), { documentUri: HOT });
  assert.equal(targets(r).sort(), [
    'a.pdf -> ftp://www.any.com/d.tar.gz/d.tar/c.zip/a.pdf',
    'c.zip -> ftp://www.any.com/d.tar.gz/d.tar/c.zip',
    'd.tar -> ftp://www.any.com/d.tar.gz/d.tar',
    'ftp://www.any.com/d.tar.gz -> ftp://www.any.com/d.tar.gz',
  ]);
  assert.equal(r.references.find((x) => x.value === 'a.pdf')!.baseSource, 'container');
  assert.equal(codesOf(r), []);
});

test('Container/FileSpecRef: the container is reported once per use, each member inside it', () => {
  const r = validateTicket(jdf(`<FileSpec ID="Z" URL="ftp://www.any.com/b.zip"/>
<FileSpec ID="A" URL="a.pdf"><Container><FileSpecRef rRef="Z"/></Container></FileSpec>
<FileSpec ID="B" URL="b.pdf"><Container><FileSpecRef rRef="Z"/></Container></FileSpec>`), { documentUri: HOT });
  assert.equal(targets(r).sort(), [
    'a.pdf -> ftp://www.any.com/b.zip/a.pdf',
    'b.pdf -> ftp://www.any.com/b.zip/b.pdf',
    'ftp://www.any.com/b.zip -> ftp://www.any.com/b.zip',
    'ftp://www.any.com/b.zip -> ftp://www.any.com/b.zip',
  ]);
  assert.equal(r.references.filter((x) => x.value.startsWith('ftp')).map((x) => x.via), ["/JDF/ResourcePool/FileSpec[@ID='A']/Container/FileSpecRef", "/JDF/ResourcePool/FileSpec[@ID='B']/Container/FileSpecRef"]);
});

test('partitions inherit the Container of the FileSpec above them', () => {
  const r = validateTicket(jdf(`<FileSpec ID="Z" URL="ftp://www.any.com/b.zip"/>
<FileSpec ID="ALL" PartIDKeys="PartVersion"><Container><FileSpecRef rRef="Z"/></Container>
<FileSpec PartVersion="English" URL="a.pdf"/><FileSpec PartVersion="French" URL="b.pdf"/></FileSpec>`), { documentUri: HOT });
  assert.equal(targets(r), ['ftp://www.any.com/b.zip -> ftp://www.any.com/b.zip', 'a.pdf -> ftp://www.any.com/b.zip/a.pdf', 'b.pdf -> ftp://www.any.com/b.zip/b.pdf']);
});

test('Part on the FileSpecRef selects one partition of a partitioned container, itself inside a tar', () => {
  const r = validateTicket(jdf(`<FileSpec ID="TAR" URL="ftp://www.any.com/e.tar"/>
<FileSpec ID="ZIPS" PartIDKeys="PartVersion"><Container><FileSpecRef rRef="TAR"/></Container>
<FileSpec PartVersion="English" URL="c.zip"/><FileSpec PartVersion="German" URL="d.zip"/></FileSpec>
<FileSpec ID="G" URL="a.pdf"><Container><FileSpecRef rRef="ZIPS"><Part PartVersion="German"/></FileSpecRef></Container></FileSpec>`), { documentUri: HOT });
  assert.equal(targets(r), ['ftp://www.any.com/e.tar -> ftp://www.any.com/e.tar', 'd.zip -> ftp://www.any.com/e.tar/d.zip', 'a.pdf -> ftp://www.any.com/e.tar/d.zip/a.pdf']);
});

// Issue 11: a Part that matches no partition used the first partition's URL; a container without a target gave
// its members "pass --base".
test('a Part that matches no partition is part-no-match, naming its keys, and no container is chosen', () => {
  const r = validateTicket(jdf(`<FileSpec ID="ZIPS" PartIDKeys="PartVersion"><FileSpec PartVersion="English" URL="ftp://www.any.com/c.zip"/></FileSpec>
<FileSpec ID="G" URL="a.pdf"><Container><FileSpecRef rRef="ZIPS"><Part PartVersion="German"/></FileSpecRef></Container></FileSpec>`), { documentUri: HOT });
  const found = r.findings.filter((f) => f.code === 'part-no-match');
  assert.is(found.length, 1);
  assert.ok(found[0]!.message.includes('PartVersion="German"'), found[0]!.message);
  const member = r.references.find((x) => x.value === 'a.pdf')!;
  assert.is(member.resolved, null);
  assert.not.ok(targets(r).some((t) => t.includes('c.zip/a.pdf')), String(targets(r)));
});

test('a Part key the resource is not partitioned by (not in its PartIDKeys) selects nothing and is no finding', () => {
  const r = validateTicket(jdf(`<FileSpec ID="ZIPS" PartIDKeys="PartVersion"><FileSpec PartVersion="German" URL="ftp://www.any.com/d.zip"/></FileSpec>
<FileSpec ID="G" URL="a.pdf"><Container><FileSpecRef rRef="ZIPS"><Part PartVersion="German" SheetName="S1"/></FileSpecRef></Container></FileSpec>`), { documentUri: HOT });
  assert.ok(targets(r).includes('a.pdf -> ftp://www.any.com/d.zip/a.pdf'), String(targets(r)));
  assert.equal(codesOf(r), []);
});

const NO_TARGET: Array<[string, string, RuleCode | '']> = [
  ['a container FileSpec without URL', '<FileSpec URL="a.pdf"><Container><FileSpec/></Container></FileSpec>', ''],
  ['a dangling FileSpecRef', '<FileSpec URL="a.pdf"><Container><FileSpecRef rRef="Z"/></Container></FileSpec>', 'dangling-rref'],
  ['a cycle', '<FileSpec ID="Z" URL="z.zip"><Container><FileSpecRef rRef="Z"/></Container></FileSpec><FileSpec URL="a.pdf"><Container><FileSpecRef rRef="Z"/></Container></FileSpec>', 'rref-cycle'],
];
for (const [label, body, cause] of NO_TARGET) {
  test(`a member of a container without a target (${label}) is told so, not to pass --base`, () => {
    const r = validateTicket(jdf(body), { documentUri: HOT });
    if (cause !== '') assert.ok(codesOf(r).includes(cause), String(codesOf(r)));
    const noBase = r.references.find((x) => x.value === 'a.pdf')!.findings.filter((f) => f.code === 'no-base');
    assert.is(noBase.length, 1);
    assert.ok(noBase[0]!.message.includes('container that names no file'), noBase[0]!.message);
    assert.not.ok(noBase[0]!.message.includes('--base'));
  });
}

test('a member of a container whose relative URL has no base still gets "pass --base"', () => {
  const r = validateTicket(jdf('<FileSpec URL="a.pdf"><Container><FileSpec URL="b.zip"/></Container></FileSpec>'));
  const member = r.references.find((x) => x.value === 'a.pdf')!;
  assert.ok(member.findings.some((f) => f.code === 'no-base' && f.message.includes('pass --base')));
});

test('a member with an absolute URL is container-url-not-relative', () => {
  const r = validateTicket(jdf('<FileSpec URL="file:///c:/a.pdf"><Container><FileSpec URL="ftp://www.any.com/b.zip"/></Container></FileSpec>'), { documentUri: HOT });
  assert.equal(codesOf(r), ['container-url-not-relative']);
});

test('rRef targets: JMF ResourceInfo resources, device-capability Test pools and nested resources are not dangling', () => {
  const jmf = `<JMF Version="1.4"><Signal Type="Resource"><ResourceInfo><ResourceSet Name="Media"><Resource><Media ID="ImpoProof01"/></Resource></ResourceSet>
<ResourceSet Name="ExposedMedia"><Resource><ExposedMedia ID="EM"><MediaRef rRef="ImpoProof01"/></ExposedMedia></Resource></ResourceSet></ResourceInfo></Signal></JMF>`;
  assert.equal(codesOf(validateTicket(jmf, { documentUri: HOT })), []);
  const devcap = '<JMF><Response><DeviceInfo><Device><DeviceCap><TestPool><Test ID="is1bit"><TestRef rRef="x1"/></Test><Test ID="x1"/></TestPool><DevCaps><DevCap><ConstraintRef rRef="is1bit"/></DevCap></DevCaps></DeviceCap></Device></DeviceInfo></Response></JMF>';
  assert.equal(codesOf(validateTicket(devcap, { documentUri: HOT })), []);
  const nested = jdf('<Layout ID="L"><Signature><Sheet><MediaRef rRef="M2"/></Sheet></Signature><Media ID="M2"/></Layout>');
  assert.equal(codesOf(validateTicket(nested, { documentUri: HOT })), []);
});

test('an rRef to a JDF node is dangling-rref, and says it names a node', () => {
  const r = validateTicket('<JDF ID="n1" Version="1.4"><ResourcePool><RunList ID="R"><LayoutElementRef rRef="n1"/></RunList></ResourcePool></JDF>', { documentUri: HOT });
  assert.equal(codesOf(r), ['dangling-rref']);
  assert.ok(/the <JDF> node, not a resource/.test(r.findings[0]!.message), r.findings[0]!.message);
});

test('URL="" resolves to the base (RFC 3986 5.2.2) and is still empty-url', () => {
  const r = validateTicket(jdf('<RunList Directory="file:///c:/jobs/"><LayoutElement><FileSpec URL=""/></LayoutElement></RunList>'), { documentUri: HOT });
  const ref = r.references.find((x) => x.attribute === 'URL')!;
  assert.is(ref.resolved, 'file:///c:/jobs/');
  assert.equal(codesOf(r), ['empty-url']);
});

test('a Directory without its trailing slash: a warning where a relative URL uses it, info where every URL is absolute', () => {
  const used = validateTicket(jdf('<RunList Directory="file:///c:/jobs/J1"><LayoutElement><FileSpec URL="a.pdf"/></LayoutElement></RunList>'), { documentUri: HOT });
  assert.is(used.references[0]!.findings.find((f) => f.code === 'directory-without-trailing-slash')!.severity, 'warning');
  const unused = validateTicket(jdf('<RunList Directory="file:///c:/jobs/J1"><LayoutElement><FileSpec URL="file:///c:/x/a.pdf"/></LayoutElement></RunList>'), { documentUri: HOT });
  const f = unused.references[0]!.findings.find((x) => x.code === 'directory-without-trailing-slash')!;
  assert.is(f.severity, 'info');
  assert.ok(f.message.includes('no relative URL resolves against it'));
});

test('file://file:/c:/jobs/a.pdf is a doubled scheme (not a port), fixed to file:///c:/jobs/a.pdf', () => {
  const r = checkUrl('file://file:/c:/jobs/a.pdf');
  assert.equal(r.findings.map((f) => [f.code, f.fix]), [['doubled-scheme', 'file:///c:/jobs/a.pdf']]);
});

test("file://host//share/a.pdf is flagged ('//' after the host)", () => {
  const r = checkUrl('file://host//share/a.pdf');
  assert.equal(r.findings.map((f) => [f.code, f.fix]), [['empty-segment-after-host', 'file://host/share/a.pdf']]);
});

test('to-path --platform windows: file://host//share/a.pdf is no UNC path (never \\\\host\\\\share\\a.pdf)', () => {
  assert.throws(() => fileUrlToPath('file://host//share/a.pdf', { platform: 'windows' }), (e: unknown) => e instanceof PathConversionError && e.code === 'empty-segment');
  assert.is(fileUrlToPath('file://host/share/a.pdf', { platform: 'windows' }), '\\\\host\\share\\a.pdf');
});

// Issue 28: the backslashes are the UNC path's own separators, so unc-in-authority is the one finding (one cause).
test('file://\\\\HOST\\share\\a.pdf: one finding, unc-in-authority, whose fix alone adds no unc-path-in-path', () => {
  const r = checkUrl('file://\\\\HOST\\share\\a.pdf');
  assert.equal(r.findings.map((f) => f.code), ['unc-in-authority']);
  const fix = r.findings[0]!.fix!;
  assert.equal(checkUrl(fix).findings.filter((f) => f.severity === 'error').map((f) => f.code), []);
});

// Issue 11: an escaped UNC path was authority-without-path, with advice that made it worse; file:file:///... was
// no doubled scheme.
test('file://%5C%5CKIE-WF12PRDY%5CTestArea%5Ca.jdf is a UNC path in the authority, fixed to file://KIE-WF12PRDY/TestArea/a.jdf', () => {
  const r = checkUrl('file://%5C%5CKIE-WF12PRDY%5CTestArea%5Ca.jdf');
  assert.equal(r.findings.map((f) => [f.code, f.offset, f.fix]), [['unc-in-authority', 7, 'file://KIE-WF12PRDY/TestArea/a.jdf']]);
  assert.equal(checkUrl(r.fixed!).findings.map((f) => f.code), []);
});

test('file:file:///c:/a.pdf is a doubled scheme, fixed to file:///c:/a.pdf', () => {
  const r = checkUrl('file:file:///c:/a.pdf');
  assert.equal(r.findings.map((f) => [f.code, f.offset, f.fix]), [['doubled-scheme', 5, 'file:///c:/a.pdf']]);
  assert.equal(checkUrl('file:file://server/share/a.pdf').fixed, 'file://server/share/a.pdf');
});

// Pieces real tickets are made of: schemes, hosts, drives, UNC forms, backslashes, spaces, escapes, dots.
const PIECES = ['file:', '//', '/', '\\', '\\\\', '%5C', '%5C%5C', 'HOST', 'c:', 'c|', 'file:', 'localhost', ' ', '%20', '%', '..', '.', 'a.pdf', 'my docs', '#', '?', 'é', ':', '@', 'x:y@', 'ftp:', 'http:', 'share'];
test('property: applying any one fix adds no error the value did not have (every profile)', () => {
  fc.assert(
    fc.property(fc.array(fc.constantFrom(...PIECES), { maxLength: 8 }), fc.constantFrom('jdf', 'rfc8089', 'lenient'), fc.boolean(), (parts, profile, withBase) => {
      const value = parts.join('');
      const options = { profile: profile as 'jdf', ...(withBase ? { base: 'file:///c:/jobs/' } : {}) };
      const before = new Set(checkUrl(value, options).findings.filter((f) => f.severity === 'error').map((f) => f.code));
      for (const f of checkUrl(value, options).findings) {
        if (f.fix === undefined) continue;
        const added = checkUrl(f.fix, options).findings.filter((g) => g.severity === 'error' && !before.has(g.code));
        if (added.length > 0) throw new Error(`${JSON.stringify(value)}: ${f.code} fix ${JSON.stringify(f.fix)} adds ${added.map((g) => g.code).join(', ')}`);
      }
    }),
    { numRuns: Number(process.env.FC_RUNS ?? 2000) },
  );
});

test.run();
