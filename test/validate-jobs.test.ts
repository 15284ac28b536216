// validate --jobs N: with several threads each formats the files it checks (report/file-pieces.ts) and the main
// thread puts their text together; the report must be the same bytes as one thread's (--jobs 1, which formats the
// whole report at once), in every format, with --quiet, --references, -o FILE and --max-warnings, with the same
// messages and exit code, in folder mode and with files matched by a pattern. Nothing is left in the temporary
// folder (test/run.js fails a file that leaves anything there: SARIF keeps its results in a temporary file).
import { mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { projectRoot, removeTempFolders, tempFolder } from './helpers.js';
import { runCli } from './in-process.js';

const root = fileURLToPath(projectRoot);
const run = (args: string[]) => runCli(args, { encoding: 'utf8', cwd: root });

/**
 * A folder of 30 tickets (four chunks of eight: both threads get some) with errors, warnings, infos, a finding a
 * directive silences (in a reference and in the file), a not-a-ticket XML file (left out in folder mode), a link that cannot be followed
 * (unreadable: exit 2) in a folder of its own, and a ticket over 128 KiB (read apart from the small ones).
 */
function fixtures(): { dir: string; broken: string } {
  const dir = tempFolder('jfs-jobs-same-');
  for (let i = 0; i < 30; i++) {
    const url = ['a b.pdf', 'C:\\Jobs\\x.pdf', 'file://server/share/p.pdf', 'ok.pdf', 'file:///c:/Jobs/y.pdf'][i % 5];
    const directive = i % 7 === 0 ? '<!-- jdf-filespec-disable unescaped-space -->' : '';
    writeFileSync(path.join(dir, `t${String(i).padStart(2, '0')}.jdf`), `<JDF Version="1.4">${directive}<ResourcePool><RunList Directory="file:///srv/${i}/"><LayoutElement><FileSpec URL="${url}"/></LayoutElement></RunList></ResourcePool></JDF>`);
  }
  const many = Array.from({ length: 2000 }, (_, i) => `<FileSpec ID="F${i}" URL="${i % 3 === 0 ? 'a b' : 'c'}${i}.pdf"/>`).join('\n');
  writeFileSync(path.join(dir, 'big.jdf'), `<JDF Version="1.4"><ResourcePool>\n${many}\n</ResourcePool></JDF>`);
  // A finding of the file itself that a directive silences (its `suppressed`, SARIF's suppressions).
  writeFileSync(path.join(dir, 'rref.jdf'), '<JDF Version="1.4"><!-- jdf-filespec-disable dangling-rref --><ResourcePool><RunList ID="R" Class="Parameter" Directory="file:///srv/"><LayoutElementRef rRef="LE2"/></RunList></ResourcePool></JDF>');
  writeFileSync(path.join(dir, 'pom.xml'), '<project><modelVersion>4.0.0</modelVersion></project>');
  const broken = path.join(dir, 'broken');
  mkdirSync(broken);
  writeFileSync(path.join(broken, 'b.jdf'), '<JDF Version="1.4"><ResourcePool><FileSpec URL="b b.pdf"/>');
  symlinkSync(path.join(dir, 'missing.jdf'), path.join(broken, 'gone.jdf'));
  return { dir, broken };
}

/** The run with --jobs 1 and with more: the same status, output, messages and -o FILE. */
async function same(args: string[], outputFile?: string, others = ['2']): Promise<void> {
  const results = [];
  for (const jobs of ['1', ...others]) {
    const r = await run([...args, '--jobs', jobs]);
    const file = outputFile !== undefined ? readFileSync(outputFile, 'utf8') : '';
    if (outputFile !== undefined) rmSync(outputFile);
    results.push({ ...r, file });
  }
  const [one, ...more] = results;
  assert.ok(one!.stdout.length + one!.file.length > 200, `${args.join(' ')}: a report`);
  for (const r of more) {
    assert.is(r.status, one!.status, `${args.join(' ')}: exit code`);
    assert.is(r.stderr, one!.stderr, `${args.join(' ')}: messages`);
    assert.is(r.stdout, one!.stdout, `${args.join(' ')}: output`);
    assert.is(r.file, one!.file, `${args.join(' ')}: -o FILE`);
  }
}

const FORMATS = ['json', 'sarif', 'unix', 'github', 'text'];

test('validate FOLDER: several threads give the same bytes as one, in every format, with --quiet and --references', async () => {
  const { dir } = fixtures();
  for (const format of FORMATS) await same(['validate', dir, 'samples', '-f', format]);
  await same(['validate', dir, '-f', 'json', '--quiet'], undefined, ['2', '3']);
  await same(['validate', dir, '--quiet', '--references', '--debug']);
});

test('validate FOLDER -o FILE, --max-warnings, unreadable paths and a folder of no tickets: the same with several threads', async () => {
  const { dir, broken } = fixtures();
  const out = path.join(tempFolder('jfs-jobs-out-'), 'sub', 'report');
  for (const format of ['sarif', 'text']) await same(['validate', dir, '-f', format, '-o', out], out);
  await same(['validate', dir, '-f', 'unix', '--max-warnings', '0', '--rule', 'unescaped-space:warning']);
  await same(['validate', dir, broken, '-f', 'sarif']);
  // pom.xml alone among others that are not tickets: a folder that found no ticket is a usage error (exit 2).
  const notTickets = tempFolder('jfs-jobs-none-');
  for (let i = 0; i < 12; i++) writeFileSync(path.join(notTickets, `p${i}.xml`), '<project/>');
  const none = await run(['validate', dir, notTickets, '-f', 'json', '--jobs', '2']);
  const alone = await run(['validate', dir, notTickets, '-f', 'json', '--jobs', '1']);
  assert.is(none.status, 2);
  assert.is(none.stdout, '');
  assert.is(none.stderr, alone.stderr);
  assert.is(alone.status, 2);
});

test('validate PATTERN (reports streamed as they come): several threads give the same bytes as one', async () => {
  const { dir } = fixtures();
  for (const format of ['json', 'sarif', 'unix', 'github']) await same(['validate', `${dir}/*.jdf`, `${dir}/*.xml`, '-f', format]);
});

test.after(removeTempFolders);
test.run();
