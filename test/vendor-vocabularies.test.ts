// Issue 28, section 6: vendor vocabularies on request, matched by namespace URI (not by prefix); prefixed element
// names for --url-attribute; Preview/@URL and @Directory of XJDF 2.0 drafts. The fixtures are written here; what
// each must read is worked out by hand from Namespaces in XML 1.0 (6.1, 6.2) and JDF appendix 4.6.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { renderVendorTable, type VendorData } from '../scripts/vocabulary-render.js';
import { parseConfig } from '../src/config/parse.js';
import { validateTicket, type TicketReport } from '../src/index.js';
import { configSchema } from '../src/node/config-file.js';
import { parseUrlAttribute } from '../src/ticket/vocabulary.js';
import { projectRoot } from './helpers.js';

const data = JSON.parse(readFileSync(new URL('data/vendor-vocabularies.json', projectRoot), 'utf8')) as VendorData;

test('src/ticket/vendor-table.ts is what data/vendor-vocabularies.json generates (run `npm run vocabulary` when this fails)', () => {
  const committed = readFileSync(new URL('src/ticket/vendor-table.ts', projectRoot), 'utf8');
  assert.ok(committed === renderVendorTable(data), 'src/ticket/vendor-table.ts is stale: run npm run vocabulary');
});

test('every row carries its evidence: uses, and the corpus tickets it was seen in', () => {
  for (const [name, v] of Object.entries(data.vocabularies)) {
    for (const row of v.rows) {
      assert.ok(row.evidence.uses >= row.evidence.tickets.length && row.evidence.tickets.length > 0, `${name} ${row.element}/@${row.attribute}`);
      for (const group of [row.elementNamespace, row.attributeNamespace]) if (group !== null) assert.ok(v.namespaces[group], `${name}: no group ${group}`);
    }
  }
});

// Line 2: a Heidelberg report list (prefix H, bound to one of Prinect's URIs), its FileSpec relative to it.
// Line 3: a ReportList in the JDF namespace: not Heidelberg's. Line 4: Kodak's attribute, and one without prefix
// (no namespace: not Kodak's). Line 5: H:ThumbnailFolder. Line 6: H rebound to another URI: not Heidelberg's.
// Line 7: another prefix bound to a Heidelberg URI: Heidelberg's.
const TICKET = [
  '<JDF xmlns="http://www.CIP4.org/JDFSchema_1_1" xmlns:H="www.heidelberg.com/schema/HDM" xmlns:C="http://www.creo.com" Version="1.4"><ResourcePool>',
  '<H:ReportList ID="r" Class="Parameter" Directory="file:///C:/Reports/"><FileSpec URL="a.pdf"/></H:ReportList>',
  '<ReportList Directory="file:///C:/Other/"/>',
  '<Layout C:Preps_Job_File="file:///C:/j.job" Preps_Template_File="x.tpl"/>',
  '<PreflightProfile H:ThumbnailFolder="file:///C:/Thumbs/"/>',
  '<X xmlns:H="http://example.com/"><PreflightProfile H:ThumbnailFolder="file:///C:/NotHDM/"/></X>',
  '<Y xmlns:Prinect="http://www.heidelberg.com"><Prinect:ContentHotfolderParams Prinect:Hotfolder="file:///C:/Hot/"/></Y>',
  '</ResourcePool></JDF>',
].join('\n');
const DOC = 'file:///C:/hot/t.jdf';
const read = (r: TicketReport) => r.references.map((x) => `${x.line} @${x.attribute} ${x.role} -> ${x.resolved}`);

test('without the opt-in no vendor attribute is read; the FileSpec resolves against the ticket', () => {
  assert.equal(read(validateTicket(TICKET, { documentUri: DOC })), ['2 @URL url -> file:///C:/hot/a.pdf']);
  assert.equal(read(validateTicket(TICKET, { documentUri: DOC, vocabularies: ['nosuch'] })), ['2 @URL url -> file:///C:/hot/a.pdf']);
});

test('heidelberg: matched by namespace URI, whatever the prefix; HDM:ReportList/@Directory is the base of its FileSpecs', () => {
  assert.equal(read(validateTicket(TICKET, { documentUri: DOC, vocabularies: ['heidelberg'] })), [
    '2 @Directory directory -> file:///C:/Reports/',
    '2 @URL url -> file:///C:/Reports/a.pdf',
    '5 @H:ThumbnailFolder directory -> file:///C:/Thumbs/',
    '7 @Prinect:Hotfolder directory -> file:///C:/Hot/',
  ]);
});

