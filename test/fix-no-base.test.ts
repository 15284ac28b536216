// A ticket without a base (dropped on the page, read from standard input): what a relative value names relative
// to its ticket does not depend on where the ticket is, so its fixes are made as in the ticket's own folder. The
// expected values are the appendix's Table 1 (a space is escaped as %20) and the bytes around them unchanged.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { fixTicketBytes } from '../src/ticket/fix-bytes.js';

const ticket = (url: string) => `<?xml version="1.0" encoding="UTF-8"?>\n<XJDF xmlns="http://www.CIP4.org/JDFSchema_2_0" JobID="1" Types="Product">\n  <ResourceSet Name="RunList" Usage="Input"><Resource><RunList><FileSpec URL="${url}"/></RunList></Resource></ResourceSet>\n</XJDF>\n`;
const decode = (bytes: Uint8Array | undefined) => (bytes === undefined ? undefined : new TextDecoder().decode(bytes));

for (const [value, fixed] of [
  ['previews/p1 front.png', 'previews/p1%20front.png'],
  ['../../../up/a b.pdf', '../../../up/a%20b.pdf'],
  ['a b.pdf', 'a%20b.pdf'],
] as const) {
  test(`no base: ${JSON.stringify(value)} is fixed to ${JSON.stringify(fixed)}, with or without the ticket's folder`, () => {
    const withoutBase = fixTicketBytes(ticket(value));
    assert.is(decode(withoutBase.fixed), ticket(fixed));
    assert.is(decode(fixTicketBytes(ticket(value), { documentUri: 'file:///jobs/4711/ticket.xjdf' }).fixed), ticket(fixed));
  });
}

test('no base: a value consumers read as different files is still not fixed', () => {
  // A raw '#' starts a fragment for RFC 3986 readers; the fixed '%23' names the file 'a#b c.pdf'.
  const result = fixTicketBytes(ticket('a#b c.pdf'));
  assert.is(result.plan.edits.length, 0);
  assert.is(result.plan.skipped.length, 1);
});

test.run();
