// Seeded random values and options for checkUrl: the forms real tickets hold (backslashes, UNC names, drive letters,
// c|, %-escapes good and bad, raw non-ASCII, ports, userinfo, control characters, empty values) cut up and put
// together again. Used by test/check-regression.test.ts and scripts/check-dump.ts; no corpus file is read.
import { random } from '../bench/corpus.js';
import type { CheckOptions, Platform, Profile, Role } from '../src/rules/types.js';

/** mulberry32 (the bench's seeded generator), so the same seed gives the same values on every machine. */
export const seeded = random;

const PIECES = [
  'a', 'Z', '0', '9', 'Jobs', 'page 1', 'x.pdf', '/', '/', '//', '\\', '\\\\', '.', '..', './', '../', '%', '%2F', '%2f', '%20', '%25',
  '%C3%BC', '%c3%bc', '%E9', '%ZZ', '%4', '%C3', '%00', '%2e', '\u00fc', '\u00e9', '\u30ab', '\u00a0', '\ud800', '\u{1f600}', ' ', '\t', '\n',
  '\u0000', '\u001f', '\u007f', 'c:', 'C:', 'C|', 'c|', '/C:/', 'file:', 'FILE:', 'file://', 'file:///', 'file:////', 'file:\\\\',
  '\\\\srv\\share\\', '//srv/share/', 'localhost', 'localhost/', 'user@', 'user:pw@', 'u:p@host/', ':8080', ':', ':x', '?', '?q=1', '#', '#f',
  '[::1]', '[', ']', 'http://', 'HTTP://h/', 'cid:', 'mailto:', '$$Name$$', '$', '~', '+', '&', '=', ';', '"', '<', '>', '{', '|', '^', '`',
  'CON', 'nul.txt', 'aux.', 'com1', 'name.', 'name ', 'Brosch\u00fcre', 'Stra%DFe', 'PTJobs', 'HEIPC83231', '@', '!', '*', "'", '(',
];

const SEEDS = [
  'file:///C:/Jobs/4711/a b.pdf', '\\\\srv\\share\\Jobs\\Brosch\u00fcre.pdf', 'C:\\Jobs\\a.pdf', 'c|/jobs/a.pdf', 'file://srv/share/a.pdf',
  'file:///c:/pub/jdf-folder/x.pdf', 'pages/p1.pdf', 'pages\\p1.pdf', 'file://localhost/c:/a.pdf', 'file:C:/a.pdf', '/Volumes/Jobs/a.pdf',
  'http://user:pw@host:8080/a%20b.pdf', 'file://HEIPC83231/PTJobs/Jobs/Brosch%C3%BCre/a.pdf', '', ' a.pdf ', 'cid:part1@example.com',
  'file:///Users/me/Stra\u00dfe/a.pdf', '../up/../x.pdf', 'file:////srv/share/a.pdf', 'file://///srv/share/a.pdf', '$$Job$$/a.pdf',
];

const BASES: Array<string | undefined> = [
  undefined, 'file:///c:/pub/jdf-folder/', 'file://srv/share/a/b/', 'file://HEIPC83231/PTJobs/Jobs/Brosch%C3%BCre/', 'file:///C:/Jobs/4711',
  'http://a/b/c/d;p?q', 'cid:x', 'file:///x/.//', 'file:', 'file:///home/u/jobs/', 'file:///home/u/jobs/', 'file:///c:/pub/jdf-folder/',
];

function pick<T>(rnd: () => number, xs: readonly T[]): T {
  return xs[Math.floor(rnd() * xs.length)]!;
}

/** A value: pieces put together, or a real-looking value with pieces put in, swapped or cut out. */
function valueOf(rnd: () => number): string {
  if (rnd() < 0.45) {
    let out = '';
    const n = Math.floor(rnd() * 10);
    for (let i = 0; i < n; i++) out += pick(rnd, PIECES);
    return out;
  }
  let v = pick(rnd, SEEDS);
  const edits = Math.floor(rnd() * 4);
  for (let e = 0; e < edits; e++) {
    const at = Math.floor(rnd() * (v.length + 1));
    const r = rnd();
    if (r < 0.5) v = v.slice(0, at) + pick(rnd, PIECES) + v.slice(at);
    else if (r < 0.8) v = v.slice(0, at) + pick(rnd, PIECES) + v.slice(at + 1 + Math.floor(rnd() * 3));
    else v = v.slice(0, at) + v.slice(at + 1 + Math.floor(rnd() * 4));
  }
  return v;
}