test('kodak: the Creo attribute only in its namespace', () => {
  assert.equal(read(validateTicket(TICKET, { documentUri: DOC, vocabularies: ['kodak'] })), ['2 @URL url -> file:///C:/hot/a.pdf', '4 @C:Preps_Job_File url -> file:///C:/j.job']);
});

test('--url-attribute: a prefixed element name is matched as written', () => {
  assert.equal(parseUrlAttribute('HDM:ReportList/@Directory=directory'), { element: 'ReportList', elementQname: 'HDM:ReportList', attribute: 'Directory', role: 'directory', families: ['JDF', 'JMF', 'XJDF', 'XJMF'] });
  assert.is(parseUrlAttribute('HDM:*/@Directory'), undefined);
  const row = parseUrlAttribute('H:ReportList/@Directory=directory')!;
  const r = validateTicket(TICKET, { documentUri: DOC, urlAttributes: [row] });
  assert.equal(read(r), ['2 @Directory directory -> file:///C:/Reports/', '2 @URL url -> file:///C:/hot/a.pdf']);
});

test('XJDF 2.0 drafts: Preview/@URL and @Directory under ParameterSet/Parameter are read, the URL against the Directory', () => {
  const xjdf = '<XJDF xmlns="http://www.CIP4.org/JDFSchema_2_0" Version="2.0">\n<ParameterSet Name="Preview"><Parameter><Preview Directory="file:///C:/pv/" URL="p.pdf"/></Parameter></ParameterSet>\n<ResourceSet Name="Preview"><Resource><Preview URL="q.pdf"/></Resource></ResourceSet></XJDF>';
  assert.equal(read(validateTicket(xjdf, { documentUri: 'file:///C:/hot/t.xjdf' })), ['2 @Directory directory -> file:///C:/pv/', '2 @URL url -> file:///C:/pv/p.pdf']);
});

test('config: vocabularies are checked by name, at their line and column, with the nearest', () => {
  assert.ok('config' in parseConfig('{ "vocabularies": ["heidelberg", "kodak"] }', configSchema()));
  const bad = parseConfig('{\n  "vocabularies": ["heidelburg"]\n}\n', configSchema());
  assert.equal(!('config' in bad) && bad.problems.map((p) => `${p.line}:${p.column} ${p.message}`), ["2:20 vocabularies.0: 'heidelburg' is no vocabulary of jdf-filespec (did you mean 'heidelberg'? there are heidelberg, kodak)"]);
});

test('CLI: --vocabulary and the config read the vendor attributes; an unknown name exits 2', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'vendor-vocabularies-'));
  try {
    const main = path.join(fileURLToPath(projectRoot), 'dist/src/cli/main.js');
    writeFileSync(path.join(dir, 't.jdf'), TICKET);
    const run = (...args: string[]) => spawnSync(process.execPath, [main, 'validate', 't.jdf', '-f', 'json', '--exit-zero', ...args], { encoding: 'utf8', cwd: dir });
    const attributes = (stdout: string) => JSON.parse(stdout).files[0].references.map((x: any) => x.attribute);
    assert.equal(attributes(run().stdout), ['URL']);
    assert.equal(attributes(run('--vocabulary', 'kodak').stdout), ['URL', 'C:Preps_Job_File']);
    writeFileSync(path.join(dir, 'jdf-filespec.config.json'), '{ "vocabularies": ["heidelberg"] }');
    assert.equal(attributes(run('--vocabulary', 'kodak').stdout), ['Directory', 'URL', 'C:Preps_Job_File', 'H:ThumbnailFolder', 'Prinect:Hotfolder']);
    const bad = run('--vocabulary', 'kodac');
    assert.is(bad.status, 2);
    assert.ok(bad.stderr.includes("did you mean 'kodak'?"), bad.stderr);
    const prefixed = run('--url-attribute', 'H:ReportList/@Directory=directory', '--config', path.join(dir, 'none.json'));
    assert.is(prefixed.status, 2, 'the config named is not there');
    writeFileSync(path.join(dir, 'jdf-filespec.config.json'), '{}');
    assert.equal(attributes(run('--url-attribute', 'H:ReportList/@Directory=directory').stdout), ['Directory', 'URL']);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test.run();
