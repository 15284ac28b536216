// The scan keeps the names it has met, by a key of their length and two of their characters, so that a tag's
// name is not a new string each time: names that share a key must still each be read as written. Expected
// values are read off the hand-written fixture (the names are chosen to share a key).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { buildByScan } from '../src/ticket/xml/index.js';

// "aXYc" and "bXZc": the same length, second and last characters. "p:aXYc" as well, after them; "q" alone.
const TEXT = '<aXYc><bXZc/><aXYc x="1"/><bXZc><aXYc/></bXZc><p:aXYc/><q/><q></q></aXYc>';
const EXPECTED = ['aXYc', 'bXZc', 'aXYc', 'bXZc', 'aXYc', 'p:aXYc', 'q', 'q'];

test('names that share a key in the scan are each read as written, end tags matched', () => {
  const built = buildByScan(TEXT);
  assert.ok(built, 'the scan reads the fixture');
  const tree = built.elements;
  const names: string[] = [];
  for (let e = 0; e < tree.size; e++) names.push(tree.qname(e));
  assert.equal(names, EXPECTED);
  assert.is(built.problem, undefined);
});

test('an end tag that names the other element of a shared key is not taken for a match', () => {
  assert.is(buildByScan('<aXYc><bXZc></aXYc></bXZc>'), undefined);
});

test.run();
