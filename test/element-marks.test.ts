// The element tree skips the attribute scan of a start tag whose text cannot hold the names asked for (no "URL"
// in it when every name holds "URL"): what attributesNamed finds must not change. Expected values are read off
// the hand-written fixture; each tree is the scan's (buildByScan) and the parser's (buildTree with the scan off).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { buildByScan, type ElementTree } from '../src/ticket/xml/index.js';
import { buildTree } from '../src/ticket/xml/tree.js';

const TEXT = [
  '<JDF ID="r" CommentURL="a.txt">',
  'URL in text, then a tag without it',
  '<Comment Name="x"/>',
  '<Node xURL="no" PipeURL="p1" PipeURL="p2" Note="URL"/>',
  '<Other Note="has URL only in a value"/>',
  '<URLish/>',
  '<Last CommentURL=\'c\'>URL</Last>',
  '</JDF>',
].join('\n');

const WANTED = ['CommentURL', 'PipeURL'];

function found(tree: ElementTree): string[] {
  const out: string[] = [];
  for (let e = 0; e < tree.size; e++) {
    for (const a of tree.attributesNamed(e, WANTED)) out.push(`${tree.local(e)}/@${a.name}=${a.value}${a.problems.length > 0 ? ' ' + a.problems.map((p) => p.code).join() : ''}`);
  }
  return out;
}

const EXPECTED = ['JDF/@CommentURL=a.txt', 'Node/@PipeURL=p1 duplicate-attribute', 'Last/@CommentURL=c'];

test('the scan\'s tree finds the same URL attributes as a look at every tag', () => {
  const tree = buildByScan(TEXT)?.elements;
  assert.ok(tree);
  assert.equal(found(tree), EXPECTED);
});

test('the parser\'s tree (no marks) finds the same', () => {
  const tree = buildTree(TEXT, Infinity).elements;
  assert.equal(found(tree), EXPECTED);
});

test('a list with a name without "URL" reads every tag', () => {
  const tree = buildByScan(TEXT)!.elements;
  const notes: string[] = [];
  for (let e = 0; e < tree.size; e++) for (const a of tree.attributesNamed(e, ['Note', 'PipeURL'])) notes.push(`${tree.local(e)}/@${a.name}`);
  assert.equal(notes, ['Node/@PipeURL', 'Node/@Note', 'Other/@Note']);
});

test.run();
