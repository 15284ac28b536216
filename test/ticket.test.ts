import { readFileSync } from 'node:fs';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { validateTicket, type TicketReport } from '../src/index.js';
import { markupRules } from '../src/rules/markup.js';
import { ticketRules } from '../src/rules/ticket.js';
import { loadData, projectRoot } from './helpers.js';

const sample = (name: string) => new Uint8Array(readFileSync(new URL(`samples/${name}`, projectRoot)));
const HOT = 'file:///pub/hot-folder/ticket.jdf';
const codesOf = (r: TicketReport) => [...r.findings.map((f) => f.code), ...r.references.flatMap((x) => x.findings.map((f) => f.code))].sort();
const jdf = (body: string, version = '1.4') => `<?xml version="1.0" encoding="UTF-8"?>\n<JDF xmlns="http://www.CIP4.org/JDFSchema_1_1" Version="${version}"><ResourcePool>${body}</ResourcePool></JDF>`;
const appendix = loadData('jdf-appendix-examples.json');

test('sample appendix-example.jdf: the appendix resolves it to file:///c:/DownloadDir/F-22/job001.pdf, clean', () => {
  const r = validateTicket(sample('appendix-example.jdf'), { documentUri: HOT });
  const url = r.references.find((x) => x.attribute === 'URL')!;
  assert.is(url.resolved, appendix.xmlExample.resolved);
  assert.is(url.baseSource, 'directory');
  assert.is(url.base, 'file:///c:/DownloadDir/Title-J626103/');
  assert.is(url.element, "/JDF/ResourcePool/RunList[@ID='FileListLinkOut']/LayoutElement/FileSpec");
  assert.equal([url.line, url.column], [7, 24]);
  assert.equal(codesOf(r), []);
});

test('sample directory-no-slash.jdf: the Directory warning and the consumers disagreeing', () => {
  const r = validateTicket(sample('directory-no-slash.jdf'), { documentUri: HOT });
  assert.equal(codesOf(r), ['consumers-disagree', 'directory-without-trailing-slash']);
  const url = r.references.find((x) => x.attribute === 'URL')!;
  assert.is(url.resolved, appendix.xmlExample.withoutTrailingSlash.resolved);
  const f = url.findings[0]!;
  assert.ok(f.message.includes('string join') && f.message.includes('WHATWG URL') && f.message.includes('strict RFC 3986'));
});

test('sample partitioned-runlist.jdf: partitions take the nearest Directory, values are not joined', () => {
  const r = validateTicket(sample('partitioned-runlist.jdf'), { documentUri: HOT });
  const byValue = Object.fromEntries(r.references.filter((x) => x.role === 'url').map((x) => [x.value, x.resolved]));
  assert.equal(byValue, {
    'cover.pdf': 'file://fileserver/Jobs/4711/cover.pdf',
    'body.pdf': 'file://fileserver/Jobs/4711/body/body.pdf',
    'inserts/insert%201.pdf': 'file://fileserver/Jobs/4711/inserts/insert%201.pdf',
  });
  assert.equal(codesOf(r), []);
  assert.ok(r.references.filter((x) => x.role === 'url').every((x) => x.local === false), 'a named file server is not local');
});

test('sample hot-folder.jdf: without Directory the base is the ticket folder (appendix example 8)', () => {
  const r = validateTicket(sample('hot-folder.jdf'), { documentUri: HOT });
  assert.equal(r.references.map((x) => [x.value, x.baseSource, x.base, x.resolved]), [
    ['./a.pdf', 'document', 'file:///pub/hot-folder/', appendix.good.cases[7].withoutDirectory.resolved],
    ['art/logo.eps', 'document', 'file:///pub/hot-folder/', 'file:///pub/hot-folder/art/logo.eps'],
  ]);
  assert.equal(codesOf(r), []);
});

test('--base overrides the ticket folder; without either, relative URLs are unresolved with a finding', () => {
  const opt = validateTicket(sample('hot-folder.jdf'), { documentUri: HOT, base: 'file:///srv/other/' });
  assert.equal(opt.references.map((x) => [x.baseSource, x.resolved]), [['option', 'file:///srv/other/a.pdf'], ['option', 'file:///srv/other/art/logo.eps']]);
  const none = validateTicket(sample('hot-folder.jdf'));
  assert.equal(none.references.map((x) => [x.baseSource, x.resolved]), [['none', null], ['none', null]]);
  assert.equal(codesOf(none), ['no-base', 'no-base']);
});

