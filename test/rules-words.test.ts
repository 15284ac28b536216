// Issue 28, section 4: honest words. What each message must say follows the appendix (section 3 on escaped octets
// in file URLs; Table 4 #26) and what the ticket declares; the values and tickets are written by hand.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { checkUrl, validateTicket } from '../src/index.js';

const find = (value: string, code: string, options = {}) => checkUrl(value, options).findings.find((f) => f.code === code);
const inTicket = (root: string, url: string, options = {}) =>
  validateTicket(`${root}<ResourcePool><FileSpec ID="f" Class="Parameter" URL="${url}"/></ResourcePool></JDF>`, options).references[0]!.findings;

test('non-ascii without a declared JDF version says none was declared and that 1.2 is assumed', () => {
  const found = inTicket('<JDF>', 'file:///c:/Müller/a.pdf').find((f) => f.code === 'non-ascii')!;
  assert.is(found.severity, 'error');
  assert.ok(found.message.includes('no JDF version is declared, so 1.2 is assumed'), found.message);
});

test('non-ascii with a declared version names it, and assumes nothing', () => {
  const found = inTicket('<JDF Version="1.1">', 'file:///c:/Müller/a.pdf').find((f) => f.code === 'non-ascii')!;
  assert.ok(found.message.includes('which JDF 1.1 forbids;'), found.message);
  assert.not.ok(found.message.includes('assumed'), found.message);
  assert.ok(find('file:///c:/Müller/a.pdf', 'non-ascii', { jdfVersion: 'one' })!.message.includes("the declared JDF version 'one' cannot be read, so 1.2 is assumed"));
});

test('invalid-escaped-octets: an error in a file URL, at most a warning in an http or ftp URL', () => {
  assert.is(find('file:///c:/D%FCrst/a.pdf', 'invalid-escaped-octets')?.severity, 'error');
  assert.is(find('D%FCrst/a.pdf', 'invalid-escaped-octets', { base: 'file:///c:/jobs/' })?.severity, 'error');
  for (const profile of ['jdf', 'rfc8089', 'lenient'] as const) {
    const http = find('http://www.example.org/People/D%FCrst/', 'invalid-escaped-octets', { profile })!;
    assert.is(http.severity, 'warning', profile);
    assert.ok(http.message.includes('the http server decides how it reads them'), http.message);
  }
  assert.is(find('ftp://ftp.example.org/D%FCrst.pdf', 'invalid-escaped-octets')?.severity, 'warning');
});

test('root-without-drive says it follows Table 4 #26 for a Windows or unknown consumer, and how to say the consumer is Unix', () => {
  const any = find('file:///jobs/a.pdf', 'root-without-drive')!;
  assert.is(any.severity, 'warning');
  assert.ok(any.message.includes('(appendix Table 4 #26)') && any.message.includes('is not known') && any.message.includes('--platform unix'), any.message);
  const windows = find('file:///jobs/a.pdf', 'root-without-drive', { platform: 'windows' })!;
  assert.is(windows.severity, 'error');
  assert.ok(windows.message.includes('Windows cannot tell where the file is (appendix Table 4 #26)'), windows.message);
  assert.not.ok(windows.message.includes('--platform'), windows.message);
});

test('root-without-drive: a known POSIX consumer (platform unix) gets nothing, in a ticket too', () => {
  assert.is(find('file:///jobs/a.pdf', 'root-without-drive', { platform: 'unix' }), undefined);
  assert.equal(inTicket('<JDF Version="1.4">', 'file:///jobs/a.pdf', { platform: 'unix' }), []);
  assert.equal(inTicket('<JDF Version="1.4">', 'file:///jobs/a.pdf').map((f) => f.code), ['root-without-drive']);
});

test.run();
