import fc from 'fast-check';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { equivalent } from '../src/index.js';
import { fileUrlToPath, pathToFileUrl, PathConversionError } from '../src/paths/convert.js';
import { loadData } from './helpers.js';

const appendix = loadData('jdf-appendix-examples.json');
const RUNS = Number(process.env.FC_RUNS ?? 2000);

const errorCode = (f: () => unknown): string | undefined => {
  try {
    f();
    return undefined;
  } catch (e) {
    assert.instance(e, PathConversionError);
    return (e as PathConversionError).code;
  }
};

for (const c of appendix.mac.cases) {
  test(`Table 5 (Mac): ${c.path ?? '<undef>'} <-> ${c.url}`, () => {
    if (c.path === null) {
      assert.is(errorCode(() => fileUrlToPath(c.url, { platform: 'mac' })), 'no-volume');
      return;
    }
    assert.is(fileUrlToPath(c.url, { platform: 'mac' }), c.path);
    assert.ok(equivalent(pathToFileUrl(c.path, { platform: 'mac' }), c.url), pathToFileUrl(c.path, { platform: 'mac' }));
  });
}

for (const c of appendix.unix.cases) {
  test(`Table 6 (Unix): ${c.path ?? '<undef>'} <-> ${c.url}`, () => {
    if (c.path === null) {
      assert.is(errorCode(() => fileUrlToPath(c.url, { platform: 'posix' })), 'nul-in-path');
      return;
    }
    assert.is(fileUrlToPath(c.url, { platform: 'posix' }), c.path);
    assert.ok(equivalent(pathToFileUrl(c.path, { platform: 'posix' }), c.url), pathToFileUrl(c.path, { platform: 'posix' }));
  });
}

for (const c of appendix.rfc8089.pathToUri.cases) {
  const platform = c.platform === 'unc' ? 'windows' : c.platform;
  test(`RFC 8089 / draft 3.1: ${c.platform} ${c.path}`, () => {
    assert.is(pathToFileUrl(c.path, { platform }), c.traditional);
    if (c.minimal) assert.is(pathToFileUrl(c.path, { platform, form: 'minimal' }), c.minimal);
    assert.is(fileUrlToPath(c.traditional, { platform }), c.path);
    if (c.minimal) assert.is(fileUrlToPath(c.minimal, { platform }), c.path);
  });
}

test('Table 2 example 2: file://file_server/folder/a.pdf is the UNC path \\\\file_server\\folder\\a.pdf', () => {
  const c = appendix.good.cases[1];
  assert.is(fileUrlToPath(c.url, { platform: 'windows' }), c.unc);
  assert.is(pathToFileUrl(c.unc, { platform: 'windows' }), c.url);
});

test('URLs that cannot be a path there give a typed error that says why', () => {
  assert.is(errorCode(() => fileUrlToPath('file://server/share/a.pdf', { platform: 'posix' })), 'non-local-host');
  assert.is(errorCode(() => fileUrlToPath('file:///a%00b', { platform: 'posix' })), 'nul-in-path');
  assert.is(errorCode(() => fileUrlToPath('file:///c:/a%2Fb.pdf', { platform: 'windows' })), 'escaped-separator');
  assert.is(errorCode(() => fileUrlToPath('file:///a.pdf', { platform: 'windows' })), 'no-drive');
  assert.is(errorCode(() => fileUrlToPath('http://a/b', { platform: 'posix' })), 'not-a-file-url');
  assert.is(errorCode(() => fileUrlToPath('file:///a.pdf#x', { platform: 'posix' })), 'query-or-fragment');
  assert.is(errorCode(() => pathToFileUrl('\\\\?\\C:\\x', { platform: 'windows' })), 'win32-namespace');
  assert.is(errorCode(() => pathToFileUrl('\\\\.\\PhysicalDrive0', { platform: 'windows' })), 'win32-namespace');
  assert.is(errorCode(() => pathToFileUrl('c:foo.pdf', { platform: 'windows' })), 'drive-relative-path');
  const e = (() => { try { fileUrlToPath('file:///a.pdf', { platform: 'windows' }); } catch (x) { return x as Error; } })()!;
  assert.match(e.message, /no drive letter/);
});