test('sample rref.jdf: one FileSpec used from two RunLists is reported per use, each with its base; the dangling rRef is a finding', () => {
  const r = validateTicket(sample('rref.jdf'), { documentUri: HOT, platform: 'unix' });
  const uses = r.references.filter((x) => x.attribute === 'URL');
  assert.equal(uses.map((x) => [x.resolved, x.via]), [
    ['file:///srv/jobs/proof/shared/logo.pdf', "/JDF/ResourcePool/RunList[@ID='RL1']/LayoutElementRef"],
    ['file:///srv/jobs/final/shared/logo.pdf', "/JDF/ResourcePool/RunList[@ID='RL2']/LayoutElementRef"],
  ]);
  assert.ok(uses.every((x) => x.element === "/JDF/ResourcePool/FileSpec[@ID='FS1']" && x.line === 8));
  assert.equal(codesOf(r), ['dangling-rref']);
  assert.equal([r.findings[0]!.line, r.findings[0]!.column], [14, 31]);
});

test('sample container.jdf: the container resolves by the Directory, the file in it against the container', () => {
  const r = validateTicket(sample('container.jdf'), { documentUri: HOT, platform: 'unix' });
  const [zip, page] = r.references.filter((x) => x.attribute === 'URL');
  assert.equal([zip!.value, zip!.baseSource, zip!.resolved], ['package.zip', 'directory', 'file:///srv/jobs/4711/package.zip']);
  assert.equal([page!.value, page!.baseSource, page!.base, page!.resolved], ['pages/page1.pdf', 'container', 'file:///srv/jobs/4711/package.zip/', 'file:///srv/jobs/4711/package.zip/pages/page1.pdf']);
  assert.equal(codesOf(r), []);
});

test('a file in a container must have a relative URL', () => {
  const r = validateTicket(jdf('<FileSpec URL="file:///c:/a.pdf"><Container><FileSpec URL="file:///c:/pack.zip"/></Container></FileSpec>'), { documentUri: HOT });
  assert.equal(codesOf(r), ['container-url-not-relative']);
});

test('sample latin1.jdf: %E9 is é in an ISO-8859-1 ticket; raw é is an error under its JDF 1.2', () => {
  const r = validateTicket(sample('latin1.jdf'), { documentUri: HOT, platform: 'unix' });
  assert.is(r.encoding, 'ISO-8859-1');
  assert.is(r.jdfVersion, '1.2');
  assert.equal(r.references.map((x) => x.value), ['file:///srv/jobs/', 'caf%E9.pdf', 'résumé.pdf']);
  assert.equal(codesOf(r), ['non-ascii']);
});

test('jdfVersion overrides the ticket\'s own Version', () => {
  assert.equal(codesOf(validateTicket(sample('latin1.jdf'), { documentUri: HOT, platform: 'unix', jdfVersion: '1.4' })), ['non-ascii']);
  const r = validateTicket(sample('latin1.jdf'), { documentUri: HOT, platform: 'unix', jdfVersion: '1.4' });
  assert.is(r.references.flatMap((x) => x.findings)[0]!.severity, 'info');
  assert.is(r.jdfVersion, '1.4');
});

test('%E9 in a UTF-8 ticket is not UTF-8: flagged', () => {
  const r = validateTicket(jdf('<FileSpec URL="caf%E9.pdf"/>'), { documentUri: HOT });
  assert.equal(codesOf(r), ['invalid-escaped-octets']);
});

test('sample ticket.xjdf: RunList/FileSpec and Preview/FileSpec against the ticket folder', () => {
  const r = validateTicket(sample('ticket.xjdf'), { documentUri: HOT });
  assert.is(r.root, 'XJDF');
  assert.equal(r.references.map((x) => [x.element, x.baseSource, x.resolved]), [
    ['/XJDF/ResourceSet/Resource/RunList/FileSpec', 'document', 'file:///pub/hot-folder/content/book.pdf'],
    ['/XJDF/ResourceSet/Resource/Preview/FileSpec', 'document', 'file:///pub/hot-folder/previews/p1 front.png'],
  ]);
  assert.equal(codesOf(r), ['unescaped-space']);
});

