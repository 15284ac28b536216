// A UNC path with spaces pasted after "file://": the UNC fix makes file://HOST/share/... (RFC 8089 E.3.1) with its
// spaces still raw, so unescaped-space is that value's one finding, and every fix applied writes each space as %20
// (JDF appendix Table 4 example 23). A space at the end stays white space around the URL (appendix section 3):
// removed, never escaped. Expected values written by hand from those sections.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { checkUrl } from '../src/check.js';

// [value, its findings' codes in the report's order, what the UNC finding's fix alone writes, every fix applied]
const CASES: Array<[string, string[], string, string]> = [
  ['file://\\\\HOST\\share\\my docs\\a b.pdf', ['unc-in-authority', 'unescaped-space'], 'file://HOST/share/my docs/a b.pdf', 'file://HOST/share/my%20docs/a%20b.pdf'],
  ['file://\\\\HOST\\share\\a b.pdf ', ['unc-in-authority', 'unescaped-space', 'surrounding-whitespace'], 'file://HOST/share/a b.pdf ', 'file://HOST/share/a%20b.pdf'],
  ['file://\\\\HOST\\share\\a b\\ ', ['unc-in-authority', 'unescaped-space', 'surrounding-whitespace'], 'file://HOST/share/a b/ ', 'file://HOST/share/a%20b/'],
];

for (const [value, codes, uncFix, fixed] of CASES) {
  test(`${JSON.stringify(value)}: the UNC fix leaves the spaces, every fix escapes them${value.endsWith(' ') ? ' and drops the one at the end' : ''}`, () => {
    const result = checkUrl(value);
    assert.equal(result.findings.map((f) => f.code), codes);
    assert.is(result.findings.find((f) => f.code === 'unc-in-authority')?.fix, uncFix);
    assert.is(result.fixed, fixed);
  });
}

test.run();
