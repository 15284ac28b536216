// fix --dry-run over tickets in several encodings prints one diff that `git apply` applies whole: each file's hunks
// are in that file's own bytes (its encoding, its BOM), so the result is byte for byte what `fix` writes. The
// oracle is `fix` itself on copies of the same tickets; the tickets are hand-built bytes (Node's Buffer codecs).
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { projectRoot, removeTempFolders, tempFolder } from './helpers.js';

const main = path.join(fileURLToPath(projectRoot), 'dist/src/cli/main.js');
const dir = tempFolder('jfs-diff-enc-');

function ticket(encoding: string, eol: string, extra: string[]): string {
  return [
    `<?xml version="1.0" encoding="${encoding}"?>`,
    '<JDF xmlns="http://www.CIP4.org/JDFSchema_1_1" Type="Product" ID="n" JobPartID="p" Status="Waiting" Version="1.2">',
    '  <ResourcePool>',
    '    <RunList ID="RL1" Class="Parameter" Status="Available" Directory="file:///srv/jobs/4711">',
    '      <LayoutElement><FileSpec URL="my docs/a.pdf"/></LayoutElement>',
    '    </RunList>',
    ...extra,
    '    <!-- 1 -->',
    '    <!-- 2 -->',
    '    <!-- 3 -->',
    '    <!-- 4 -->',
    '    <RunList ID="RL2" Class="Parameter" Status="Available"><LayoutElement><FileSpec URL="file:///srv/x y.pdf"/></LayoutElement></RunList>',
    '  </ResourcePool>',
    '</JDF>',
    '',
  ].join(eol);
}

const utf16be = (s: string) => Buffer.from(s, 'utf16le').swap16();
const BOM = { utf8: Buffer.from([0xef, 0xbb, 0xbf]), le: Buffer.from([0xff, 0xfe]), be: Buffer.from([0xfe, 0xff]) };

const FILES: Array<[string, Buffer]> = [
  // A BOM, and non-ASCII in the context and in a value.
  ['utf8.jdf', Buffer.concat([BOM.utf8, Buffer.from(ticket('UTF-8', '\n', ['    <!-- Größe -->', '    <RunList ID="RL3" Class="Parameter" Status="Available"><LayoutElement><FileSpec URL="Müller.pdf"/></LayoutElement></RunList>']))])],
  // é is one byte, E9: the diff must hold that byte, not C3 A9.
  ['latin1.jdf', Buffer.from(ticket('ISO-8859-1', '\n', ['    <!-- Größe -->', '    <RunList ID="RL3" Class="Parameter" Status="Available"><LayoutElement><FileSpec URL="résumé.pdf"/></LayoutElement></RunList>']), 'latin1')],
  // CRLF, and characters whose code unit holds a 0A byte (U+010A, U+0A0A): line breaks to git, in the context and in a value the fix escapes.
  ['utf16le.jdf', Buffer.concat([BOM.le, Buffer.from(ticket('UTF-16', '\r\n', ['    <!-- \u010a \u0a0a -->', '    <RunList ID="RL3" Class="Parameter" Status="Available"><LayoutElement><FileSpec URL="\u010a a.pdf"/></LayoutElement></RunList>']), 'utf16le')])],
  // No "\n" at the end: the last byte line is the last character's, without a newline.
  ['utf16le-no-final-newline.jdf', Buffer.concat([BOM.le, Buffer.from(ticket('UTF-16', '\n', ['    <!-- \u010a -->']).replace(/\n$/, ''), 'utf16le')])],
  // windows-1252's 80-9F: € is 80, – is 96; and a name that is not ASCII (the header is the file system's UTF-8).
  ['Größe-cp1252.jdf', Buffer.from(ticket('windows-1252', '\r\n', ['    <!-- 5 € – -->', '    <RunList ID="RL3" Class="Parameter" Status="Available"><LayoutElement><FileSpec URL="Preis€.pdf"/></LayoutElement></RunList>']).replace(/€/g, '\x80').replace(/–/g, '\x96'), 'latin1')],
  // The last line changes: in UTF-16LE the 00 of its "\n" is a byte line after it, which the hunk must end with.
  ['utf16le-last-line.jdf', Buffer.concat([BOM.le, Buffer.from(ticket('UTF-16', '\n', []).replace('</JDF>', '<!-- \u010a --><RunList ID="RL9" Class="Parameter" Status="Available"><LayoutElement><FileSpec URL="z z.pdf"/></LayoutElement></RunList></JDF>'), 'utf16le')])],
  // A hunk after a U+010A: its line numbers count the byte line that character starts.
  ['utf16le-later-hunk.jdf', Buffer.concat([BOM.le, Buffer.from(ticket('UTF-16', '\n', ['    <!-- \u010a -->', ...Array.from({ length: 8 }, (_, k) => `    <!-- ${k} -->`)]), 'utf16le')])],
  ['utf16be.jdf', Buffer.concat([BOM.be, utf16be(ticket('UTF-16', '\n', ['    <!-- \u010a -->', '    <RunList ID="RL3" Class="Parameter" Status="Available"><LayoutElement><FileSpec URL="\u0a0a a.pdf"/></LayoutElement></RunList>']))])],
];