test('sample table4-bad.jdf: each bad example of Table 4 gets its error on its own line', () => {
  const r = validateTicket(sample('table4-bad.jdf'), { documentUri: HOT, platform: 'windows' });
  const expected: Record<number, string> = { 21: 'file-without-authority', 22: 'drive-letter-as-host', 23: 'unescaped-space', 24: 'backslash', 25: 'dot-segment-in-absolute-url', 26: 'root-without-drive', 27: 'authority-without-path', 28: 'escaped-slash' };
  const urls = r.references.filter((x) => x.attribute === 'URL');
  assert.is(urls.length, 8);
  appendix.bad.cases.forEach((c: any, i: number) => {
    const ref = urls[i]!;
    assert.is(ref.value, c.url);
    assert.is(ref.line, 7 + 2 * i, `example ${c.n} is on line ${7 + 2 * i}`);
    const f = ref.findings.find((x) => x.code === expected[c.n]);
    assert.ok(f && f.severity === 'error', `example ${c.n}: ${expected[c.n]} in ${ref.findings.map((x) => x.code)}`);
  });
});

test('sample mime-cid.jdf: a cid: reference is classified, not resolved against a base', () => {
  const r = validateTicket(sample('mime-cid.jdf'), { documentUri: HOT });
  assert.equal(r.references.map((x) => [x.scheme, x.baseSource, x.base, x.resolved]), [['cid', 'none', null, 'cid:pdl@cip4.org']]);
  assert.equal(codesOf(r), []);
});

test('sample queue-submission.jmf: JMF URLs', () => {
  const r = validateTicket(sample('queue-submission.jmf'), { documentUri: HOT });
  // QueueSubmissionParams/@URL, @ReturnURL and ReturnQueueEntryParams/@URL are URL-typed in the JMF 1.x schema (data/url-attributes.json).
  assert.equal(r.references.map((x) => `${x.element}/@${x.attribute}`), ['/JMF/Command/QueueSubmissionParams/@URL', '/JMF/Command/QueueSubmissionParams/@ReturnURL', '/JMF/Command/ReturnQueueEntryParams/@URL']);
  assert.equal(codesOf(r), ['unescaped-space']);
});

test('the walker finds every URL attribute it lists', () => {
  const t = `<JDF Version="1.4"><ResourcePool>
<RunList Directory="file:///c:/d/"><LayoutElement><FileSpec URL="a.pdf"/><Dependencies><FileSpec URL="font.otf"/></Dependencies></LayoutElement><ByteMap><FileSpec URL="bm.tif"/></ByteMap></RunList>
<ColorSpaceConversionParams><FileSpec URL="p.icc"/></ColorSpaceConversionParams>
<Preview URL="p.png" Directory="file:///c:/prev/"/><Device Directory="file:///c:/dev/"/><FileAlias URL="x.pdf"/>
</ResourcePool><AuditPool><Spawned URL="s.jdf"/><Merged URL="m.jdf"/></AuditPool></JDF>`;
  const r = validateTicket(t, { documentUri: HOT });
  assert.equal(r.references.map((x) => `${x.element.split('/').slice(-2).join('/')}@${x.attribute}=${x.resolved}`), [
    'ResourcePool/RunList@Directory=file:///c:/d/',
    'LayoutElement/FileSpec@URL=file:///c:/d/a.pdf',
    'Dependencies/FileSpec@URL=file:///c:/d/font.otf',
    'ByteMap/FileSpec@URL=file:///c:/d/bm.tif',
    'ColorSpaceConversionParams/FileSpec@URL=file:///pub/hot-folder/p.icc',
    'ResourcePool/Preview@Directory=file:///c:/prev/',
    'ResourcePool/Preview@URL=file:///c:/prev/p.png',
    'ResourcePool/Device@Directory=file:///c:/dev/',
    'ResourcePool/FileAlias@URL=file:///pub/hot-folder/x.pdf',
    'AuditPool/Spawned@URL=file:///pub/hot-folder/s.jdf',
    'AuditPool/Merged@URL=file:///pub/hot-folder/m.jdf',
  ]);
});

