// Characters a URL may not hold raw: the appendix section 3 and Table 1, RFC 3986 section 2.
// Long because: the character rules share charRule and the first-index scan; the precision branch is changing
// their fixes now, so the split into rooms (raw characters, escapes) waits until it has landed.
import { SIGN } from './signs.js';
import { charsetForLabel, charsetName } from '../escape/charsets.js';
import { decodeSegment, escapeChar, escapeCharIn, escapeNonAsciiIn, isTripletAt, unheldChar } from '../escape/percent.js';
import { isControl } from '../escape/tables.js';
import { drivePipeIndex } from './drive-letter.js';
import { KIND, type Kind } from './facts.js';
import { examples, replacedSpan, sev, showChar } from './helpers.js';
import type { CheckContext, CheckOptions, Edit, Profile, Report, Rule, RuleMeta } from './types.js';

const isSpace = (c: number): boolean => c === 0x20;
const isBackslash = (c: number): boolean => c === 0x5c;

/** Index ranges of `core` where a character is legitimately special: IP-literal brackets, the drive's "|". */
function exempt(ctx: CheckContext): (i: number) => boolean {
  const host = ctx.authority?.host ?? '';
  const bracketStart = host.startsWith('[') ? ctx.authorityStart - ctx.lead + ctx.ref.authority!.indexOf('[') : -1;
  const bracketEnd = bracketStart === -1 ? -1 : bracketStart + host.length - 1;
  return (i) => i === bracketStart || i === bracketEnd;
}

function firstIndex(core: string, test: (c: number, i: number) => boolean): { first: number; count: number } {
  let first = -1;
  let count = 0;
  for (let i = 0; i < core.length; i++) {
    if (test(core.charCodeAt(i), i)) {
      if (first === -1) first = i;
      count++;
    }
  }
  return { first, count };
}

/** replacedSpan where each of the `count` characters `ch` from `from` (the first) becomes `text`, by indexOf. */
function replacedChar(core: string, ch: string, text: string, from: number, count: number): Edit {
  let out = '';
  let copied = from;
  for (let i = from, left = count; left > 0; left--) {
    out += core.slice(copied, i) + text;
    copied = i + 1;
    if (left > 1) i = core.indexOf(ch, copied);
  }
  return { start: from, end: copied, text: out };
}

/**
 * A rule about one kind of character (facts.ts). `test` is null where the rule does not apply to this value;
 * `exact` says the kind is exactly what the rule reports, so the scan's first index and count are the answer.
 * Otherwise (exemptions) the characters of the kind are looked at again, only when the value holds one. `char`:
 * the kind is that one character, always fixed the same way.
 */
function charRule(
  rule: Omit<Rule, 'check'>,
  kinds: { kind: Kind; or?: Kind; exact: boolean; char?: string },
  test: (ctx: CheckContext) => ((c: number, i: number) => boolean) | null,
  fixWith: (ch: string) => string,
): Rule {
  return {
    ...rule,
    when: (1 << kinds.kind) | (kinds.or !== undefined ? 1 << kinds.or : 0),
    check(ctx, report) {
      const facts = ctx.facts;
      if (!facts.has(kinds.kind) && (kinds.or === undefined || !facts.has(kinds.or))) return;
      const t = test(ctx);
      if (!t) return;
      const { first, count } = kinds.exact ? { first: facts.first(kinds.kind), count: facts.count(kinds.kind) } : firstIndex(ctx.core, t);
      if (first === -1) return;
      const core = ctx.core;
      const span = kinds.exact && kinds.char !== undefined
        ? replacedChar(core, kinds.char, fixWith(kinds.char), first, count)
        : replacedSpan(core, t, fixWith, first, kinds.exact ? count : Infinity)!;
      const r: Report = {
        offset: ctx.lead + first,
        args: { count, char: showChar(String.fromCodePoint(core.codePointAt(first)!)) },
        fix: ctx.withCore(core.slice(0, span.start) + span.text + core.slice(span.end)),
        edit: { start: ctx.lead + span.start, end: ctx.lead + span.end, text: span.text },
      };
      report(r);
    },
  };
}

