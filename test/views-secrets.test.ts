// FileSpec/@Password and NetworkHeader values never appear in any output, as a URL's password never does.
import { spawnSync } from 'node:child_process';
import { realpathSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { redactSecrets } from '../src/fileurl/secrets.js';
import { projectRoot, removeTempFolders, tempFolder } from './helpers.js';

const main = fileURLToPath(new URL('dist/src/cli/main.js', projectRoot));
const dir = realpathSync(tempFolder('jfs-secrets-'));
writeFileSync(path.join(dir, 'jdf-filespec.config.json'), JSON.stringify({ views: { mis: {}, rip: {} }, storage: { s: { mis: 'https://files.example.com/jobs/', rip: '/mnt/jobs/' } } }));
const file = path.join(dir, 't.jdf');
const ticket = [
  '<JDF Version="1.7"><ResourcePool><RunList>',
  `<LayoutElement><FileSpec URL="a b.pdf" Password="hunter2"/></LayoutElement>`,
  `<LayoutElement><FileSpec URL="https://user:pa55@files.example.com/jobs/c d.pdf"><NetworkHeader Name="Authorization" Value="Basic c2VjcmV0"/></FileSpec></LayoutElement>`,
  '</RunList></ResourcePool></JDF>',
].join('\n');

test('redactSecrets: Password attributes (any prefix, either quote) and NetworkHeader values', () => {
  assert.equal(redactSecrets(`<FileSpec Password='x1' URL="a"/>`), `<FileSpec Password='****' URL="a"/>`);
  assert.equal(redactSecrets(`<jdf:FileSpec jdf:Password="x1"/>`), `<jdf:FileSpec jdf:Password="****"/>`);
  assert.equal(redactSecrets(`<NetworkHeader Name="Authorization" Value="Bearer abc"/>`), `<NetworkHeader Name="Authorization" Value="****"/>`);
  assert.equal(redactSecrets(`<Part Value="kept"/><FileSpec PasswordHint="kept"/>`), `<Part Value="kept"/><FileSpec PasswordHint="kept"/>`);
});

test('no output of fix --dry-run, rebase --dry-run or validate holds a secret', () => {
  writeFileSync(file, ticket);
  const outputs = [
    spawnSync(process.execPath, [main, 'fix', file, '--dry-run'], { encoding: 'utf8', cwd: dir }),
    spawnSync(process.execPath, [main, 'rebase', file, '--to', 'rip', '--dry-run'], { encoding: 'utf8', cwd: dir }),
    ...['text', 'json', 'sarif'].map((f) => spawnSync(process.execPath, [main, 'validate', file, '--check-exists', '--references', '--format', f], { encoding: 'utf8', cwd: dir })),
  ];
  const all = outputs.map((o) => o.stdout + o.stderr).join('\n');
  for (const secret of ['hunter2', 'pa55', 'c2VjcmV0']) assert.not.ok(all.includes(secret), secret);
  assert.match(outputs[0]!.stdout, 'Password="****"');
  assert.match(outputs[1]!.stdout, 'Value="****"');
  assert.match(outputs[1]!.stdout, '+<LayoutElement><FileSpec URL="file:///mnt/jobs/c d.pdf">');
});

test.after(removeTempFolders);
test.run();
