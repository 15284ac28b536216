// KeyCounts (src/report/key-counts.ts) counts SARIF fingerprint keys as a Map would: the oracle here is a Map,
// over keys that share their low 32 bits (one slot of the table), the largest key number and zero.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import fc from 'fast-check';
import { KeyCounts } from '../src/report/key-counts.js';

test('each key counts 0, 1, 2, ... as a Map counts it, through growth and shared slots', () => {
  const key = fc.oneof(fc.integer({ min: 0, max: 50 }).map((k) => k * 2 ** 32 + 7), fc.constantFrom(0, 2 ** 53 - 1, 1024, 2048), fc.integer({ min: 0, max: 2 ** 53 - 1 }));
  fc.assert(fc.property(fc.array(key, { maxLength: 3000 }), (keys) => {
    const counts = new KeyCounts();
    const oracle = new Map<number, number>();
    for (const k of keys) {
      const before = oracle.get(k) ?? 0;
      oracle.set(k, before + 1);
      if (counts.next(k) !== before) return false;
    }
    return true;
  }), { numRuns: 60 });
});

test('3,000 different keys and then each again: every second count is 1', () => {
  const counts = new KeyCounts();
  for (let i = 0; i < 3000; i++) assert.is(counts.next(i * 4096), 0);
  for (let i = 0; i < 3000; i++) assert.is(counts.next(i * 4096), 1);
});

test.run();
