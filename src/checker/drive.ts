// Windows paths with a drive written where a URL's scheme or host is read and backslashes as separators
// (E:\Jobs\a.pdf, File://D:\Jobs\a.pdf: a third of the real backslash values that are not UNC paths): the whole
// answer known from the file URL their fixes make, when no rule can report on that one.
import { isWindowsDriveAt } from '../fileurl/drive.js';
import { localityOfParts } from '../fileurl/locality.js';
import { redactPassword, stripPassword } from '../fileurl/redact.js';
import { backslash } from '../rules/characters.js';
import { driveLetterAsHost, driveLetterAsScheme } from '../rules/drive.js';
import { findingOf, severityUnder } from '../rules/finding.js';
import { showChar } from '../rules/helpers.js';
import type { CatalogRule, CheckOptions, Finding, FindingArgs, Profile } from '../rules/types.js';
import { MAX_URL_LENGTH } from '../rules/url-length.js';
import { occurrences } from '../util/occurrences.js';
import { sortFew } from '../util/sort-few.js';
import type { CheckResult } from '../check.js';
import { bySeverityThenOffset } from './order.js';
import { isFileSchemeSlashes, quietFileUrlHost } from './plain.js';

/**
 * The answer for E:\x\a.pdf or E:/x/a.pdf (a URL, not a Directory) or file://D:\x\a.pdf (no "/"), with no space,
 * when the file URL that writes the drive into the path and every "\" as "/" (file:///E:/x/a.pdf) is quiet
 * (plain.ts). Undefined for any other value.
 *
 * E:\x\a.pdf parses with the scheme "E" and the path \x\a.pdf (appendix Table 3); file://D:\x\a.pdf with the
 * authority D:\x\a.pdf and an empty path (RFC 3986 3.2), which the host rules leave to drive-letter-as-host. The
 * quiet file URL leaves no character for a character rule but the "\", and no segment a path rule reads, so the
 * findings are the drive's (drive-letter-as-scheme or -as-host) and, where it has one, backslash: two causes (src/rules/causes.ts),
 * each fix leaving the other's finding; applied one by one they give that file URL (src/checker/fixes.ts).
 */
export function checkDrivePath(value: string, options: CheckOptions): CheckResult | undefined {
  if (value.length > MAX_URL_LENGTH || value.indexOf(' ') !== -1) return undefined;
  const asScheme = (value.charCodeAt(2) === 0x5c || value.charCodeAt(2) === 0x2f) && isWindowsDriveAt(value, 0);
  if (asScheme ? options.role === 'directory' : !isDriveHost(value)) return undefined;
  const slashes = value.replaceAll('\\', '/');
  const fixed = asScheme ? 'file:///' + slashes : slashes.slice(0, 7) + '/' + slashes.slice(7);
  if (quietFileUrlHost(fixed, options) === -1) return undefined;
  const profile = options.profile ?? 'jdf';
  const start = asScheme ? 0 : 7;
  const drive = found(asScheme ? driveLetterAsScheme : driveLetterAsHost, { drive: value.slice(start, start + 2) }, profile, start, asScheme ? 'file:///' + value : value.slice(0, 7) + '/' + value.slice(7));
  const first = value.indexOf('\\');
  const findings = first === -1 ? [drive] : sortFew([drive, found(backslash, { count: occurrences(value, '\\', first), char: showChar('\\') }, profile, first, slashes)], bySeverityThenOffset);
  const shown = redactPassword(value);
  const result: CheckResult = {
    value: shown,
    kind: 'absolute',
    local: localityOfParts(asScheme ? { scheme: value.slice(0, 1), path: value.slice(2) } : { scheme: value.slice(0, 4), authority: value.slice(7), path: '' }, options.localHosts),
    resolved: shown,
    findings,
    scheme: asScheme ? value.charAt(0).toLowerCase() : 'file',
  };
  if (!asScheme) result.host = value.charAt(7); // RFC 3986 3.2.3: the drive's ":" ends the host (no "@" in a quiet value)
  result.fixed = stripPassword(fixed);
  return result;
}

/** file://D:\... with no "/" after "file://": the drive taken as the host, the rest of the value its authority. */
const isDriveHost = (value: string): boolean =>
  value.charCodeAt(9) === 0x5c && isWindowsDriveAt(value, 7) && isFileSchemeSlashes(value) && value.indexOf('/', 7) === -1;

export const found = (rule: CatalogRule, args: FindingArgs, profile: Profile, offset: number, fix: string): Finding =>
  findingOf(rule, args, severityUnder(rule.meta, profile)!, offset, fix);