const has = (command: string) => spawnSync(command, ['--version'], { encoding: 'utf8' }).status === 0;

test('one fix --dry-run diff over UTF-8, ISO-8859-1, UTF-16LE and UTF-16BE tickets: git apply gives what fix writes', () => {
  const work = path.join(dir, 'work');
  const oracle = path.join(dir, 'oracle');
  mkdirSync(work);
  mkdirSync(oracle);
  for (const [name, bytes] of FILES) {
    writeFileSync(path.join(work, name), bytes);
    writeFileSync(path.join(oracle, name), bytes);
  }
  const names = FILES.map(([name]) => name);
  const dry = spawnSync(process.execPath, [main, 'fix', '--dry-run', ...names], { cwd: work });
  assert.is(dry.status, 0, String(dry.stderr));
  const diff = dry.stdout;
  for (const [name, bytes] of FILES) assert.ok(readFileSync(path.join(work, name)).equals(bytes), `${name}: the dry run changes nothing`);
  assert.ok(diff.includes(Buffer.from('+    <RunList ID="RL3" Class="Parameter" Status="Available"><LayoutElement><FileSpec URL="r%E9sum%E9.pdf"/>', 'latin1')), 'the Latin-1 hunk holds E9 bytes');
  const real = spawnSync(process.execPath, [main, 'fix', ...names], { cwd: oracle });
  assert.is(real.status, 0, String(real.stderr));
  for (const [name, bytes] of FILES) assert.not.ok(readFileSync(path.join(oracle, name)).equals(bytes), `${name}: fix changed it`);
  writeFileSync(path.join(dir, 'fix.diff'), diff);
  assert.ok(has('git'), 'git is installed');
  const g = spawnSync('git', ['apply', '--no-index', '--verbose', path.join(dir, 'fix.diff')], { cwd: work, encoding: 'utf8' });
  assert.is(g.status, 0, g.stderr);
  for (const [name] of FILES) assert.ok(readFileSync(path.join(work, name)).equals(readFileSync(path.join(oracle, name))), `${name}: git apply gives what fix writes`);
  if (has('patch')) {
    for (const [name, bytes] of FILES) writeFileSync(path.join(work, name), bytes);
    const p = spawnSync('patch', ['-p1', '--batch', '-i', path.join(dir, 'fix.diff')], { cwd: work, encoding: 'utf8' });
    assert.is(p.status, 0, p.stdout + p.stderr);
    // Each hunk where its line numbers say, in the byte lines patch counts: no offset, no fuzz.
    assert.not.match(p.stdout, /offset|fuzz/, p.stdout);
    for (const [name] of FILES) assert.ok(readFileSync(path.join(work, name)).equals(readFileSync(path.join(oracle, name))), `${name}: patch gives what fix writes`);
  }
});

test.after(removeTempFolders);
test.run();
