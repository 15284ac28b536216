// Every rule flags what its catalog entry says it flags and stays silent on what it says is clean; the
// appendix's own tables decide the verdicts on its examples.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { checkUrl, PROFILES, ruleCatalog, validateTicket, type Finding } from '../src/index.js';
import { driveLetterAt, isDriveSegmentAt } from '../src/fileurl/drive.js';
import { loadData } from './helpers.js';
import { ruleTester } from './rule-tester.js';

const codes = (findings: Finding[], min: 'error' | 'warning' | 'info' = 'info') =>
  findings.filter((f) => min === 'info' || f.severity === 'error' || (min === 'warning' && f.severity === 'warning')).map((f) => f.code);

// Ticket rules whose cases are bytes, not text: ticket.test.ts covers them (invalid UTF-8, BOM mismatch, --max-bytes).
const BYTE_CASES = new Set(['invalid-encoding-bytes', 'unsupported-encoding', 'encoding-mismatch', 'file-too-large']);

// URL rules: their documented examples are their cases, each flagged one pinning offset (and fix, for a fixable rule).
for (const meta of ruleCatalog.filter((m) => m.scope === undefined || m.scope === 'url')) {
  test(`${meta.code}: documents what it flags and what it must not flag`, () => {
    assert.ok(meta.examples.flagged.length > 0, 'every rule shows what it flags');
    assert.ok(meta.examples.clean.length > 0, 'every rule shows what it must not flag');
    if (meta.fixable) assert.ok(meta.examples.flagged.some((e) => typeof e.fix === 'string'), 'a fixable rule shows a fix');
  });
  ruleTester(meta.code, (value, options) => checkUrl(value, options).findings, {
    valid: meta.examples.clean,
    invalid: meta.examples.flagged,
    fixable: meta.fixable,
  });
}

/** The codes a ticket rule's example yields. */
function ticketCodes(meta: (typeof ruleCatalog)[number], value: string): string[] {
  if (meta.code === 'no-base') return validateTicket(value).references.flatMap((x) => x.findings.map((f) => f.code));
  const r = validateTicket(value, { documentUri: 'file:///pub/hot-folder/ticket.jdf', platform: 'unix', reportUnusedDisableDirectives: true });
  return [...r.findings, ...r.references.flatMap((x) => x.findings)].map((f) => f.code);
}

// Ticket rules' examples are tickets; package rules' are packages (test/package-rules.test.ts reads them); file rules' are prose.
for (const meta of ruleCatalog.filter((m) => m.scope === 'ticket')) {
  test(`${meta.code}: flags its examples`, () => {
    assert.ok(meta.examples.flagged.length > 0 || BYTE_CASES.has(meta.code), 'every rule shows what it flags');
    for (const ex of meta.examples.flagged) {
      const found = ticketCodes(meta, ex.value);
      assert.ok(found.includes(meta.code), `${JSON.stringify(ex.value)} should give ${meta.code}, got ${found}`);
    }
  });
  test(`${meta.code}: does not flag its clean examples`, () => {
    assert.ok(meta.examples.clean.length > 0, 'every rule shows what it must not flag');
    for (const ex of meta.examples.clean) {
      assert.not.ok(ticketCodes(meta, ex.value).includes(meta.code), `${JSON.stringify(ex.value)} must not give ${meta.code}`);
    }
  });
}

test('catalog: codes are unique kebab-case, every entry is complete', () => {
  const seen = new Set<string>();
  for (const m of ruleCatalog) {
    assert.ok(/^[a-z0-9]+(-[a-z0-9]+)*$/.test(m.code), m.code);
    assert.not.ok(seen.has(m.code), `duplicate ${m.code}`);
    seen.add(m.code);
    assert.ok(m.title && m.description && m.spec, m.code);
  }
});

test('catalog: a null severity (not reported) is a URL rule\'s only: every other scope is reported under every profile', () => {
  for (const m of ruleCatalog.filter((x) => x.scope !== undefined && x.scope !== 'url')) {
    for (const p of PROFILES) assert.ok(m.severity[p] !== null, `${m.code} under ${p}`);
  }
});

