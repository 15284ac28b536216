// resolveReference and resolveWithTrace against a textbook RFC 3986 5.2 written here (appendix B's regular
// expression, 5.2.2 to 5.2.4 on whole strings, 5.3), with RFC 8089 E.2.1 for drivePreserving, on seeded random
// (reference, base) pairs built from the pieces that take the resolver's shortcuts and its edges: dot segments,
// drive letters ("/c:", "c|", escaped), empty references, "?" and "#" alone, authorities, backslashes, schemes
// valid and not, non-ASCII. JDF_ORACLE_PAIRS raises the number of pairs; JDF_ORACLE_SEED picks another set.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { resolveReference } from '../src/index.js';
import { resolveWithTrace, type ResolutionTrace } from '../src/uri/resolve.js';
import { random } from '../bench/corpus.js'; // mulberry32: the same pairs on every run

interface Parts { scheme?: string; authority?: string; path: string; query?: string; fragment?: string }

// RFC 3986 appendix B; a scheme must also match 3.1, else the reference has none (the house reading of "1a:b").
function parse(s: string): Parts {
  let m = /^(([^:/?#]+):)?(\/\/([^/?#]*))?([^?#]*)(\?([^#]*))?(#(.*))?$/s.exec(s)!;
  let scheme = m[2];
  if (scheme !== undefined && !/^[A-Za-z][A-Za-z0-9+.-]*$/.test(scheme)) {
    scheme = undefined;
    m = /^()()(\/\/([^/?#]*))?([^?#]*)(\?([^#]*))?(#(.*))?$/s.exec(s)!;
  }
  const p: Parts = { path: m[5]! };
  if (scheme !== undefined) p.scheme = scheme;
  if (m[3] !== undefined) p.authority = m[4]!;
  if (m[6] !== undefined) p.query = m[7]!;
  if (m[8] !== undefined) p.fragment = m[9]!;
  return p;
}

const DRIVE = /^\/[A-Za-z][:|](\/|$)/;

// RFC 3986 5.2.4 on strings, steps A to E; with keepDrive, a ".." never removes a leading "/c:" (RFC 8089 E.2.1).
function removeDots(input: string, keepDrive: boolean, trace: ResolutionTrace): string {
  let drive = DRIVE.test(input); // the output starts with the input's drive segment, and it is still there
  let output = '';
  const popLast = () => { output = output.slice(0, Math.max(0, output.lastIndexOf('/'))); };
  while (input.length > 0) {
    if (input.startsWith('../')) input = input.slice(3); // A
    else if (input.startsWith('./')) input = input.slice(2); // A
    else if (input.startsWith('/./')) input = input.slice(2); // B
    else if (input === '/.') input = '/'; // B
    else if (input.startsWith('/../') || input === '/..') { // C
      input = input === '/..' ? '/' : input.slice(3);
      if (output === '') trace.aboveRoot++;
      else if (drive && output.length === 3) {
        if (!keepDrive) { trace.climbedAboveDrive = true; output = ''; drive = false; }
      } else popLast();
    } else if (input === '.' || input === '..') input = ''; // D
    else { // E
      const next = input.indexOf('/', input.startsWith('/') ? 1 : 0);
      const end = next === -1 ? input.length : next;
      output += input.slice(0, end);
      input = input.slice(end);
    }
  }
  return output;
}

// RFC 3986 5.2.3
function mergePaths(base: Parts, path: string): string {
  if (base.authority !== undefined && base.path === '') return '/' + path;
  return base.path.slice(0, base.path.lastIndexOf('/') + 1) + path;
}

// RFC 3986 5.2.2 (strict), with RFC 8089 E.2.1's "/x" on the base's drive when keepDrive; then 5.3.
function oracle(reference: string, base: string, keepDrive: boolean): { href: string; trace: ResolutionTrace } {
  const trace: ResolutionTrace = { aboveRoot: 0, climbedAboveDrive: false, absolutePathDroppedDrive: false };
  const R = parse(reference);
  const B = parse(base);
  const T: Parts = { path: '' };
  if (R.scheme !== undefined) {
    Object.assign(T, { scheme: R.scheme, authority: R.authority, path: removeDots(R.path, keepDrive, trace), query: R.query });
  } else if (R.authority !== undefined) {
    Object.assign(T, { scheme: B.scheme, authority: R.authority, path: removeDots(R.path, keepDrive, trace), query: R.query });
  } else if (R.path === '') {
    Object.assign(T, { scheme: B.scheme, authority: B.authority, path: B.path, query: R.query ?? B.query });
  } else if (R.path.startsWith('/')) {
    let path = R.path;
    if (DRIVE.test(B.path) && !DRIVE.test(R.path)) {
      trace.absolutePathDroppedDrive = !keepDrive;
      if (keepDrive) path = B.path.slice(0, 3) + R.path;
    }
    Object.assign(T, { scheme: B.scheme, authority: B.authority, path: removeDots(path, keepDrive, trace), query: R.query });
  } else {
    Object.assign(T, { scheme: B.scheme, authority: B.authority, path: removeDots(mergePaths(B, R.path), keepDrive, trace), query: R.query });
  }
  let href = T.scheme !== undefined ? T.scheme + ':' : '';
  if (T.authority !== undefined) href += '//' + T.authority;
  else if (T.path.startsWith('//')) href += '/.'; // 3.3: no authority, so the path may not begin with "//"
  href += T.path;
  if (T.query !== undefined) href += '?' + T.query;
  if (R.fragment !== undefined) href += '#' + R.fragment;
  return { href, trace };
}

const SCHEMES = ['file:', 'http:', 'HTTPS:', 'c:', 'C|', 'a1+.-:', '1a:', 'my file:', 'cid:', 'x:', 'file::', 'f\u00e9:'];
const AUTHORITIES = ['//', '//host', '//h:8080', '//.', '//..', '//c:', '//C|', '//[::1]:80', '//user@h', '//\\\\srv', '//localhost', '//a b'];
const SEGMENTS = ['.', '..', '.', '..', '...', 'a', 'b', 'x.pdf', 'c:', 'C|', 'c%3A', '', '%2e', '%2E%2E', '.a', 'a.', '\u00e9', '\u65e5\u672c', '\\', 'a\\b', '\\\\srv\\share', ' ', 'x:y', 'c:\\x', '..\\..'];
const PLAIN = SEGMENTS.filter((s) => s !== '.' && s !== '..');
const TAILS = ['', '', '', '?', '#', '?q', '#f', '?a/../b', '#x/./y', '?x#y', '?#', '#?', '?/.', '#..', '?\u00e9'];
const ODD_REFERENCES = ['', '.', '..', './', '../', '/', '//', '?', '#', '/.', '/..', 'c:', 'c|', '/c:', '/c|', 'C:/', '\\\\srv\\x', 'file:', 'file:/', 'file://', 'file:///c:/x/../..', '..//x', './/x', 'g:h', 'a:.', 'a:..', 'a:./x', 'a:/./x'];
const ODD_BASES = ['', 'a/b', '/a/b', '?q', '#f', 'file:', 'file:/', 'file://', 'file:///', 'http://h', 'http://h?q', 'file://h#f', 'file:///c:', 'file:///c|/x', 'file:c:/x', 'x:', 'x:y', 'file:///a/./b/', 'file:///a/../b'];

function pairs(seed: number, n: number): Array<[string, string]> {
  const rnd = random(seed);
  const pick = <T>(xs: T[]): T => xs[Math.floor(rnd() * xs.length)]!;
  const path = (segments: string[]) => {
    let p = rnd() < 0.4 ? '/' : '';
    for (let i = 0, count = Math.floor(rnd() * 6); i < count; i++) p += pick(segments) + (i < count - 1 || rnd() < 0.3 ? (rnd() < 0.9 ? '/' : '\\') : '');
    return p;
  };
  const reference = () => {
    if (rnd() < 0.05) return pick(ODD_REFERENCES) + pick(TAILS);
    return (rnd() < 0.3 ? pick(SCHEMES) : '') + (rnd() < 0.25 ? pick(AUTHORITIES) : '') + path(SEGMENTS) + pick(TAILS);
  };
  const base = () => {
    if (rnd() < 0.03) return pick(ODD_BASES);
    const drive = rnd() < 0.3 ? pick(['/c:', '/C|', '/c%3A', '/c:/', '/d:/']) : '';
    return (rnd() < 0.92 ? pick(['file:', 'file:', 'http:', 'x:', 'C:', 'my file:']) : '')
      + (rnd() < 0.7 ? pick(['//', '//', '//host', '//h:1', '//.', '//c:']) : '') + drive + path(rnd() < 0.5 ? PLAIN : SEGMENTS) + pick(TAILS);
  };
  // Many references share a base, as in a ticket; more bases than the resolver's memo holds.
  const bases = Array.from({ length: 400 }, base);
  return Array.from({ length: n }, () => [reference(), rnd() < 0.7 ? pick(bases) : base()]);
}

const SEED = Number(process.env.JDF_ORACLE_SEED ?? 3986);
const PAIRS = Number(process.env.JDF_ORACLE_PAIRS ?? 30_000);

test('the oracle gives the RFC 3986 5.4 examples (it is itself a reading of 5.2)', () => {
  const base = 'http://a/b/c/d;p?q';
  const examples: Array<[string, string]> = [
    ['g:h', 'g:h'], ['g', 'http://a/b/c/g'], ['./g', 'http://a/b/c/g'], ['g/', 'http://a/b/c/g/'], ['/g', 'http://a/g'],
    ['//g', 'http://g'], ['?y', 'http://a/b/c/d;p?y'], ['g?y', 'http://a/b/c/g?y'], ['#s', 'http://a/b/c/d;p?q#s'],
    ['', 'http://a/b/c/d;p?q'], ['..', 'http://a/b/'], ['../..', 'http://a/'], ['../../../g', 'http://a/g'],
    ['/./g', 'http://a/g'], ['g.', 'http://a/b/c/g.'], ['./g/.', 'http://a/b/c/g/'], ['g;x=1/../y', 'http://a/b/c/y'],
    ['g?y/./x', 'http://a/b/c/g?y/./x'], ['g#s/../x', 'http://a/b/c/g#s/../x'], ['http:g', 'http:g'],
  ];
  for (const [reference, target] of examples) assert.is(oracle(reference, base, false).href, target, reference);
});

test(`resolveReference and resolveWithTrace give the oracle's target and trace on ${PAIRS} seeded pairs`, () => {
  let failures = 0;
  for (const [reference, base] of pairs(SEED, PAIRS)) {
    for (const keepDrive of [false, true]) {
      const expected = oracle(reference, base, keepDrive);
      const options = { drivePreserving: keepDrive };
      const href = resolveReference(reference, base, options);
      const traced = resolveWithTrace(reference, base, options);
      if (href === expected.href && traced.href === expected.href && JSON.stringify(traced.trace) === JSON.stringify(expected.trace)) continue;
      if (++failures <= 5) {
        console.error(JSON.stringify({ reference, base, drivePreserving: keepDrive, expected, href, traced }));
      }
    }
  }
  assert.is(failures, 0, 'resolutions that differ from the oracle (the first five are printed above)');
});

test.run();