test('names are NFC-normalized and UTF-8 escaped (RFC 8089 section 4); Table 1 characters escaped', () => {
  assert.is(pathToFileUrl('/Jobs/re\u0301sume\u0301 #1?.pdf', { platform: 'posix' }), 'file:///Jobs/r%C3%A9sum%C3%A9%20%231%3F.pdf');
  assert.is(pathToFileUrl('C:\\my docs\\a;b.pdf', { platform: 'windows' }), 'file:///C:/my%20docs/a%3Bb.pdf');
  assert.is(fileUrlToPath('file://localhost/c:/my%20docs/a.pdf', { platform: 'windows' }), 'c:\\my docs\\a.pdf');
  assert.is(fileUrlToPath('file:///c|/a.pdf', { platform: 'windows' }), 'c:\\a.pdf');
});

// EF BB BF is U+FEFF in UTF-8 (RFC 3629 6): a name may start with it, and it is no byte-order mark there.
test('a name that starts with U+FEFF keeps it: %EF%BB%BF decodes to it, as it does anywhere else', () => {
  assert.is(fileUrlToPath('file:///Jobs/%EF%BB%BFa.pdf', { platform: 'posix' }), '/Jobs/\ufeffa.pdf');
  assert.is(fileUrlToPath('file:///Jobs/a%EF%BB%BF.pdf', { platform: 'posix' }), '/Jobs/a\ufeff.pdf');
});

// Names a user can give a file, with the characters that make URL escaping interesting.
const nameChar = fc.constantFrom(...'aZ09 -_.~!$&\'()*+,;=@%#?[]{}^`|"<>é€ß\u30ab\u00c4'.split(''), 'e\u0301', '\u{1F600}', '\ufeff');
const name = fc.array(nameChar, { minLength: 1, maxLength: 10 }).map((a) => a.join('').normalize('NFC')).filter((n) => n !== '.' && n !== '..');

test('posix: fileUrlToPath(pathToFileUrl(p)) == p for generated paths', () => {
  fc.assert(fc.property(fc.array(name.filter((n) => !n.includes('/')), { minLength: 1, maxLength: 5 }), fc.constantFrom('traditional', 'minimal'), (names, form) => {
    const p = '/' + names.join('/');
    assert.is(fileUrlToPath(pathToFileUrl(p, { platform: 'posix', form: form as any }), { platform: 'posix' }), p);
  }), { numRuns: RUNS });
});

test('windows: drive and UNC paths round-trip for generated names', () => {
  fc.assert(fc.property(fc.array(name.filter((n) => !/[\\/:]/.test(n)), { minLength: 1, maxLength: 4 }), fc.boolean(), (names, unc) => {
    const p = unc ? `\\\\server\\share\\${names.join('\\')}` : `D:\\${names.join('\\')}`;
    assert.is(fileUrlToPath(pathToFileUrl(p, { platform: 'windows' }), { platform: 'windows' }), p);
  }), { numRuns: RUNS });
});

test('mac: HFS paths round-trip, "/" and "." in names included', () => {
  fc.assert(fc.property(fc.array(fc.oneof(name, fc.constantFrom('..', '.', 'a/b', './x')).filter((n) => !n.includes(':')), { minLength: 1, maxLength: 4 }), (names) => {
    const p = 'HD1:' + names.join(':');
    assert.is(fileUrlToPath(pathToFileUrl(p, { platform: 'mac' }), { platform: 'mac' }), p);
  }), { numRuns: RUNS });
});

test('NFD input comes back NFC (RFC 8089 section 4: normalize before encoding)', () => {
  const nfd = '/Jobs/Cafe\u0301.pdf';
  assert.is(fileUrlToPath(pathToFileUrl(nfd, { platform: 'posix' }), { platform: 'posix' }), nfd.normalize('NFC'));
});

test.run();
