// writePieces waits for 'drain' on a slow reader. Each wait must leave no listener behind: a race of once()
// calls left a 'close' and two 'error' listeners per wait, and a big report waits thousands of times (Node warned
// "MaxListenersExceededWarning", and a ticket under a small heap ran out of memory sooner).
import { Writable } from 'node:stream';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { writePieces } from '../src/node/output.js';

test('writePieces: 40 waits for drain on a slow reader leave the listeners as they were', async () => {
  let received = 0;
  const slow = new Writable({
    highWaterMark: 1024,
    write(chunk: Buffer, _encoding, done) {
      received += chunk.length;
      setImmediate(done);
    },
  });
  const before = { close: slow.listenerCount('close'), error: slow.listenerCount('error'), drain: slow.listenerCount('drain') };
  const piece = 'x'.repeat((1 << 20) + 1); // each piece fills a block, so each is a write that waits
  const written = await writePieces(slow, Array.from({ length: 40 }, () => piece));
  assert.is(written, true);
  assert.is(received, 40 * piece.length);
  assert.equal({ close: slow.listenerCount('close'), error: slow.listenerCount('error'), drain: slow.listenerCount('drain') }, before);
});

test.run();
