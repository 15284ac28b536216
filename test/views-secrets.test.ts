// FileSpec/@Password and NetworkHeader values never appear in any output, as a URL's password never does.
import { realpathSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { redactSecrets } from '../src/fileurl/secrets.js';
import { removeTempFolders, tempFolder } from './helpers.js';
import { runCli } from './in-process.js';

const dir = realpathSync(tempFolder('jfs-secrets-'));
writeFileSync(path.join(dir, 'jdf-filespec.config.json'), JSON.stringify({ views: { mis: {}, rip: {} }, storage: { s: { mis: 'https://files.example.com/jobs/', rip: '/mnt/jobs/' } } }));
const file = path.join(dir, 't.jdf');
const ticket = [
  '<JDF Version="1.7"><ResourcePool><RunList>',
  `<LayoutElement><FileSpec URL="a b.pdf" Password="hunter2"/></LayoutElement>`,
  `<LayoutElement><FileSpec URL="https://user:pa55@files.example.com/jobs/c d.pdf"><NetworkHeader Name="Authorization" Value="Basic c2VjcmV0"/></FileSpec></LayoutElement>`,
  '</RunList></ResourcePool></JDF>',
].join('\n');

test('redactSecrets: Password attributes (any prefix, either quote) and NetworkHeader values', async () => {
  assert.equal(redactSecrets(`<FileSpec Password='x1' URL="a"/>`), `<FileSpec Password='****' URL="a"/>`);
  assert.equal(redactSecrets(`<jdf:FileSpec jdf:Password="x1"/>`), `<jdf:FileSpec jdf:Password="****"/>`);
  assert.equal(redactSecrets(`<NetworkHeader Name="Authorization" Value="Bearer abc"/>`), `<NetworkHeader Name="Authorization" Value="****"/>`);
  assert.equal(redactSecrets(`<Part Value="kept"/><FileSpec PasswordHint="kept"/>`), `<Part Value="kept"/><FileSpec PasswordHint="kept"/>`);
});

test('no output of fix --dry-run, rebase --dry-run or validate holds a secret', async () => {
  writeFileSync(file, ticket);
  const outputs = [
    await runCli(['fix', file, '--dry-run'], { encoding: 'utf8', cwd: dir }),
    await runCli(['rebase', file, '--to', 'rip', '--dry-run'], { encoding: 'utf8', cwd: dir }),
    ...await Promise.all(['text', 'json', 'sarif'].map((f) => runCli(['validate', file, '--check-exists', '--references', '--format', f], { encoding: 'utf8', cwd: dir }))),
  ];
  const all = outputs.map((o) => o.stdout + o.stderr).join('\n');
  for (const secret of ['hunter2', 'pa55', 'c2VjcmV0']) assert.not.ok(all.includes(secret), secret);
  assert.match(outputs[0]!.stdout, 'Password="****"');
  assert.match(outputs[1]!.stdout, 'Value="****"');
  assert.match(outputs[1]!.stdout, '+<LayoutElement><FileSpec URL="file:///mnt/jobs/c d.pdf">');
});

test.after(removeTempFolders);
test.run();
