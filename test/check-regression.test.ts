// checkUrl's whole answer on 4,000 seeded random values and 4,000 of the quiet forms and their near misses
// (test/check-inputs.ts) held to what the checker of commit 05ee004 gave, before its hot path was rebuilt for speed (issue 33): a regression oracle for that refactor only,
// not a statement of what is right (the rule tests and the spec examples say that). test/data/check-regression.json
// holds the first 8 hex digits of the SHA-1 of each answer's JSON; `node dist/scripts/check-dump.js --random N` on
// both commits shows the answers themselves.
import { createHash } from 'node:crypto';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { checkUrl } from '../src/check.js';
import { checkInputs, shapeInputs } from './check-inputs.js';
import { loadData } from './helpers.js';

const { seed, count, hashes, shapes } = loadData<{ seed: number; count: number; hashes: string; shapes: string }>('check-regression.json');
const hashOf = (text: string) => createHash('sha1').update(text).digest('hex').slice(0, 8);

/** The inputs whose answer's hash differs from the one recorded, with the answer. */
function differing(inputs: Array<{ value: string; options: object }>, recorded: string): string[] {
  const expected = recorded.split(' ');
  assert.is(expected.length, inputs.length);
  const differ: string[] = [];
  inputs.forEach(({ value, options }, i) => {
    const answer = JSON.stringify(checkUrl(value, options));
    if (hashOf(answer) !== expected[i]) differ.push(`#${i} ${JSON.stringify(value)} ${JSON.stringify(options)}: ${answer}`);
  });
  return differ;
}

test('checkUrl answers every seeded value as the checker before the rebuild did', () => {
  const differ = differing(checkInputs(seed, count), hashes);
  assert.is(differ.length, 0, differ.slice(0, 5).join('\n'));
});

test('checkUrl answers the quiet forms and their near misses as the checker before the rebuild did', () => {
  const differ = differing(shapeInputs(seed, count), shapes);
  assert.is(differ.length, 0, differ.slice(0, 5).join('\n'));
});

test.run();
