// The batch's one-call read of a small ticket (src/node/read-small.ts): what it reads, and what it leaves to the
// usual path, with the same safety as readRegularFile (no FIFO read or blocked on, no link followed when asked).
import { spawnSync } from 'node:child_process';
import { existsSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { readSmallFileSync } from '../src/node/read-small.js';
import { removeTempFolders, tempFolder } from './helpers.js';

const dir = tempFolder('jfs-readsmall-');
const ticket = path.join(dir, 't.jdf');
const written = Buffer.from('<JDF Version="1.4">\u00e9</JDF>', 'utf8');
writeFileSync(ticket, written);

test('read-small: a file of at most the limit is read whole, byte for byte', () => {
  const read = readSmallFileSync(ticket, written.length);
  assert.ok('bytes' in read);
  assert.equal(Buffer.from(read.bytes), written);
});

test('read-small: a file over the limit is left to the other path, by one byte too', () => {
  assert.equal(readSmallFileSync(ticket, written.length - 1), { notSmall: true, size: written.length });
});

test('read-small: a folder is not read', () => {
  assert.equal(readSmallFileSync(dir, 1000), { notRegular: 'a folder' });
});

test('read-small: a FIFO is not read and does not block', () => {
  const fifo = path.join(dir, 'fifo.jdf');
  if (spawnSync('mkfifo', [fifo]).status !== 0 || !existsSync(fifo)) return;
  assert.equal(readSmallFileSync(fifo, 1000), { notRegular: 'a FIFO' });
});

test('read-small: with noFollow a symbolic link is refused, without it followed', () => {
  const link = path.join(dir, 'link.jdf');
  symlinkSync(ticket, link);
  assert.throws(() => readSmallFileSync(link, 1000, true), (e: NodeJS.ErrnoException) => e.code === 'ELOOP');
  assert.ok('bytes' in readSmallFileSync(link, 1000));
});

test.after(removeTempFolders);
test.run();
