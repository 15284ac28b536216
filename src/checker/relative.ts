// Relative references a Windows user typed: names with raw spaces (p 1.pdf), "\" as the separator (pages\p 1.pdf),
// a bare UNC path (\\server\share\p 1.pdf). Their whole answer known from the value their fixes make, when no rule
// can report on that one and the value has no other character a rule reads.
import { localityOf, type Locality } from '../fileurl/locality.js';
import { backslash } from '../rules/characters.js';
import { uncPathAsUrl } from '../rules/drive.js';
import { showChar } from '../rules/helpers.js';
import { placeholderIn } from '../rules/template.js';
import type { CheckOptions, Finding } from '../rules/types.js';
import { MAX_URL_LENGTH } from '../rules/url-length.js';
import { parseAuthority, parseReference } from '../uri/parse.js';
import { mergePrefixOf } from '../uri/resolve.js';
import { boundedMemo } from '../util/bounded-memo.js';
import { occurrences } from '../util/occurrences.js';
import { slashedAndEscaped } from '../util/slashed.js';
import { sortFew } from '../util/sort-few.js';
import type { CheckResult } from '../check.js';
import { found } from './drive.js';
import { bySeverityThenOffset } from './order.js';
import { quietFileUrlHost } from './plain.js';
import { spaceFinding } from './unc.js';

/**
 * What a base says of every plain reference under it, once per base: whether it is its own merge prefix (ends in
 * "/", no query or fragment, RFC 3986 5.2.3) with no "@" (no password to mask), and, where it is, the target's
 * locality and host.
 */
export const prefixFacts = boundedMemo((prefix: string): { own: boolean; local: Locality; host: string | undefined } => {
  const authority = parseReference(prefix).authority;
  const own = mergePrefixOf(prefix) === prefix && prefix.indexOf('@') === -1;
  return { own, local: localityOf(prefix), host: authority !== undefined ? parseAuthority(authority).host : undefined };
});

// The characters of these values' names: those of a plain segment (plain.ts) and the space. No "%", so no escape a
// rule reads, no ":" (a scheme or a drive), no "?" or "#" (a query or a fragment), no "$" (a template's placeholder).
// A name starts with none of them but "." (a dot segment, or a name plain.ts does not take as plain).
const NAME = "[A-Za-z0-9\\-_!*'()~+,&= ][A-Za-z0-9\\-_!*'()~+,&=. ]*";
// Names separated by "\\", or by "/", none empty: one native scan each (a split and a test per name cost a quarter
// of this answer).
const BACKSLASHED = new RegExp(`^${NAME}(?:\\\\${NAME})*$`);
const SLASHED = new RegExp(`^${NAME}(?:/${NAME})*$`);

/**
 * The answer for a relative reference (a URL, not a Directory) of names of the plain characters and spaces,
 * separated by "\" or, in a value with no "\", by "/", or for \\server\share\... of such names and no "/": when the
 * value its fixes make (every "\" written "/", a UNC path as file://server/share/...; every space %20) is quiet
 * (plain.ts), no space is at either end (surrounding-whitespace) and the value is no template ('WILL BE SET BY X',
 * whose finding is then the only one: template.ts). Undefined for any other value, for a base that is not its own
 * merge prefix, and on Windows (where plain.ts takes no escape as plain).
 *
 * Why no other rule can report: the value's characters are the quiet value's but for its spaces and "\", which the
 * character rules leave to unescaped-space and backslash. It has no ":", so no scheme (drive-letter-as-scheme), and
 * does not start with "/", so no authority and no root; its RFC 3986 3.3 segments are the quiet value's names (no
 * "\") or, with a "\" and no "/", one segment: those names joined by "\", none empty (NAME), which no segment rule
 * reads but for its "\" and spaces. Its target is the base followed by it (5.2.3): no segment is "." or ".." (5.2.4),
 * as no name of the quiet value starts with ".". A bare UNC path is unc-path-as-url, whose fix writes no "\": it
 * accounts for the backslashes (causes.ts). The findings are those (unescaped-space and the other two are two causes,
 * causes.ts), each as its rule reports it, and their fixes applied one by one make the quiet value (fixes.ts).
 */
export function checkRelativeNames(value: string, options: CheckOptions): CheckResult | undefined {
  if (options.localHosts || options.base === undefined || (options.role ?? 'url') !== 'url' || options.platform === 'windows') return undefined;
  const unc = value.charCodeAt(0) === 0x5c && value.charCodeAt(1) === 0x5c;
  const names = unc ? value.slice(2) : value;
  const hasBackslash = names.indexOf('\\') !== -1;
  if (!unc && !hasBackslash && value.indexOf(' ') === -1) return undefined; // plain, or not these forms (checkPlainRelative)
  if (!(unc || hasBackslash ? BACKSLASHED : SLASHED).test(names)) return undefined;
  const spaces = occurrences(value, ' ');
  if (spaces > 0 && (value.charCodeAt(0) === 0x20 || value.charCodeAt(value.length - 1) === 0x20 || placeholderIn(value) !== undefined)) return undefined;
  const slashes = hasBackslash ? names.replaceAll('\\', '/') : names;
  const fixed = (unc ? 'file://' : '') + (spaces === 0 ? slashes : slashedAndEscaped(names));
  // Not unc, the fixed value is plain segments (plain.ts: names of the plain characters and %20, none starting with
  // "."), quiet where the base is its own merge prefix (isPlainRelative), as long as the schemas allow.
  if (value.length > MAX_URL_LENGTH || (unc ? quietFileUrlHost(fixed, options) === -1 : fixed.length > MAX_URL_LENGTH)) return undefined;
  const prefix = options.base;
  const facts = prefixFacts(prefix);
  if (!facts.own) return undefined;
  const profile = options.profile ?? 'jdf';
  const findings: Finding[] = [];
  if (unc) findings.push(found(uncPathAsUrl, { host: slashes.slice(0, slashes.indexOf('/')) }, profile, 0, 'file://' + slashes));
  else if (hasBackslash) findings.push(found(backslash, { count: occurrences(value, '\\'), char: showChar('\\') }, profile, value.indexOf('\\'), slashes));
  if (spaces > 0) findings.push(spaceFinding(value, spaces, profile));
  const result: CheckResult = { value, kind: 'relative-path', local: facts.local, resolved: prefix + value, findings: sortFew(findings, bySeverityThenOffset) };
  if (facts.host !== undefined) result.host = facts.host;
  result.fixed = fixed;
  return result;
}
