// validate's report is written file by file through a BlockWriter: in blocks of about a million characters to a
// pipe or a file (a write per file was a system call and a turn of the event loop each), each file's text when it
// comes on a terminal. The oracle is what a recording stream received, write by write.
import { Writable } from 'node:stream';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { BlockWriter } from '../src/node/output.js';

function recorder(isTTY: boolean): { stream: Writable; writes: string[] } {
  const writes: string[] = [];
  const stream = new Writable({
    decodeStrings: false,
    write(chunk: string, _encoding, done) {
      writes.push(chunk);
      done();
    },
  });
  if (isTTY) Object.assign(stream, { isTTY: true });
  return { stream, writes };
}

const files = Array.from({ length: 1266 }, (_, i) => [`{"path": "t${i}.jdf", `, '"x": "' + 'y'.repeat(5000) + '"}\n']);

test('BlockWriter: 1266 files of 5 KB to a pipe are a handful of writes, the same text in order', async () => {
  const { stream, writes } = recorder(false);
  const out = new BlockWriter(stream);
  for (const pieces of files) assert.is(await out.add(pieces), true);
  assert.is(await out.flush(), true);
  assert.is(writes.join(''), files.flat().join(''));
  assert.ok(writes.length <= Math.ceil(files.flat().join('').length / (1 << 20)) + 1, `${writes.length} writes`);
  assert.ok(writes.slice(0, -1).every((w) => w.length >= 1 << 20));
});

test('BlockWriter: on a terminal, each file is written when it is added', async () => {
  const { stream, writes } = recorder(true);
  const out = new BlockWriter(stream);
  for (const pieces of files.slice(0, 5)) {
    await out.add(pieces);
    assert.is(writes.at(-1), pieces.join(''));
  }
  assert.is(writes.length, 5);
});

test('BlockWriter: nothing added, nothing written', async () => {
  const { stream, writes } = recorder(false);
  assert.is(await new BlockWriter(stream).flush(), true);
  assert.equal(writes, []);
});

test.run();