export const surroundingWhitespace: Rule = {
  meta: {
    code: 'surrounding-whitespace',
    title: 'White space around the URL',
    description: 'Leading or trailing spaces, tabs or line breaks are not part of any URL; consumers differ on whether they strip them or look for a file whose name ends in a space (appendix Table 4, example 27).',
    spec: 'JDF appendix 3; RFC 3986 appendix C',
    severity: sev('error', 'error', 'error'),
    fixable: true,
    examples: examples([{ value: 'file://a.pdf ', offset: 12, fix: 'file://a.pdf' }, { value: ' a.pdf', offset: 0, fix: 'a.pdf' }, { value: 'a.pdf\n', offset: 5, fix: 'a.pdf' }], [{ value: 'a%20.pdf' }, { value: 'my%20docs/a.pdf' }]),
  },
  message: (a) => `The URL has ${a.where} white space; remove it.`,
  cleanFix: true,
  when: SIGN.padded,
  check(ctx, report) {
    if (ctx.core.length === ctx.value.length) return;
    const leading = ctx.lead > 0;
    const trailing = ctx.lead + ctx.core.length < ctx.value.length;
    report({
      offset: leading ? 0 : ctx.lead + ctx.core.length,
      args: { where: leading && trailing ? 'leading and trailing' : leading ? 'leading' : 'trailing' },
      fix: ctx.core,
    });
  },
};

export const controlCharacter = charRule(
  {
    meta: {
      code: 'control-character',
      title: 'Raw control character',
      description: 'Octets 00-1F and 7F are control characters and must be escaped as %00-%1F and %7F. A tab written as &#9; in XML stays a tab and lands here.',
      spec: 'JDF appendix 3, Table 1; RFC 3986 2',
      severity: sev('error', 'error', 'error'),
      fixable: true,
      examples: examples([{ value: 'a\tb.pdf', offset: 1, fix: 'a%09b.pdf' }, { value: 'file:///a\u007f.pdf', offset: 9, fix: 'file:///a%7F.pdf' }], [{ value: 'a%09b.pdf' }, { value: 'file:///c:/a.pdf' }]),
    },
    message: (a) => `The URL holds the control character ${a.char}${Number(a.count) > 1 ? ` (and ${Number(a.count) - 1} more)` : ''}; escape it as %XX.`,
  },
  { kind: KIND.control, exact: true },
  () => isControl,
  escapeChar,
);

export const unescapedSpace = charRule(
  {
    meta: {
      code: 'unescaped-space',
      title: 'Unescaped space',
      description: 'A space is not a valid character in a URL (appendix Table 4, example 23): write it as %20.',
      spec: 'JDF appendix 4.3, Table 4 example 23; Table 1',
      severity: sev('error', 'error', 'error'),
      fixable: true,
      examples: examples([{ value: 'file:///c:/my docs/a.pdf', offset: 13, fix: 'file:///c:/my%20docs/a.pdf' }, { value: 'my docs/a b.pdf', offset: 2, fix: 'my%20docs/a%20b.pdf' }], [{ value: 'file:///c:/my%20docs/a.pdf' }]),
    },
    message: (a) => `The URL holds ${Number(a.count) > 1 ? `${a.count} spaces` : 'a space'}, which a URL may not contain; write each as %20.`,
    cleanFix: true,
  },
  { kind: KIND.space, exact: true, char: ' ' },
  () => isSpace,
  () => '%20',
);

export const backslash = charRule(
  {
    meta: {
      code: 'backslash',
      title: 'Backslash as separator',
      description: "'\\' is not a valid URL character (appendix Table 4, example 24). Windows paths copied into URLs carry it as a separator; RFC 8089 E.4 says to replace it with '/' when it is meant as one. Where a UNC finding (unc-in-authority, unc-path-as-url) accounts for the backslashes, it is the one reported (src/rules/causes.ts). In a ticket, where consumers would open different files only because of the backslashes, their readings are in this finding (`readings`) rather than in a consumers-disagree of their own.",
      spec: 'JDF appendix 4.3, Table 4 example 24; RFC 8089 E.4',
      severity: sev('error', 'error', 'warning'),
      fixable: true,
      examples: examples([{ value: 'file:///c:\\folder\\a.pdf', offset: 10, fix: 'file:///c:/folder/a.pdf' }, { value: 'sub\\a.pdf', offset: 3, fix: 'sub/a.pdf' }], [{ value: 'file:///c:/folder/a.pdf' }, { value: 'sub/a%5Cb.pdf' }]),
    },
    message: (a) => `The URL uses '\\' as a path separator, which URLs do not allow; use '/' (RFC 8089 E.4).${a.readings ? ` Until then consumers open different files: ${a.readings}.` : ''}`,
  },
  { kind: KIND.backslash, exact: true, char: '\\' },
  () => isBackslash,
  () => '/',
);

