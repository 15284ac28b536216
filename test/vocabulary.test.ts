// The whole URL vocabulary of the CIP4 schemas (issue 11, part 1). Expected values come from
// data/url-attributes.json (the schemas' own declarations), RFC 3986 and the fixtures written here.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { validateTicket, type TicketReport } from '../src/index.js';
import { parseUrlAttribute } from '../src/ticket/vocabulary.js';
import { renderReadme, renderTable, withReadmeList } from '../scripts/vocabulary-render.js';
import { projectRoot, removeTempFolders, tempFolder } from './helpers.js';
import { runCli } from './in-process.js';

interface DataRow { schema: string; element: string; attribute: string; role: 'url' | 'directory'; alsoIn?: string[] }
const data = JSON.parse(readFileSync(new URL('data/url-attributes.json', projectRoot), 'utf8')) as { attributes: DataRow[]; source: never };
const HOT = 'file:///pub/hot-folder/ticket.jdf';
const HOST_DOC = HOT;
const codesOf = (r: TicketReport) => [...r.findings.map((f) => f.code), ...r.references.flatMap((x) => x.findings.map((f) => f.code))].sort();

test('src/ticket/vocabulary-table.ts is what data/url-attributes.json generates (run `npm run vocabulary` when this fails)', async () => {
  const committed = readFileSync(new URL('src/ticket/vocabulary-table.ts', projectRoot), 'utf8');
  assert.ok(committed === renderTable(data as never), 'src/ticket/vocabulary-table.ts is stale: run npm run vocabulary');
});

test("the README's \"What is read\" list is what data/url-attributes.json generates (run `npm run vocabulary`)", async () => {
  const readme = readFileSync(new URL('README.md', projectRoot), 'utf8');
  assert.ok(readme === withReadmeList(readme, renderReadme(data as never)), 'README.md list is stale: run npm run vocabulary');
});

// One document per root, one element per line, every attribute the data gives that root: each must be found
// once, at its line and column, with its role.
const ROOTS: Record<string, { root: string; ns: string }> = {
  'JDF 1.x': { root: 'JDF', ns: 'http://www.CIP4.org/JDFSchema_1_1' },
  'JMF 1.x': { root: 'JMF', ns: 'http://www.CIP4.org/JDFSchema_1_1' },
  'XJDF 2.x': { root: 'XJDF', ns: 'http://www.CIP4.org/JDFSchema_2_0' },
  'XJMF 2.x': { root: 'XJMF', ns: 'http://www.CIP4.org/JDFSchema_2_0' },
};
const valueFor = (row: DataRow) => (row.attribute === 'DevNS' ? 'http://www.CIP4.org/JDFSchema_1_1' : row.role === 'directory' ? 'file:///c:/hot/in/' : 'http://example.org/x');

for (const [schema, { root, ns }] of Object.entries(ROOTS)) {
  test(`every ${schema} attribute of data/url-attributes.json is read once at its line and column`, async () => {
    const rows = data.attributes.filter((r) => r.schema === schema || (r.alsoIn ?? []).includes(schema));
    const lines = [`<${root} xmlns="${ns}" Version="${root.startsWith('X') ? '2.1' : '1.7'}">`];
    const expected: string[] = [];
    for (const row of rows) {
      const element = row.element === '*' ? 'SomeElement' : row.element;
      if (element === root) continue; // the root's own attributes: the line above
      const prefix = `<${element} ${row.attribute}="`;
      lines.push(`${prefix}${valueFor(row)}"/>`);
      expected.push(`${lines.length}:${prefix.length + 1} ${element}/@${row.attribute} ${row.attribute === 'DevNS' || row.attribute === 'PDFXRegistryName' ? 'identifier' : row.role}`);
    }
    lines.push(`</${root}>`);
    const r = validateTicket(lines.join('\n'), { documentUri: HOT });
    const found = r.references.map((x) => `${x.line}:${x.column} ${x.element.split('/').pop()}/@${x.attribute} ${x.role}`);
    assert.equal(found.sort(), expected.sort());
  });
}

test('attributes of another family are not read: Device/@XJMFURL (XJDF) in a JDF, Device/@JDFInputURL (JDF) in an XJDF', async () => {
  const j = validateTicket('<JDF Version="1.7"><ResourcePool><Device XJMFURL="http://a/x" JDFInputURL="file:///c:/hot/"/></ResourcePool></JDF>', { documentUri: HOT });
  assert.equal(j.references.map((x) => x.attribute), ['JDFInputURL']);
  const x = validateTicket('<XJDF><ResourceSet Name="Device"><Resource><Device XJMFURL="http://a/x" JDFInputURL="file:///c:/hot/"/></Resource></ResourceSet></XJDF>', { documentUri: HOT });
  assert.equal(x.references.map((r) => r.attribute), ['XJMFURL']);
});