test('namespaces: elements match on local names', () => {
  const r = validateTicket('<jdf:JDF xmlns:jdf="http://www.CIP4.org/JDFSchema_1_1"><jdf:ResourcePool><jdf:FileSpec URL="a b.pdf"/></jdf:ResourcePool></jdf:JDF>', { documentUri: HOT });
  assert.equal(r.references.map((x) => x.element), ['/JDF/ResourcePool/FileSpec']);
  assert.equal(codesOf(r), ['unescaped-space']);
});

test('attribute values are XML-decoded; positions still point into the file', () => {
  const text = jdf('<FileSpec URL="my&#x20;docs/a&amp;b.pdf"/>');
  const r = validateTicket(text, { documentUri: HOT });
  const ref = r.references[0]!;
  assert.is(ref.value, 'my docs/a&b.pdf');
  const f = ref.findings.find((x) => x.code === 'unescaped-space')!;
  const line = text.split('\n')[f.line - 1]!;
  assert.is(line.slice(f.column - 1, f.column - 1 + 6), '&#x20;');
});

test('a literal tab is normalized to a space by XML; &#9; stays a tab', () => {
  assert.equal(codesOf(validateTicket(jdf('<FileSpec URL="a\tb.pdf"/>'), { documentUri: HOT })), ['unescaped-space']);
  // WHATWG URL's parser removes every tab from its input (basic URL parser, step 3), so it reads ab.pdf.
  assert.equal(codesOf(validateTicket(jdf('<FileSpec URL="a&#9;b.pdf"/>'), { documentUri: HOT })), ['consumers-disagree', 'control-character']);
});

for (const [name, eol] of [['CRLF', '\r\n'], ['CR', '\r'], ['LF', '\n']] as const) {
  test(`${name} line endings: line and column stay right`, () => {
    const text = ['<?xml version="1.0"?>', '<JDF Version="1.4">', '<ResourcePool>', '  <FileSpec URL="a b.pdf"/>', '</ResourcePool>', '</JDF>'].join(eol);
    const r = validateTicket(text, { documentUri: HOT });
    const f = r.references[0]!.findings[0]!;
    assert.equal([r.references[0]!.line, r.references[0]!.column, f.line, f.column], [4, 18, 4, 19]);
    const broken = validateTicket(text.replace('</ResourcePool>', '</Pool>'), { documentUri: HOT });
    assert.is(broken.findings[0]!.code, 'xml-malformed');
    assert.is(broken.findings[0]!.line, 5);
  });
}

const utf16 = (s: string, le: boolean, bom: boolean) => {
  const out: number[] = bom ? (le ? [0xff, 0xfe] : [0xfe, 0xff]) : [];
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    out.push(...(le ? [c & 255, c >> 8] : [c >> 8, c & 255]));
  }
  return Uint8Array.from(out);
};

for (const le of [true, false]) {
  for (const bom of [true, false]) {
    test(`UTF-16${le ? 'LE' : 'BE'} ${bom ? 'with' : 'without'} BOM`, () => {
      const r = validateTicket(utf16('<?xml version="1.0" encoding="UTF-16"?>\n' + jdf('<FileSpec URL="Ärger.pdf"/>').replace(/^<\?xml[^>]*>\n/, ''), le, bom), { documentUri: HOT });
      assert.is(r.encoding, le ? 'UTF-16LE' : 'UTF-16BE');
      assert.equal(r.references.map((x) => x.value), ['Ärger.pdf']);
    });
  }
}

test('windows-1252 ticket: 0x80 is the euro sign', () => {
  const bytes = Uint8Array.from([...Buffer.from('<?xml version="1.0" encoding="windows-1252"?><JDF><ResourcePool><FileSpec URL="'), 0x80, ...Buffer.from('.pdf"/></ResourcePool></JDF>')]);
  assert.equal(validateTicket(bytes, { documentUri: HOT }).references.map((x) => x.value), ['€.pdf']);
});

test('invalid UTF-8 bytes: one error with line and column, nothing else', () => {
  const bytes = Uint8Array.from([...Buffer.from('<JDF>\n  <FileSpec URL="a'), 0xe9, ...Buffer.from('.pdf"/></JDF>')]);
  const r = validateTicket(bytes, { documentUri: HOT });
  assert.equal(r.findings.map((f) => [f.code, f.line, f.column]), [['invalid-encoding-bytes', 2, 19]]);
  assert.equal(r.references, []);
});