const UNSAFE_OTHER = new Set(['<', '>', '"', '{', '}', '|', '^', '[', ']', '`'].map((ch) => ch.charCodeAt(0)));

export const unsafeCharacter = charRule(
  {
    meta: {
      code: 'unsafe-character',
      title: 'Unsafe character',
      description: 'The appendix calls < > " { } | ^ [ ] ` unsafe: they must always be escaped (Table 1). Brackets around an IPv6 host and the "|" of an old drive letter have their own rules.',
      spec: 'JDF appendix 3, Table 1; RFC 3986 2',
      severity: sev('error', 'error', 'error'),
      fixable: true,
      examples: examples([{ value: 'file:///c:/a{1}.pdf', offset: 12, fix: 'file:///c:/a%7B1%7D.pdf' }, { value: 'a^b.pdf', offset: 1, fix: 'a%5Eb.pdf' }, { value: 'x[1].pdf', offset: 1, fix: 'x%5B1%5D.pdf' }], [{ value: 'file://[::1]/a.pdf' }, { value: 'file:///c:/a%7B1%7D.pdf' }]),
    },
    message: (a) => `The URL holds the unsafe character ${a.char}${Number(a.count) > 1 ? ` (and ${Number(a.count) - 1} more)` : ''}; escape it (Table 1).`,
    // Not clean: escaping a ']' in the authority can make a port of what follows its ':' (file://c:] to file://c:%5D).
  },
  { kind: KIND.unsafe, or: KIND.pipe, exact: false },
  (ctx) => {
    const isExempt = exempt(ctx);
    const drivePipe = drivePipeIndex(ctx);
    return (c, i) => UNSAFE_OTHER.has(c) && !isExempt(i) && i !== drivePipe;
  },
  escapeChar,
);

export const semicolon = charRule(
  {
    meta: {
      code: 'unescaped-semicolon',
      title: 'Unescaped semicolon',
      description: "The appendix reserves ';' in file URLs and lists it among the characters that must be escaped (Table 1); RFC 3986 allows it in a path, so only the jdf profile reports it.",
      spec: 'JDF appendix 3, Table 1',
      severity: sev('error', null, null),
      fixable: true,
      examples: examples([{ value: 'file:///c:/a;1.pdf', offset: 12, fix: 'file:///c:/a%3B1.pdf' }], [{ value: 'file:///c:/a%3B1.pdf' }, { value: 'http://a/b;p', options: { profile: 'jdf' } }]),
    },
    message: () => "The URL holds ';', which the appendix reserves in file URLs; escape it as %3B.",
    cleanFix: true,
  },
  { kind: KIND.semicolon, exact: true, char: ';' },
  (ctx) => (ctx.isFileLike ? (c) => c === 0x3b : null),
  () => '%3B',
);

export const invalidPercent = charRule(
  {
    meta: {
      code: 'invalid-percent-encoding',
      title: "'%' without two hex digits",
      description: "'%' starts an escape and must be followed by two hexadecimal digits; a literal '%' in a name is written %25.",
      spec: 'JDF appendix 3, Table 1; RFC 3986 2.1',
      severity: sev('error', 'error', 'error'),
      fixable: true,
      examples: examples([{ value: '100%.pdf', offset: 3, fix: '100%25.pdf' }, { value: 'file:///c:/a%2.pdf', offset: 12, fix: 'file:///c:/a%252.pdf' }, { value: 'a%zz.pdf', offset: 1, fix: 'a%25zz.pdf' }], [{ value: '100%25.pdf' }, { value: 'a%2e.pdf' }]),
    },
    message: (a) => `'%' at this position is not followed by two hex digits${Number(a.count) > 1 ? ` (${a.count} times)` : ''}; write a literal '%' as %25.`,
    cleanFix: true,
  },
  { kind: KIND.badPercent, exact: true },
  (ctx) => (c, i) => c === 0x25 && !isTripletAt(ctx.core, i),
  () => '%25',
);