// RFC 8089 E.2: a drive letter is ALPHA then ':' or (E.2.2) '|'; escaped, %3A or %7C (a decoding consumer's view).
test('drive letters: the one definition the rules ask', () => {
  for (const [s, escaped, length] of [['c:', false, 2], ['C|', false, 2], ['c%3A', true, 4], ['c%7c', true, 4], ['c%3A', false, 0], ['1:', false, 0], ['cd:', false, 0], ['c', false, 0], ['@:', false, 0], ['[:', false, 0]] as const) {
    assert.is(driveLetterAt(s, 0, escaped), length, `${s} escaped=${escaped}`);
  }
  assert.ok(isDriveSegmentAt('c:/path/to/file', 0));
  assert.ok(isDriveSegmentAt('c:', 0));
  assert.not.ok(isDriveSegmentAt('c:path', 0));
  assert.not.ok(isDriveSegmentAt('c:\\path', 0));
  assert.ok(isDriveSegmentAt('c:\\path', 0, true));
  assert.ok(isDriveSegmentAt('c%3a%2ffolder', 0, true));
});

const appendix = loadData('jdf-appendix-examples.json');
const base = appendix.good.directory;

for (const c of appendix.good.cases) {
  test(`Table 2 good example ${c.n} (${c.url}): no error or warning under jdf`, () => {
    const r = checkUrl(c.url, { base });
    assert.equal(codes(r.findings, 'warning'), []);
    assert.is(r.resolved, c.resolved);
  });
}

// What each bad example of Table 4 must produce: the appendix's comment, as a rule code.
const BAD: Record<number, string> = {
  21: 'file-without-authority',
  22: 'drive-letter-as-host',
  23: 'unescaped-space',
  24: 'backslash',
  25: 'dot-segment-in-absolute-url',
  26: 'root-without-drive',
  27: 'authority-without-path',
  28: 'escaped-slash',
};

for (const c of appendix.bad.cases) {
  test(`Table 4 bad example ${c.n} (${JSON.stringify(c.url)}): ${BAD[c.n]}`, () => {
    const r = checkUrl(c.url, { platform: c.platformDependent ? 'windows' : 'any' });
    const f = r.findings.find((x) => x.code === BAD[c.n]);
    assert.ok(f, `expected ${BAD[c.n]}, got ${codes(r.findings)}`);
    assert.is(f!.severity, 'error');
    if (c.suggest) assert.ok(c.suggest.includes(f!.fix), `fix ${f!.fix} is one of the appendix's suggestions ${c.suggest}`);
  });
}

test('Table 4 example 27 also gets the trailing white space finding', () => {
  assert.ok(codes(checkUrl('file://a.pdf ').findings).includes('surrounding-whitespace'));
});

test('Table 4 example 26 depends on the platform: error on windows and mac, warning on any, clean on unix', () => {
  const sevOf = (platform: any) => checkUrl('file:///a.pdf', { platform }).findings.find((f) => f.code === 'root-without-drive')?.severity;
  assert.is(sevOf('windows'), 'error');
  assert.is(sevOf('mac'), 'error');
  assert.is(sevOf('any'), 'warning');
  assert.is(sevOf('unix'), undefined);
});

test('Table 5: "%2E%2E" (a Mac file named "..") is not a dot segment', () => {
  assert.not.ok(codes(checkUrl('File:///HD1/%2E%2E').findings).includes('dot-segment-in-absolute-url'));
});

test('Table 5: an escaped "/" in a Mac file name is only a warning for the mac platform', () => {
  const f = checkUrl('file:///HD1/foo%2F', { platform: 'mac' }).findings.find((x) => x.code === 'escaped-slash');
  assert.is(f?.severity, 'warning');
});

test('Table 6: "foo:" is flagged as a scheme, "./foo:" is clean, and %00 is an error', () => {
  assert.ok(codes(checkUrl('foo:').findings).includes('unknown-scheme'));
  assert.equal(codes(checkUrl('./foo:').findings, 'warning'), []);
  assert.ok(codes(checkUrl('File:///fo%00/bar').findings).includes('percent-encoded-nul'));
});

test('appendix XML example: a Directory without its trailing "/" is a warning with the fix', () => {
  const x = appendix.xmlExample.withoutTrailingSlash;
  const r = checkUrl(x.directory, { role: 'directory' });
  const f = r.findings.find((y) => y.code === 'directory-without-trailing-slash');
  assert.is(f?.severity, 'warning');
  assert.is(f?.fix, x.directory + '/');
  const u = checkUrl('../F-22/job001.pdf', { base: x.directory });
  assert.is(u.resolved, x.resolved);
  assert.ok(codes(u.findings).includes('base-last-segment-dropped'));
});