test('malformed XML, empty file, binary junk, several roots: findings, not crashes', () => {
  assert.equal(validateTicket('', {}).findings.map((f) => f.code), ['xml-empty']);
  assert.equal(validateTicket(new Uint8Array(0), {}).findings.map((f) => f.code), ['xml-empty']);
  const junk = new Uint8Array(4096).map((_, i) => (i * 7919) % 256);
  assert.equal(validateTicket(junk, {}).findings.length, 1);
  assert.equal(validateTicket('<JDF><ResourcePool></JDF>', {}).findings.map((f) => [f.code, f.line]), [['xml-malformed', 1]]);
  const two = validateTicket('<JDF/>\n<JDF><FileSpec URL="a.pdf"/></JDF>', { documentUri: HOT });
  assert.equal(two.findings.map((f) => [f.code, f.line, f.column]), [['xml-several-roots', 2, 1]]);
  assert.is(two.references.length, 1);
});

test('< and bare & in attribute values, undefined entities', () => {
  assert.equal(codesOf(validateTicket(jdf('<FileSpec URL="a<b.pdf"/>'), { documentUri: HOT })), ['lt-in-attribute', 'unsafe-character']);
  assert.equal(codesOf(validateTicket(jdf('<FileSpec URL="a&b.pdf"/>'), { documentUri: HOT })), ['bare-ampersand']);
  assert.equal(codesOf(validateTicket(jdf('<FileSpec URL="a&nbsp;.pdf"/>'), { documentUri: HOT })), ['undefined-entity']);
});

test('a billion-laughs DOCTYPE is reported, not expanded', () => {
  let doctype = '<!DOCTYPE JDF [\n<!ENTITY lol "lol">\n';
  for (let i = 1; i <= 9; i++) doctype += `<!ENTITY lol${i} "${`&lol${i === 1 ? '' : i - 1};`.repeat(10)}">\n`;
  doctype += ']>\n';
  const r = validateTicket(`<?xml version="1.0"?>\n${doctype}<JDF><ResourcePool><FileSpec URL="&lol9;.pdf"/></ResourcePool></JDF>`, { documentUri: HOT });
  assert.equal(codesOf(r), ['doctype-entities', 'undefined-entity']);
  assert.is(r.findings[0]!.line, 2);
  assert.is(r.references[0]!.value, '&lol9;.pdf');
});

test('an external entity is never fetched or read', () => {
  const r = validateTicket('<?xml version="1.0"?>\n<!DOCTYPE JDF [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>\n<JDF><FileSpec URL="&xxe;"/></JDF>', { documentUri: HOT });
  assert.ok(r.findings[0]!.message.includes('nothing external is fetched'));
  assert.not.ok(JSON.stringify(r).includes('root:'));
});

test('100,000 nested elements do not overflow the stack', () => {
  const depth = 100_000;
  const r = validateTicket('<JDF>' + '<a>'.repeat(depth) + '<FileSpec URL="x y.pdf"/>' + '</a>'.repeat(depth) + '</JDF>', { documentUri: HOT });
  assert.ok(r.findings.length + r.references.length >= 1);
});

test('an rRef cycle is cut and reported', () => {
  const r = validateTicket(jdf('<RunList ID="A"><RunListRef rRef="B"/></RunList><RunList ID="B"><RunListRef rRef="A"/><LayoutElement><FileSpec URL="a.pdf"/></LayoutElement></RunList><RunList ID="C" Directory="file:///c:/j/"><RunListRef rRef="A"/></RunList>'), { documentUri: HOT });
  assert.ok(codesOf(r).includes('rref-cycle'));
});

test('a password in a ticket never appears in the report', () => {
  const r = validateTicket(jdf('<RunList Directory="ftp://u:hunter2@h/jobs/"><LayoutElement><FileSpec URL="../../../a b.pdf"/></LayoutElement></RunList><FileSpec URL="file://u:hunter2@h/x.pdf"/>'), { documentUri: HOT });
  assert.not.ok(JSON.stringify(r).includes('hunter2'));
  assert.ok(codesOf(r).includes('password-in-userinfo'));
});

