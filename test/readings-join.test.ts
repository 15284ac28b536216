// The string-join reading (JDFLibJ's getURLWithDirectory + cleanDots) runs in linear time; this holds it equal
// to JDFLibJ's cleanDots written step for step (splice by splice, as the Java loops do) on random paths.
import fc from 'fast-check';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { stringJoin } from '../src/ticket/readings.js';

/** UrlUtil.cleanDots as JDFLibJ writes it: quadratic, kept here as the oracle. */
function cleanDotsStepByStep(input: string): string {
  let url = input;
  while (url.length > 2 && url.startsWith('./')) url = url.slice(2);
  const posDouble = url.indexOf('//');
  const prefixLength = posDouble === url.indexOf('///') ? 3 : 2;
  let prefix = url.startsWith('/') ? '/' : '';
  if (posDouble >= 0) {
    prefix = url.slice(0, posDouble + prefixLength);
    url = url.slice(posDouble + prefixLength);
  }
  const vs = url.split('/').filter((t) => t !== '');
  for (let i = vs.length - 1; i > 0; i--) if (vs[i] === '.') vs.splice(i, 1);
  for (let i = vs.length - 1; i > 0; i--) {
    if (vs[i] !== '..') continue;
    for (let j = i - 1; j >= 0; j--) {
      if (vs[j] !== '..') {
        vs.splice(i--, 1);
        vs.splice(j, 1);
        break;
      }
    }
  }
  return prefix + (vs.length === 0 ? '.' : vs.join('/'));
}

const token = fc.constantFrom('a', 'b', '.', '..', '', 'c.pdf', '...', '.x');
const path = fc.array(token, { maxLength: 10 }).map((t) => t.join('/'));
const directory = fc
  .tuple(fc.constantFrom('file:///', 'file://h/d/', './', '././x/', 'x/', 'file:///c:/a/'), path)
  .map(([head, rest]) => (head + rest).replace(/\/?$/, '/'));

test('stringJoin equals JDFLibJ cleanDots step for step on random relative paths', () => {
  fc.assert(
    fc.property(directory, path, (dir, url) => {
      fc.pre(url !== '' && !url.startsWith('/'));
      assert.is(stringJoin(dir, url), cleanDotsStepByStep(dir + url));
    }),
    { numRuns: Number(process.env.FC_RUNS) || 5000 },
  );
});

test('stringJoin on 100,000 "../" segments finishes (the step-by-step loops were quadratic)', () => {
  assert.is(stringJoin('file:///d/e/', '../'.repeat(100_000) + 'x.pdf'), 'file:///' + '../'.repeat(99_998) + 'x.pdf');
});

test.run();
