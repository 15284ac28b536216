// The file rules' decisions over the facts the Node edge gathers (src/rules/integrity.ts, src/rules/files.ts),
// without a file system: expected values from the specs (JDF 1.7 IntegerRangeList, RFC 1321's MD5 test suite)
// and from the rules' own flagged and clean examples.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { lookProblem, notLocal } from '../src/rules/files.js';
import { contentFindings, rangesFit } from '../src/rules/integrity.js';

const codes = (found: ReadonlyArray<{ code: string }>) => found.map((f) => f.code);

test('JDF 1.7 IntegerRangeList against a 6-page PDF: negative indexes count from the end (-1 the last page)', () => {
  for (const fits of ['0 ~ 5', '0~-1', '-6', '5 0 3', ' 2 ~ 3 ']) assert.is(rangesFit(fits, 6), true, fits);
  for (const over of ['0 ~ 6', '-7', '6', '0 ~ -7']) assert.is(rangesFit(over, 6), false, over);
  assert.is(rangesFit('one', 6), undefined, 'not an IntegerRangeList: not judged');
});

test('contentFindings: the integrity rules\' examples, in the order size, type, pages, checksum', () => {
  // RFC 1321 A.5: MD5("") = d41d8cd98f00b204e9800998ecf8427e, MD5("a") = 0cc175b9c0f1b6a831c399e269772661.
  const declared = { FileSize: '1048576', MimeType: 'application/pdf', NPage: '8', CheckSum: 'D41D8CD98F00B204E9800998ECF8427E' };
  const bad = contentFindings(declared, { path: '/j/a.pdf', size: 524288, kind: { declared: 'PDF', actual: 'JPEG' }, pages: 6, md5: '0cc175b9c0f1b6a831c399e269772661' });
  assert.equal(codes(bad), ['file-size-mismatch', 'mime-type-mismatch', 'page-count-mismatch', 'checksum-mismatch']);
  assert.equal(bad[0]!.args, { declared: '1048576', actual: '524288', path: '/j/a.pdf' });
  assert.equal(bad[2]!.args, { what: 'RunList/@NPage', declared: '8', actual: '6', path: '/j/a.pdf' });
  const good = contentFindings(declared, { path: '/j/a.pdf', size: 1048576, kind: { declared: 'PDF', actual: 'PDF' }, pages: 8, md5: 'd41d8cd98f00b204e9800998ecf8427e' });
  assert.equal(good, []);
  // Pages is read before NPage; without pdf.js the pages are not compared, and it says so.
  assert.equal(codes(contentFindings({ NPage: '8', Pages: '0 ~ 6' }, { path: 'a', size: 1, pages: 6 })), ['page-count-mismatch']);
  assert.equal(contentFindings({ Pages: '0 ~ 6' }, { path: 'a', size: 1, pages: 'no-pdfjs' })[0]!.args, { what: 'RunList/@Pages', path: 'a' });
});

test('lookProblem and notLocal: what the look saw, in the words of the files rules', () => {
  assert.equal(lookProblem('url', 'p.pdf', { found: 'nothing' }), { code: 'file-missing', args: { path: 'p.pdf' } });
  assert.equal(lookProblem('url', 'Cover.PDF', { found: 'nothing', otherCase: 'cover.pdf' }), { code: 'case-mismatch', args: { path: 'Cover.PDF', actual: 'cover.pdf' } });
  assert.equal(lookProblem('url', 'pages', { found: 'directory', what: 'a folder' }), { code: 'not-a-file', args: { path: 'pages', what: 'a folder' } });
  assert.equal(lookProblem('url', 'p.pdf', { found: 'file', unreadable: 'EACCES' }), { code: 'file-unreadable', args: { path: 'p.pdf', reason: 'EACCES' } });
  assert.is(lookProblem('url', 'p.pdf', { found: 'file' }), null);
  assert.equal(lookProblem('directory', 'd', { found: 'nothing', otherCase: 'D' }), { code: 'not-a-directory', args: { path: 'd', what: 'missing' } });
  assert.equal(lookProblem('directory', 'd', { found: 'other' }), { code: 'not-a-directory', args: { path: 'd', what: 'not a folder' } });
  assert.is(lookProblem('directory', 'd', { found: 'directory' }), null);
  assert.equal(notLocal({ host: 'fileserver', prefix: 'file://fileserver/' }), { code: 'not-checked', args: { host: 'fileserver', prefix: 'file://fileserver/' } });
  assert.is(notLocal({ why: 'w.', drive: 'c', isWindows: false }).args.hint, ' Map the drive with --map file:///c:/=/local/folder/.');
  assert.is(notLocal({ why: 'w.', drive: 'c', isWindows: true }).args.hint, '');
});

test.run();