export const nonAscii: Rule = {
  meta: {
    code: 'non-ascii',
    title: 'Raw non-ASCII character',
    description: 'For JDF 1.2 conformance characters above 127 must be escaped (Table 1: Ä is %C3%84 in a UTF-8 ticket), and "all encoded octets must use the encoding declared on the XML document header\'s encoding attribute" (appendix section 3): so the fix escapes them as octets of the ticket\'s encoding, UTF-8 (also for a UTF-16 ticket) or the one octet of a single-byte encoding (ISO-8859-1, windows-1252: é is %E9). A character that encoding has no octet for gets no fix, on purpose: a US-ASCII ticket has no octet above 127, so no escape of it names the character there (a UTF-8 one would be read as octets US-ASCII lacks); the message says to save the ticket as UTF-8 (a US-ASCII file is UTF-8 already: only its declaration changes) or rename the file. From JDF 1.3 they are accepted as an IRI (CIP4\'s own library writes them), reported as info; RFC 8089 section 4 asks for percent-encoded UTF-8. A ticket that declares no JDF/@Version is read as JDF 1.2, and the message says so.',
    spec: 'JDF appendix 3, Table 1; RFC 8089 4; RFC 3987 3.1',
    severity: sev('error', 'warning', 'info'),
    fixable: true,
    examples: examples(
      [
        { value: 'file:///c:/Müller/a.pdf', offset: 12, fix: 'file:///c:/M%C3%BCller/a.pdf' },
        { value: 'reçu.pdf', offset: 2, fix: 're%C3%A7u.pdf', options: { profile: 'rfc8089' } },
        { value: 'résumé.pdf', offset: 1, fix: 'r%E9sum%E9.pdf', options: { charset: 'iso-8859-1' } },
        { value: 'Preis€.pdf', offset: 5, fix: 'Preis%80.pdf', options: { charset: 'windows-1252' } },
        { value: 'Łódź.pdf', offset: 0, fix: null, options: { charset: 'iso-8859-1' } },
        { value: 'é.pdf', offset: 0, fix: null, options: { charset: 'us-ascii' } },
      ],
      [{ value: 'file:///c:/M%C3%BCller/a.pdf' }, { value: 'r%E9sum%E9.pdf', options: { charset: 'iso-8859-1' } }],
    ),
  },
  message: (a) => (a.unheld
    ? `The URL holds the non-ASCII character ${a.char} raw${a.iri ? ' (JDF 1.3 and later accept this IRI form)' : `, which ${forbids(a.version)}`}; it cannot be escaped: escapes are read in the ticket's encoding, ${a.charset}, which has no octet for ${a.unheld} (appendix section 3). Save the ticket as UTF-8, or rename the file, to escape it.`
    : `The URL holds the non-ASCII character ${a.char} raw${a.iri ? `; JDF 1.3 and later accept this IRI form, but escaping it as ${a.charset} octets is safest` : `, which ${forbids(a.version)}; escape it as ${a.charset} octets`} (for example ${a.escaped}).`),
  cleanFix: true,
  when: SIGN.nonAscii,
  check(ctx, report) {
    if (!ctx.facts.has(KIND.nonAscii)) return;
    const core = ctx.core;
    const { text, end, report: found } = nonAsciiReport(core, ctx.facts.first(KIND.nonAscii), ctx.lead, ctx.options, ctx.profile);
    if (text !== undefined) found.fix = ctx.withCore(core.slice(0, found.offset! - ctx.lead) + text + core.slice(end));
    report(found);
  },
};

/**
 * What non-ascii reports on `core`, whose first character above 127 is at `first`: the report without its fix, and
 * the escapes (`text`, undefined where the ticket's encoding has no octet for a character) that replace
 * core[first, end) in it. checkUrl's Directory answer (src/check.ts) reads it too.
 */
