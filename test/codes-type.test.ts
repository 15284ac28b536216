// A finding's code is the catalog's union (src/rules/codes.ts), not any string: a misspelled code fails the build.
// `npm run build` compiles this file, and each `@ts-expect-error` below is itself an error when the line under it
// compiles, which it would if Finding['code'] widened to string again.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { checkUrl, ruleCatalog, validateTicket, type Finding, type LocatedFinding, type RuleCode } from '../src/index.js';

test('checkUrl\'s and validateTicket\'s findings carry a catalog code, and a misspelled one does not compile', () => {
  const space = checkUrl('a b.pdf').findings.find((f) => f.code === 'unescaped-space');
  assert.ok(space, 'RFC 3986 2.1: a raw space in a URL is unescaped-space');
  const ticket = validateTicket(new TextEncoder().encode('<JDF'), { documentUri: 'file:///jobs/a.jdf' });
  const located: LocatedFinding | undefined = ticket.findings[0];
  assert.ok(located !== undefined && ruleCatalog.some((r) => r.code === located.code));
  // @ts-expect-error 'unescaped-spaces' is no code of the catalog
  const misspelled: Finding['code'] = 'unescaped-spaces';
  // @ts-expect-error nor is 'file-mising', as a ticket finding's code
  const typo: LocatedFinding['code'] = 'file-mising';
  // @ts-expect-error a comparison with a misspelled code is always false, and says so
  assert.not.ok(space!.code === 'unescaped-spaces');
  const codes: readonly RuleCode[] = [misspelled, typo];
  assert.is(ruleCatalog.filter((r) => codes.includes(r.code)).length, 0);
});

test.run();