test('a JDF inside a JMF is read with JDF rules (Spawned/@URL is JDF only)', async () => {
  const r = validateTicket('<JMF Version="1.7"><Command Type="SubmitQueueEntry"><QueueSubmissionParams URL="cid:jdf"/></Command><Spawned URL="x.jdf"/><JDF><AuditPool><Spawned URL="s.jdf"/></AuditPool></JDF></JMF>', { documentUri: HOT });
  assert.equal(r.references.map((x) => `${x.element}/@${x.attribute}`), ['/JMF/Command/QueueSubmissionParams/@URL', '/JMF/JDF/AuditPool/Spawned/@URL']);
});

test('identifiers (DevNS, PDFXRegistryName): absolute-URI syntax only, never resolved nor given a base', async () => {
  const ok = validateTicket('<JDF Version="1.4"><ResourcePool><RunList Directory="file:///c:/d/"><DevCaps DevNS="http://www.CIP4.org/JDFSchema_1_1"/></RunList><PDFXParams PDFXRegistryName="http://www.color.org"/></ResourcePool></JDF>', { documentUri: HOT });
  const ids = ok.references.filter((x) => x.role === 'identifier');
  assert.equal(ids.map((x) => [x.attribute, x.resolved, x.base, x.baseSource]), [['DevNS', null, null, 'none'], ['PDFXRegistryName', null, null, 'none']]);
  assert.equal(codesOf(ok), []);
  const bad = validateTicket('<JDF Version="1.4"><ResourcePool><DevCaps DevNS="CIP4 JDF"/><PDFXParams PDFXRegistryName="www.color.org"/></ResourcePool></JDF>', { documentUri: HOT });
  assert.equal(codesOf(bad), ['identifier-not-absolute-uri', 'identifier-not-absolute-uri']);
  assert.equal(bad.references.map((x) => x.resolved), [null, null]);
});

test('non-file URLs: http with an empty host is an error; none is resolved against a Directory', async () => {
  const t = `<JMF Version="1.4"><Command><QueueSubmissionParams URL="http:///www.example.org/jmf" ReturnURL="mailto:prepress@example.org"/></Command></JMF>`;
  const r = validateTicket(t, { documentUri: HOT });
  assert.equal(codesOf(r), ['scheme-syntax']);
  assert.equal(r.references.map((x) => x.scheme), ['http', 'mailto']);
  const d = validateTicket('<JDF Version="1.4"><ResourcePool><RunList Directory="file:///c:/d/"><LayoutElement><FileSpec URL="ftp://cip4.org/pub/a.pdf"/></LayoutElement></RunList></ResourcePool></JDF>', { documentUri: HOT });
  const ftp = d.references.find((x) => x.attribute === 'URL')!;
  assert.equal([ftp.resolved, ftp.base, ftp.baseSource], ['ftp://cip4.org/pub/a.pdf', null, 'none']);
});

test('a vendor scheme in a route is info (NodeInfo/@Route pt://...), in a FileSpec/@URL a warning', async () => {
  const r = validateTicket('<JDF Version="1.4"><ResourcePool><NodeInfo Route="pt://HOST/Normalizer/1.0/N1"/><FileSpec URL="pt://x/a.pdf"/></ResourcePool></JDF>', { documentUri: HOST_DOC });
  assert.equal(r.references.map((x) => [x.attribute, x.findings.map((f) => `${f.code} ${f.severity}`)]), [['Route', ['unknown-scheme info']], ['URL', ['unknown-scheme warning']]]);
});

test('only FileSpec/@URL (and Preview/@URL) take the Directory; CommentURL resolves against the ticket folder', async () => {
  const r = validateTicket('<JDF Version="1.4"><ResourcePool><RunList Directory="file:///c:/d/"><LayoutElement CommentURL="bag.pdf"><FileSpec URL="a.pdf"/></LayoutElement></RunList></ResourcePool></JDF>', { documentUri: HOT });
  assert.equal(r.references.filter((x) => x.role === 'url').map((x) => [x.attribute, x.resolved]), [['CommentURL', 'file:///pub/hot-folder/bag.pdf'], ['URL', 'file:///c:/d/a.pdf']]);
});