export function nonAsciiReport(core: string, first: number, lead: number, options: CheckOptions, profile: Profile): { text: string | undefined; end: number; report: Report } {
  const ch = String.fromCodePoint(core.codePointAt(first)!);
  const iri = profile === 'jdf' && jdfAllowsIri(options.jdfVersion);
  // Escapes in the ticket's encoding (appendix section 3); a UTF-16 ticket's are read as UTF-8 (src/ticket/read.ts).
  const label = options.charset ?? 'utf-8';
  const charset = charsetName(charsetForLabel(label) ?? 'utf-8');
  const shown = showChar(ch);
  const version = options.jdfVersion?.trim() ?? '';
  // Each report's arguments written out whole, in this order (a spread copy cost a tenth of a check here).
  const withArg = (name: 'unheld' | 'escaped', value: string) =>
    name === 'unheld' ? { char: shown, iri: iri ? 1 : '', version, charset, unheld: value } : { char: shown, iri: iri ? 1 : '', version, charset, escaped: value };
  const severity = iri ? { severity: 'info' as const } : {};
  // Only the characters from the first non-ASCII one to the last change (escapeNonAsciiIn leaves ASCII as it is).
  let end = core.length;
  while (core.charCodeAt(end - 1) < 128) end--;
  const text = escapeNonAsciiIn(core.slice(first, end), label);
  if (text === undefined) return { text, end, report: { offset: lead + first, args: withArg('unheld', showChar(unheldChar(core.slice(first, end), label)!)), ...severity } };
  return { text, end, report: { offset: lead + first, args: withArg('escaped', escapeCharIn(ch, label)!), edit: { start: lead + first, end: lead + end, text }, ...severity } };
}

/** Who forbids a raw non-ASCII character: the declared JDF version, or 1.2 assumed where none (or none readable) is declared. */
function forbids(version: string | number | undefined): string {
  if (typeof version === 'string' && /^\d+\.\d+/.test(version)) return `JDF ${version} forbids`;
  return `JDF 1.2 forbids (${version ? `the declared JDF version '${version}' cannot be read` : 'no JDF version is declared'}, so 1.2 is assumed)`;
}

/** JDF 1.3 and later accept raw non-ASCII (IRI); 1.2 and earlier, or an unknown version, follow the appendix. */
export function jdfAllowsIri(version: string | undefined): boolean {
  if (!version) return false;
  const m = /^(\d+)\.(\d+)/.exec(version.trim());
  if (!m) return false;
  const major = Number(m[1]);
  const minor = Number(m[2]);
  return major > 1 || (major === 1 && minor >= 3);
}

export const percentNul: Rule = {
  meta: {
    code: 'percent-encoded-nul',
    title: 'Escaped NUL (%00)',
    description: '%00 is not a legal character in any file name (appendix Table 6): no file can be meant, and some systems cut the path there.',
    spec: 'JDF appendix 4.5, Table 6',
    severity: sev('error', 'error', 'error'),
    fixable: false,
    examples: examples([{ value: 'File:///fo%00/bar', offset: 10 }], [{ value: 'File:///fo%20/bar' }, { value: 'a%2000.pdf' }]),
  },
  message: () => '%00 (NUL) cannot be part of a file name; remove it.',
  when: SIGN.escapedNul,
  check(ctx, report) {
    if (ctx.facts.has(KIND.escapedNul)) report({ offset: ctx.lead + ctx.facts.first(KIND.escapedNul) });
  },
};