test('a BOM and a declaration that disagree: a warning, the bytes win', () => {
  const bytes = Uint8Array.from([0xef, 0xbb, 0xbf, ...Buffer.from('<?xml version="1.0" encoding="ISO-8859-1"?><JDF><FileSpec URL="\u00e4.pdf"/></JDF>')]);
  const r = validateTicket(bytes, { documentUri: HOT });
  assert.equal(r.findings.map((f) => f.code), ['encoding-mismatch']);
  assert.is(r.encoding, 'UTF-8');
});

test('an encoding we cannot read: one error', () => {
  const r = validateTicket(new Uint8Array(Buffer.from('<?xml version="1.0" encoding="EBCDIC-XYZ"?>\n<JDF/>')), { documentUri: HOT });
  assert.equal(r.findings.map((f) => [f.code, f.line]), [['unsupported-encoding', 1]]);
});

test('--max-bytes: a larger input is a finding', () => {
  assert.equal(validateTicket(jdf(''), { maxBytes: 10 }).findings.map((f) => f.code), ['file-too-large']);
});

// Issue 11: a resource that only rRefs name, none of them reached from a root, was never walked.
test('a resource that refers only to itself is walked once, and the cycle reported', () => {
  const r = validateTicket(jdf('<RunList ID="A"><LayoutElement><FileSpec URL="a b.pdf"/></LayoutElement><RunListRef rRef="A"/></RunList>'), { documentUri: HOT });
  assert.equal(r.references.map((x) => x.value), ['a b.pdf']);
  assert.ok(r.references[0]!.findings.some((f) => f.code === 'unescaped-space'));
  assert.equal(r.findings.filter((f) => f.code === 'rref-cycle').length, 1);
});

test('two resources that refer only to each other are walked once each, and the cycle reported', () => {
  const r = validateTicket(jdf('<RunList ID="A"><FileSpec URL="a.pdf"/><RunListRef rRef="B"/></RunList><RunList ID="B"><FileSpec URL="b.pdf"/><RunListRef rRef="A"/></RunList>'), { documentUri: HOT });
  assert.equal(r.references.map((x) => x.value).sort(), ['a.pdf', 'b.pdf']);
  assert.equal(r.findings.filter((f) => f.code === 'rref-cycle').length, 1);
});

test('a dangling rRef in a resource reached through two refs is reported once, where it stands', () => {
  const r = validateTicket(jdf('<LayoutElement ID="L"><FileSpecRef rRef="NOPE"/></LayoutElement><RunList ID="R1"><LayoutElementRef rRef="L"/></RunList><RunList ID="R2"><LayoutElementRef rRef="L"/></RunList>'), { documentUri: HOT });
  const dangling = r.findings.filter((f) => f.code === 'dangling-rref').map((f) => `${f.line}:${f.column}`);
  assert.equal(dangling, [`2:${jdf('').split('\n')[1]!.length + '<LayoutElement ID="L"><FileSpecRef rRef="'.length - '</ResourcePool></JDF>'.length + 1}`]);
});

test('every ticket rule has its logic in its module, or is a verdict of the reader or a problem the lexer finds', () => {
  const hooks = ['checkDoctype', 'checkDocument', 'checkLink', 'checkIdentifier', 'checkReference', 'checkWalked'] as const;
  const readerVerdicts = ['file-too-large', 'invalid-encoding-bytes', 'unsupported-encoding', 'encoding-mismatch', 'xml-empty', 'xml-malformed', 'xml-too-deep'];
  const lexerProblems = ['undefined-entity', 'bare-ampersand', 'lt-in-attribute', 'invalid-char-ref', 'duplicate-attribute', 'xml-declaration-misplaced', 'comment-double-hyphen', 'tag-malformed', 'cdata-end-in-text'];
  for (const rule of [...ticketRules, ...markupRules]) {
    const code = rule.meta.code;
    const checked = hooks.some((h) => typeof rule[h] === 'function');
    assert.ok(checked || readerVerdicts.includes(code) || lexerProblems.includes(code), `${code} has no check and is not the reader's`);
    assert.ok(!(checked && readerVerdicts.includes(code)), `${code}: a reader's verdict with a check`);
  }
});

test.run();