test('PrintTalk: the XJDF inside is read with XJDF rules, and XJDF elements outside it by namespace', async () => {
  const t = `<PrintTalk xmlns="http://www.printtalk.org/schema_20" xmlns:xjdf="http://www.CIP4.org/JDFSchema_2_0">
<Request><PurchaseOrder><xjdf:XJDF><xjdf:ResourceSet Name="RunList"><xjdf:Resource><xjdf:RunList><xjdf:FileSpec URL="a b.pdf"/></xjdf:RunList></xjdf:Resource></xjdf:ResourceSet></xjdf:XJDF></PurchaseOrder>
<ProofApprovalRequest><xjdf:ProofItem ProofTarget="proof.pdf"/><ProofItem ProofTarget="not-xjdf.pdf"/></ProofApprovalRequest></Request></PrintTalk>`;
  const r = validateTicket(t, { documentUri: HOT });
  assert.equal(r.references.map((x) => `${x.element.split('/').pop()}/@${x.attribute}=${x.resolved}`), ['FileSpec/@URL=file:///pub/hot-folder/a%20b.pdf', 'ProofItem/@ProofTarget=file:///pub/hot-folder/proof.pdf'].map((s) => s.replace('a%20b', 'a b')));
  assert.equal(codesOf(r), ['unescaped-space']);
  assert.is(r.root, 'PrintTalk');
});

test('url-too-long: the schemas allow 4095 characters', async () => {
  const at = (n: number) => `file:///c:/${'a'.repeat(n - 'file:///c:/.pdf'.length)}.pdf`;
  const doc = (u: string) => `<JDF Version="1.4"><ResourcePool><FileSpec URL="${u}"/></ResourcePool></JDF>`;
  assert.equal(codesOf(validateTicket(doc(at(4095)), { documentUri: HOT })), []);
  const r = validateTicket(doc(at(4096)), { documentUri: HOT });
  assert.equal(codesOf(r), ['url-too-long']);
  assert.is(r.references[0]!.findings[0]!.severity, 'error');
});

test('--url-attribute: a vendor attribute is read only when named (Device/@HDM:Hotfolder=directory, SequenceHome/@URL)', async () => {
  const t = '<JDF xmlns:HDM="www.heidelberg.com/schema/HDM" Version="1.4"><ResourcePool><Device HDM:Hotfolder="file:///c:/hot"/><SequenceHome URL="s.xml"/></ResourcePool></JDF>';
  assert.equal(validateTicket(t, { documentUri: HOT }).references, []);
  const extra = [parseUrlAttribute('Device/@HDM:Hotfolder=directory')!, parseUrlAttribute('SequenceHome/@URL')!];
  const r = validateTicket(t, { documentUri: HOT, urlAttributes: extra });
  assert.equal(r.references.map((x) => `${x.attribute} ${x.role}`), ['HDM:Hotfolder directory', 'URL url']);
  assert.is(parseUrlAttribute('Device/Hotfolder'), undefined);
  assert.is(parseUrlAttribute('Device/@Hot folder'), undefined);
});

test('CLI: a folder holds a .ptk PrintTalk file; --url-attribute adds a row, and a malformed one is a usage error (exit 2)', async () => {
  const dir = tempFolder('vocab-');
  writeFileSync(path.join(dir, 'order.ptk'), '<PrintTalk xmlns:x="http://www.CIP4.org/JDFSchema_2_0"><Request><x:XJDF><x:Product CommentURL="bag.pdf"/></x:XJDF></Request></PrintTalk>');
  writeFileSync(path.join(dir, 'hdm.jdf'), '<JDF xmlns:HDM="www.heidelberg.com/schema/HDM" Version="1.4"><ResourcePool><Device HDM:Hotfolder="file:///c:/hot/"/></ResourcePool></JDF>');
  const run = (...args: string[]) => runCli(['validate', dir, '--format', 'json', ...args], { encoding: 'utf8' });
  const plain = JSON.parse((await run()).stdout);
  assert.equal(plain.files.map((f: any) => [path.basename(f.path), f.references.map((r: any) => r.attribute)]), [['hdm.jdf', []], ['order.ptk', ['CommentURL']]]);
  const added = JSON.parse((await run('--url-attribute', 'Device/@HDM:Hotfolder=directory')).stdout);
  assert.equal(added.files[0].references.map((r: any) => [r.attribute, r.role]), [['HDM:Hotfolder', 'directory']]);
  const bad = await run('--url-attribute', 'Device/Hotfolder');
  assert.is(bad.status, 2);
  assert.ok(bad.stderr.includes('--url-attribute takes ELEMENT/@ATTR'), bad.stderr);
});

test.after(removeTempFolders);
test.run();