export const invalidEscapedOctets: Rule = {
  meta: {
    code: 'invalid-escaped-octets',
    title: 'Escaped octets not in the ticket encoding',
    description: 'Escaped octets must use the encoding of the XML declaration (appendix section 3): in a UTF-8 ticket, %E9 alone is not a character. Re-escape the name from its characters. That requirement is about file URLs: in an http, ftp or other URL the server decides how it reads escapes, so there it is at most a warning (a consumer that reads escapes as UTF-8, RFC 3987 3.2, shows another name).',
    spec: 'JDF appendix 3; RFC 8089 4',
    severity: sev('error', 'warning', 'warning'),
    fixable: false,
    examples: examples([{ value: 'caf%E9.pdf', offset: 0 }], [{ value: 'caf%C3%A9.pdf' }]),
  },
  message: (a) => (a.scheme
    ? `The escaped octets in '${a.segment}' are not valid ${a.charset}; the ${a.scheme} server decides how it reads them (the appendix's rule is for file URLs), but a consumer that reads escapes as UTF-8 shows another name.`
    : `The escaped octets in '${a.segment}' are not valid ${a.charset}; escape the name's characters as ${a.charset} octets.`),
  when: SIGN.badUtf8,
  check(ctx, report) {
    const charset = (ctx.options.charset ?? 'utf-8').toLowerCase();
    if (charset !== 'utf-8' && charset !== 'utf8') return;
    if (!ctx.facts.has(KIND.badUtf8)) return;
    const path = ctx.ref.path;
    if (path.indexOf('%') === -1) return;
    let offset = ctx.pathStart;
    for (const segment of path.split('/')) {
      if (segment.indexOf('%') !== -1 && !decodeSegment(segment, 'utf-8').valid) {
        // The appendix's encoding rule is about file URLs; elsewhere the server decides: at most a warning.
        if (ctx.isFileLike) report({ offset, args: { segment, charset: 'UTF-8' } });
        else report({ offset, args: { segment, charset: 'UTF-8', scheme: ctx.scheme! }, severity: 'warning' });
        return;
      }
      offset += segment.length + 1;
    }
  },
};

/** A raw delimiter that ends the path of a file URL: "?" (a query) or "#" (a fragment). */
function delimiterRule(meta: Omit<RuleMeta, 'severity' | 'fixable'>, delimiter: '?' | '#', component: 'query' | 'fragment', escaped: string): Rule {
  return {
    meta: { ...meta, severity: sev('error', 'warning', 'warning'), fixable: true },
    message: () => `A raw '${delimiter}' makes the rest of the URL a ${component}, not part of the file name; escape it as ${escaped}.`,
    when: component === 'query' ? SIGN.query : SIGN.fragment,
    check(ctx, report) {
      if (!ctx.isFileLike || ctx.ref[component] === undefined) return;
      report({ offset: ctx.lead + ctx.core.indexOf(delimiter), fix: ctx.withCore(ctx.core.split(delimiter).join(escaped)) });
    },
  };
}

export const queryInUrl = delimiterRule({
  code: 'query-in-file-url',
  title: "'?' starts a query",
  description: "A raw '?' ends the path: what follows is a query, not part of the file name, and file URLs have no queries. If the name holds '?', escape it as %3F (Table 1).",
  spec: 'JDF appendix 3, Table 1; RFC 3986 3.4',
  examples: examples([{ value: 'file:///c:/what?.pdf', offset: 15, fix: 'file:///c:/what%3F.pdf' }, { value: 'a?b.pdf', offset: 1, fix: 'a%3Fb.pdf' }], [{ value: 'file:///c:/what%3F.pdf' }, { value: 'http://a/b?q=1' }]),
}, '?', 'query', '%3F');

export const fragmentInUrl = delimiterRule({
  code: 'fragment-in-file-url',
  title: "'#' starts a fragment",
  description: "A raw '#' ends the path: what follows is a fragment that no consumer sends to the file system. If the name holds '#', escape it as %23 (Table 1).",
  spec: 'JDF appendix 3, Table 1; RFC 3986 3.5',
  examples: examples([{ value: 'file:///c:/job#1.pdf', offset: 14, fix: 'file:///c:/job%231.pdf' }, { value: 'job#1.pdf', offset: 3, fix: 'job%231.pdf' }], [{ value: 'job%231.pdf' }, { value: 'http://a/b#top' }]),
}, '#', 'fragment', '%23');

export const characterRules: Rule[] = [
  surroundingWhitespace,
  controlCharacter,
  unescapedSpace,
  backslash,
  unsafeCharacter,
  semicolon,
  invalidPercent,
  percentNul,
  nonAscii,
  invalidEscapedOctets,
  queryInUrl,
  fragmentInUrl,
];