test('RFC 8089 standard forms are clean under rfc8089', () => {
  for (const c of appendix.rfc8089.standard) {
    assert.equal(codes(checkUrl(c.url, { profile: 'rfc8089', platform: 'unix' }).findings, 'warning'), [], c.url);
  }
});

test('RFC 8089 section 2: file:/path is an error under jdf only', () => {
  assert.ok(codes(checkUrl('file:/path/to/file', { platform: 'unix' }).findings).includes('file-without-authority'));
  assert.equal(codes(checkUrl('file:/path/to/file', { profile: 'lenient', platform: 'unix' }).findings), []);
});

for (const c of appendix.rfc8089.nonstandard) {
  test(`RFC 8089 ${c.appendix} ${c.url}: lenient reports it, rfc8089 errs, and the update is the fix`, () => {
    const lenient = checkUrl(c.url, { profile: 'lenient', platform: 'windows' });
    const strict = checkUrl(c.url, { profile: 'rfc8089', platform: 'windows' });
    if (c.url === 'file:///host.example.com/path/to/file') {
      // E.3.2 with three slashes is indistinguishable from a local folder: only the platform rule speaks.
      assert.ok(codes(strict.findings).includes('root-without-drive'));
      return;
    }
    assert.ok(strict.findings.some((f) => f.severity === 'error'), `rfc8089 should err on ${c.url}`);
    const secret = c.url.includes(':secret@');
    if (!secret) assert.ok(lenient.findings.every((f) => f.severity !== 'error'), `lenient accepts ${c.url} with warnings: ${codes(lenient.findings)}`);
    if (c.update) assert.ok(lenient.findings.some((f) => f.fix === c.update), `one fix is the update ${c.update}`);
    if (c.local === false) assert.is.not(lenient.local, true);
    if (c.local === true) assert.is(lenient.local, true);
  });
}

test('non-file schemes FileSpec allows are classified, not flagged', () => {
  for (const [url, scheme] of [['http://cip4.org/a.pdf', 'http'], ['https://cip4.org/a.pdf', 'https'], ['ftp://cip4.org/pub/a.pdf', 'ftp'], ['cid:pdl', 'cid']] as const) {
    const r = checkUrl(url);
    assert.is(r.scheme, scheme);
    assert.is(r.kind, 'absolute');
    assert.equal(codes(r.findings), [], url);
  }
});

test('raw non-ASCII: error for JDF 1.2, info for 1.3, the UTF-8 escape as the fix either way', () => {
  const iri = appendix.rfc8089.iri.cases[0];
  const old = checkUrl(iri.iri.replace('file:C:', 'file:///C:'), { jdfVersion: '1.2' }).findings.find((f) => f.code === 'non-ascii');
  const now = checkUrl(iri.iri.replace('file:C:', 'file:///C:'), { jdfVersion: '1.3' }).findings.find((f) => f.code === 'non-ascii');
  assert.is(old?.severity, 'error');
  assert.is(now?.severity, 'info');
  assert.is(old?.fix, iri.uri.replace('file:C:', 'file:///C:'));
  assert.is(now?.fix, old?.fix);
});

test('Table 1: non-ASCII examples escape to the appendix\'s octets', () => {
  for (const [ch, escaped] of appendix.escaping.nonAscii) {
    assert.is(checkUrl(`a${ch}.pdf`).findings.find((f) => f.code === 'non-ascii')?.fix, `a${escaped}.pdf`);
  }
});

test('relative references are classified by RFC 3986 4.2', () => {
  for (const c of appendix.relative.cases) assert.is(checkUrl(c.ref).kind, c.kind);
});

test('local is true, false or unknown per RFC 8089 section 3', () => {
  for (const c of appendix.rfc8089.standard) assert.is(checkUrl(c.url).local, c.local, c.url);
  assert.is(checkUrl('a.pdf').local, 'unknown');
  assert.is(checkUrl('a.pdf', { base: 'file:///pub/' }).local, true);
  assert.is(checkUrl('file://host.example.com/a', { localHosts: ['HOST.example.com'] }).local, true);
});

test('a relative path with ".." climbing above the drive is a warning naming both readings', () => {
  const f = checkUrl('../../../a.pdf', { base }).findings.find((x) => x.code === 'drive-lost-in-resolution');
  assert.is(f?.severity, 'warning');
  assert.ok(f!.message.includes('file:///a.pdf') && f!.message.includes('file:///c:/a.pdf'));
  assert.is(checkUrl('../../../a.pdf', { base, drivePreserving: true }).resolved, 'file:///c:/a.pdf');
});

test.run();