/** Options as a ticket gives them: mostly the defaults with a base, sometimes every other choice. */
function optionsOf(rnd: () => number): CheckOptions {
  const options: CheckOptions = {};
  const base = pick(rnd, BASES);
  if (base !== undefined) options.base = base;
  if (rnd() < 0.3) options.profile = pick(rnd, ['jdf', 'rfc8089', 'lenient'] as Profile[]);
  if (rnd() < 0.3) options.platform = pick(rnd, ['any', 'windows', 'mac', 'unix'] as Platform[]);
  if (rnd() < 0.2) options.role = pick(rnd, ['url', 'directory'] as Role[]);
  if (rnd() < 0.3) options.jdfVersion = pick(rnd, ['1.2', '1.3', '1.4', '2.1']);
  if (rnd() < 0.3) options.charset = pick(rnd, ['utf-8', 'iso-8859-1', 'windows-1252', 'us-ascii']);
  if (rnd() < 0.1) options.drivePreserving = true;
  if (rnd() < 0.1) options.localHosts = ['srv', 'HEIPC83231'];
  return options;
}

/** `count` values with their options, the same for the same seed. */
export function checkInputs(seed: number, count: number): Array<{ value: string; options: CheckOptions }> {
  const rnd = seeded(seed);
  const out: Array<{ value: string; options: CheckOptions }> = [];
  for (let i = 0; i < count; i++) {
    const value = valueOf(rnd);
    // A long value now and then (the schemas' 4095 limit, and fixes that cross it).
    out.push({ value: rnd() < 0.005 ? value + 'a'.repeat(4090) : value, options: optionsOf(rnd) });
  }
  return out;
}

// The forms checkUrl answers without a context (src/checker/plain.ts) and their near misses: a scheme and host,
// then segments, plain or not, perhaps a trailing "/", as a URL or a Directory, on every platform and charset.
const SHAPE_PREFIXES = [
  'File://h/', 'FILE:///D:/', 'fIlE://KIE/', 'File:///D:\\x\\', 'file://h/', 'file://KIE-STRESS-P2/', 'file:///c:/', 'file:///C|/', 'file:///',
  'file://localhost/', 'file://LOCALHOST/', 'file://c/', 'file://c:/', 'http://h/', 'http://h:8080/', 'http://1.2.3.4:1/', 'https://x.y/',
  'ftp://f/', 'http://c:80/', 'http://h:/', '//h/', '', 'a/', 'HTTP://h/', 'file://h:80/', 'http://999.1.1.1/', 'http://h_h/', 'http://~/',
  'http://h?', 'http://h?a=1&b=2/', 'http://h.com', 'http://h:1?x/', 'https://a?./', 'ftp://h?q/x/', 'http://h/?/',
];
const SHAPE_SEGMENTS = [
  'a', 'Jobs', 'x.pdf', 'CON', 'con.txt', 'a.', 'a%20', 'a%20b', '%2E', '%2E%2E', '.a', '', 'b%23c', 'x%41', '%3A', 'a:b', 'c:', 'C|', 'x%7E',
  '%25', 'z%5C', '%7C', 'q%40r', 'nul', '(1)', 'a~b', 'a+b', 'a&b', 'a=b', 'M%C3%BCller', '%C3', '%C3%BC%C3', '%E2%82%AC', '%ED%A0%80',
  '%F0%9F%98%80', '%C0%AF', '%FF', '%E9', 'caf%E9', '%C3%41', '%c3%bc', '%C3%BC%20', '%F4%90%80%80', '?', 'q?r', 'x=1&y', '?./', '#', 'a#b',
  '%2F', '%00', '%7F', 'a b', '\u00fc', '$$X$$',
];
const SHAPE_BASES = [undefined, 'file:///c:/pub/', 'file://srv/share/a', 'http://a/b/c/d;p?q', 'file:///c:/pub'];

/** `count` values of the quiet forms and their near misses, with options, the same for the same seed. */
export function shapeInputs(seed: number, count: number): Array<{ value: string; options: CheckOptions }> {
  const rnd = seeded(seed);
  const out: Array<{ value: string; options: CheckOptions }> = [];
  for (let i = 0; i < count; i++) {
    const parts: string[] = [];
    for (let k = 1 + Math.floor(rnd() * 4); k > 0; k--) parts.push(pick(rnd, SHAPE_SEGMENTS));
    const value = pick(rnd, SHAPE_PREFIXES) + parts.join('/') + (rnd() < 0.5 ? '/' : '');
    const options: CheckOptions = {};
    const base = pick(rnd, SHAPE_BASES);
    if (base !== undefined) options.base = base;
    if (rnd() < 0.8) options.platform = pick(rnd, ['any', 'windows', 'mac', 'unix'] as Platform[]);
    if (rnd() < 0.5) options.role = pick(rnd, ['url', 'directory'] as Role[]);
    if (rnd() < 0.2) options.profile = pick(rnd, ['jdf', 'rfc8089', 'lenient'] as Profile[]);
    if (rnd() < 0.3) options.charset = pick(rnd, ['utf-8', 'UTF8', 'iso-8859-1', 'windows-1252', 'us-ascii']);
    out.push({ value, options });
  }
  return out;
}
