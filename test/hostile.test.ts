// Hostile and broken tickets: each is made here (so the repository holds no megabyte files), written to a
// temporary folder, validated by the real CLI, and must give its expected findings with exit 0 or 1.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { removeTempFolders, tempFolder } from './helpers.js';
import { runCli } from './in-process.js';

const wrap = (fileSpecs: string) => `<?xml version="1.0" encoding="UTF-8"?>\n<JDF Version="1.4"><ResourcePool><RunList Directory="file:///srv/hot/">${fileSpecs}</RunList></ResourcePool></JDF>\n`;
const spec = (url: string) => `<LayoutElement><FileSpec URL="${url}"/></LayoutElement>`;
const utf16le = (s: string, bom: boolean) => Buffer.concat([bom ? Buffer.from([0xff, 0xfe]) : Buffer.alloc(0), Buffer.from(s, 'utf16le')]);

function billionLaughs(): string {
  let d = '<!DOCTYPE JDF [\n<!ENTITY lol "lol">\n';
  for (let i = 1; i <= 9; i++) d += `<!ENTITY lol${i} "${`&lol${i === 1 ? '' : i - 1};`.repeat(10)}">\n`;
  return `<?xml version="1.0"?>\n${d}]>\n<JDF><ResourcePool>${spec('&lol9;')}</ResourcePool></JDF>`;
}

interface Fixture {
  name: string;
  content: string | Buffer;
  /** Codes expected among the file's findings (file-level and reference-level). */
  expect: string[];
  args?: string[];
}

const FIXTURES: Fixture[] = [
  { name: 'billion-laughs.jdf', content: billionLaughs(), expect: ['doctype-entities', 'undefined-entity'] },
  { name: 'xxe-file.jdf', content: '<?xml version="1.0"?>\n<!DOCTYPE JDF [<!ENTITY x SYSTEM "file:///etc/passwd">]>\n<JDF>' + spec('&x;') + '</JDF>', expect: ['doctype-entities', 'undefined-entity'] },
  { name: 'xxe-url.jdf', content: '<?xml version="1.0"?>\n<!DOCTYPE JDF SYSTEM "http://192.0.2.1/evil.dtd">\n<JDF>' + spec('a.pdf') + '</JDF>', expect: ['doctype-entities'] },
  { name: 'deep-nesting.jdf', content: '<JDF>' + '<a>'.repeat(100_000) + spec('a b.pdf') + '</a>'.repeat(100_000) + '</JDF>', expect: ['xml-too-deep'] },
  { name: 'deep-but-fine.jdf', content: '<JDF>' + '<a>'.repeat(450) + spec('a b.pdf') + '</a>'.repeat(450) + '</JDF>', expect: ['unescaped-space'] },
  { name: 'megabyte-dotdot.jdf', content: wrap(spec('../'.repeat(350_000) + 'a.pdf')), expect: ['climbs-above-root'] },
  { name: 'many-percent.jdf', content: wrap(spec('%'.repeat(200_000))), expect: ['invalid-percent-encoding'] },
  { name: 'nul-literal.jdf', content: wrap(spec('a\u0000b.pdf')), expect: ['invalid-xml-char', 'control-character'] },
  { name: 'tab-newline-literal.jdf', content: wrap(spec('a\tb\nc.pdf')), expect: ['unescaped-space'] },
  { name: 'tab-newline-refs.jdf', content: wrap(spec('a&#9;b&#10;c.pdf')), expect: ['control-character'] },
  { name: 'nul-ref.jdf', content: wrap(spec('a&#0;.pdf')), expect: ['invalid-char-ref'] },
  { name: 'invalid-utf8.jdf', content: Buffer.concat([Buffer.from(wrap(spec('caf')).split('caf')[0]! + 'caf'), Buffer.from([0xe9, 0x28]), Buffer.from('.pdf"/></LayoutElement></RunList></ResourcePool></JDF>')]), expect: ['invalid-encoding-bytes'] },
  { name: 'utf16-bom.jdf', content: utf16le(wrap(spec('a b.pdf')).replace('UTF-8', 'UTF-16'), true), expect: ['unescaped-space'] },
  { name: 'utf16-nobom.jdf', content: utf16le(wrap(spec('a b.pdf')).replace('UTF-8', 'UTF-16'), false), expect: ['unescaped-space'] },
  { name: 'cr-only.jdf', content: wrap(spec('a b.pdf')).replace(/\n/g, '\r'), expect: ['unescaped-space'] },
  { name: 'crlf.jdf', content: wrap(spec('a b.pdf')).replace(/\n/g, '\r\n'), expect: ['unescaped-space'] },
  { name: 'several-roots.jdf', content: '<JDF/>\n<JDF/>\n', expect: ['xml-several-roots'] },
  { name: 'lt-in-value.jdf', content: wrap(spec('a<b.pdf')), expect: ['lt-in-attribute'] },
  { name: 'bare-amp.jdf', content: wrap(spec('a&b.pdf')), expect: ['bare-ampersand'] },
  { name: 'empty.jdf', content: '', expect: ['xml-empty'] },
  { name: 'binary.jdf', content: Buffer.from(Array.from({ length: 1 << 20 }, (_, i) => (i * 2654435761) >>> 24)), expect: ['invalid-encoding-bytes'] },
  { name: 'too-large.jdf', content: wrap(spec('a.pdf')), expect: ['file-too-large'], args: ['--max-bytes', '64'] },
];

const dir = tempFolder('jfs-hostile-');
for (const f of FIXTURES) writeFileSync(path.join(dir, f.name), f.content);

for (const f of FIXTURES) {
  test(`hostile ${f.name}: ${f.expect.join(', ')}; exit 0 or 1, no stack trace`, async () => {
    const r = await runCli(['validate', path.join(dir, f.name), '--format', 'json', ...(f.args ?? [])], { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
    assert.ok(r.status === 0 || r.status === 1, `exit ${r.status}: ${r.stderr.slice(0, 500)}`);
    assert.is(r.stderr, '');
    const file = JSON.parse(r.stdout).files[0];
    const codes = [...file.findings, ...file.references.flatMap((x: any) => x.findings)].map((x: any) => x.code);
    for (const code of f.expect) assert.ok(codes.includes(code), `${code} in ${codes}`);
    assert.not.ok(r.stdout.includes('root:x:0:0'), 'nothing was read from the file system');
  });
}

test('every hostile file in one run: exit 1, and the text output has no stack trace', async () => {
  const r = await runCli(['validate', dir], { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
  assert.is(r.status, 1);
  assert.not.match(r.stdout + r.stderr, /\n\s+at .*\(.*:\d+:\d+\)/);
  assert.match(r.stdout, new RegExp(`^${FIXTURES.length} files, `, 'm'));
});

test('a password is redacted in text, JSON and SARIF output', async () => {
  const file = path.join(dir, 'secret.jdf');
  writeFileSync(file, wrap(spec('ftp://user:hunter2@files.example.com/a b.pdf') + spec('file://u:hunter2@c:/x.pdf')));
  for (const format of ['text', 'json', 'sarif']) {
    const r = await runCli(['validate', file, '--format', format, '--references'], { encoding: 'utf8' });
    assert.ok(r.stdout.length > 100);
    assert.not.ok((r.stdout + r.stderr).includes('hunter2'), format);
  }
});

test.after(removeTempFolders);
test.run();
