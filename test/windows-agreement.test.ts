// windowsAgreement (src/ticket/windows-reading.ts) over readings that repeat an href: a repeat in the same charset
// names the same Windows file and changes nothing, one in another charset is a reading of its own. Expected values
// are hand-worked from RFC 8089 E.2 and the charsets' tables: %E9 is no UTF-8 (no file) and "é" in ISO-8859-1.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { windowsAgreement, type WindowsReadings } from '../src/ticket/windows-reading.js';

const readings = (list: Array<[string | null, string]>): WindowsReadings => ({
  count: list.length,
  hrefOf: (k) => list[k]![0],
  charsetOf: (k) => list[k]![1],
});

test('a repeated href in the same charset agrees with itself', () => {
  const r = readings([['file:///C:/Jobs/a.pdf', 'utf-8'], [null, 'utf-8'], ['file:///C:/Jobs/a.pdf', 'utf-8'], ['file:///c:/jobs/A.pdf', 'utf-8']]);
  assert.is(windowsAgreement(r), 'c:\\jobs\\a.pdf');
});

test('the same href in another charset is read again', () => {
  const href = 'file:///c:/a%E9.pdf';
  assert.is(windowsAgreement(readings([[href, 'utf-8'], [href, 'iso-8859-1']])), 'c:\\a\u00e9.pdf');
  assert.is(windowsAgreement(readings([[href, 'iso-8859-1'], [href, 'utf-8']])), 'c:\\a\u00e9.pdf');
  assert.is(windowsAgreement(readings([[href, 'utf-8'], [href, 'utf-8']])), null);
});

test('a repeat after a disagreeing reading still disagrees', () => {
  const r = readings([['file:///c:/a.pdf', 'utf-8'], ['file:///c:/b.pdf', 'utf-8'], ['file:///c:/a.pdf', 'utf-8']]);
  assert.is(windowsAgreement(r), null);
});

test.run();
