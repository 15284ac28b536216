// file://\\server\share\a.pdf, a UNC path pasted after "file://" with backslashes alone (a third of the real values
// with findings): its whole answer known from the value its fix makes, when no rule can report on that one.
import { localityOfParts } from '../fileurl/locality.js';
import { redactPassword, stripPassword } from '../fileurl/redact.js';
import { unescapedSpace } from '../rules/characters.js';
import { uncInAuthority } from '../rules/drive.js';
import { findingOf, severityUnder } from '../rules/finding.js';
import { isEscapedUncAuthority, showChar } from '../rules/helpers.js';
import { placeholderIn } from '../rules/template.js';
import type { CheckOptions, Finding, Profile } from '../rules/types.js';
import { MAX_URL_LENGTH } from '../rules/url-length.js';
import { occurrences } from '../util/occurrences.js';
import { sortFew } from '../util/sort-few.js';
import type { CheckResult } from '../check.js';
import { bySeverityThenOffset } from './order.js';
import { isFileSchemeSlashes, quietFileUrlHost } from './plain.js';

/**
 * The answer for file:// followed by "\" (or %5C%5C) and no "/" (RFC 8089 E.3.1, E.4), when the value the UNC fix makes
 * (file://server/share/a.pdf: every "\" written "/", those before the server dropped) is quiet (plain.ts), or quiet
 * once its spaces are %20. Undefined for any other value.
 *
 * With no "/" after "file://", RFC 3986 3.2 reads the whole rest as the authority and the path as empty, so no rule
 * that reads the path can report, and the host rules leave a UNC authority to unc-in-authority (authority.ts). The
 * fixed value being quiet leaves no character for a character rule but its "\" (an effect of the UNC finding,
 * causes.ts) and its spaces (unescaped-space, whose fix is clean), and no "?" or "#". So the findings are
 * unc-in-authority and, with spaces, unescaped-space; the fixed value is the UNC fix with its spaces escaped (for a
 * Directory, a "/" after it: the UNC fix of one leaves directory-without-trailing-slash, a warning, which the fixes
 * applied one by one then take: src/checker/fixes.ts).
 */
export function checkUncAuthority(value: string, options: CheckOptions): CheckResult | undefined {
  const first = value.charCodeAt(7);
  if ((first !== 0x5c && first !== 0x25) || !isFileSchemeSlashes(value) || value.indexOf('/', 7) !== -1) return undefined;
  const rest = uncRest(value);
  if (rest === undefined) return undefined;
  const fix = value.slice(0, 7) + rest;
  const spaces = occurrences(value, ' ');
  let fixed = spaces === 0 ? fix : fix.replaceAll(' ', '%20');
  // A Directory's fix is the one value its findings' fixes lead to, "/" added last (directory-without-trailing-slash).
  if (options.role === 'directory' && !fixed.endsWith('/')) fixed += '/';
  // url-too-long reads the value, and a clean fix longer than the schemas allow is checked again (session.ts).
  if (value.length + 2 * spaces > MAX_URL_LENGTH || quietFileUrlHost(fixed, options) === -1) return undefined;
  if (spaces > 0 && (value.charCodeAt(value.length - 1) === 0x20 || placeholderIn(value) !== undefined)) return undefined;
  const profile = options.profile ?? 'jdf';
  const slash = fix.indexOf('/', 7);
  const findings: Finding[] = [findingOf(uncInAuthority, { host: fix.slice(7, slash === -1 ? fix.length : slash) }, severityUnder(uncInAuthority.meta, profile)!, 7, fix)];
  if (spaces > 0) findings.push(spaceFinding(value, spaces, profile));
  const authority = value.slice(7);
  return {
    value: redactPassword(value),
    kind: 'absolute',
    local: localityOfParts({ scheme: value.slice(0, 4), authority, path: '' }, options.localHosts),
    resolved: redactPassword(value),
    findings: sortFew(findings, bySeverityThenOffset),
    scheme: 'file',
    host: authority, // RFC 3986 3.2: with no "@" nor ":" (none in a quiet value), the authority is the host
    fixed: stripPassword(fixed),
  };
}

/**
 * What the UNC fix writes after "file://" (unc-in-authority): every "\\" as "/" (and, in file://%5C%5Cserver%5C..., every
 * %5C too), those before the server dropped; undefined unless the value is a UNC path after "file://".
 */
function uncRest(value: string): string | undefined {
  if (value.charCodeAt(7) === 0x5c) {
    let from = 8;
    while (value.charCodeAt(from) === 0x5c) from++;
    return value.slice(from).replaceAll('\\', '/');
  }
  return isEscapedUncAuthority(value.slice(7, 13)) ? value.slice(7).replace(ESCAPED_SEPARATORS, '/').replace(/^\/+/, '') : undefined;
}

const ESCAPED_SEPARATORS = /\\|%5c/gi;

/** unescaped-space as its rule reports it (characters.ts): at the first space, each space %20 in its fix. */
export function spaceFinding(value: string, count: number, profile: Profile): Finding {
  const first = value.indexOf(' ');
  const last = value.lastIndexOf(' ');
  const fix = value.slice(0, first) + value.slice(first, last + 1).replaceAll(' ', '%20') + value.slice(last + 1);
  return findingOf(unescapedSpace, { count, char: showChar(' ') }, severityUnder(unescapedSpace.meta, profile)!, first, fix);
}
