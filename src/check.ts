import { localityOfParts, type Locality } from './fileurl/locality.js';
import { redactPassword, stripPassword } from './fileurl/redact.js';
import { authorityParts, BY_SPEC, FAST, type Mode } from './checker/context.js';
import { applyAllFixes, convergeFixes } from './checker/fixes.js';
import { isPlainRelative, quietFileUrlHost, quietWebUrlHost } from './checker/plain.js';
import { bySeverityThenOffset } from './checker/order.js';
import { checkDrivePath } from './checker/drive.js';
import { CheckSession } from './checker/session.js';
import { checkUncAuthority } from './checker/unc.js';
import { checkRelativeNames, prefixFacts } from './checker/relative.js';
import type { CheckContext, CheckOptions, Finding, ReferenceKind } from './rules/types.js';
import type { UriComponents } from './uri/components.js';
import { nonAscii, nonAsciiReport } from './rules/characters.js';
import { directoryWithoutTrailingSlash } from './rules/directory.js';
import { findingOf, severityUnder } from './rules/finding.js';
import { parseReference } from './uri/parse.js';
import { baseComponents, hasDotSegment, resolveReference } from './uri/resolve.js';
import { sortFew } from './util/sort-few.js';
export interface CheckResult {
  /** The value as given, with any password masked. */
  value: string;
  kind: ReferenceKind;
  scheme?: string;
  host?: string;
  /** RFC 8089 section 3; `unknown` for a relative reference without a base, or a scheme we cannot judge. */
  local: Locality;
  /** The target URI (RFC 3986 5.2), or null for a relative reference without a base. */
  resolved: string | null;
  findings: Finding[];
  /** The value with every safe fix applied; absent when nothing can be fixed safely. */
  fixed?: string;
}

/**
 * The answer for a plain relative path ("pages/p1.pdf") against a base ending in "/": no rule can fire, and the
 * target is the base followed by the reference. Undefined whenever any rule might have something to say.
 */
function checkPlainRelative(value: string, options: CheckOptions): CheckResult | undefined {
  if (options.localHosts || !isPlainRelative(value, options)) return undefined;
  const prefix = options.base!;
  const facts = prefixFacts(prefix);
  const result: CheckResult = { value, kind: 'relative-path', local: facts.local, resolved: prefix + value, findings: [] };
  if (facts.host !== undefined) result.host = facts.host;
  return result;
}

/**
 * The answer for file:///c:/path or file://host/path, or an http, https or ftp URL, with a plain host and plain
 * segments (plain.ts): no rule can fire, and the value is its own target (RFC 3986 5.2.2; no dot segments, 5.2.4).
 */
function checkQuietAbsolute(value: string, options: CheckOptions): CheckResult | undefined {
  const end = quietFileUrlHost(value, options);
  if (end !== -1) {
    const authority = value.slice(7, end);
    const local = localityOfParts({ scheme: 'file', authority, path: value.slice(end) }, options.localHosts);
    return { value, kind: 'absolute', local, resolved: value, findings: [], scheme: 'file', host: authority };
  }
  const webEnd = quietWebUrlHost(value, options);
  if (webEnd === -1) return undefined;
  const colon = value.indexOf(':');
  const port = value.indexOf(':', colon + 3);
  const host = value.slice(colon + 3, port !== -1 && port < webEnd ? port : webEnd);
  // RFC 8089 section 3: http, https and ftp name no local file.
  return { value, kind: 'absolute', local: false, resolved: value, findings: [], scheme: value.slice(0, colon), host };
}

const NON_ASCII = /[^\0-\x7f]/;

/**
 * The answer for a Directory (appendix 2.2) that lacks only its trailing "/", and perhaps has raw non-ASCII characters:
 * one whose value with those escaped (non-ascii's fix) and "/" added is a quiet absolute URL (checkQuietAbsolute),
 * and whose path is not empty. Its segments are that value's, so no rule that reads them can report but
 * directory-without-trailing-slash, and non-ascii for the characters (TWO_CAUSES, src/rules/causes.ts). The fixed
 * value is both fixes applied, or "/" added alone where the profile and JDF version make non-ascii info (a fixing
 * tool leaves info alone: src/checker/fixes.ts).
 */
function checkDirectorySlash(value: string, options: CheckOptions): CheckResult | undefined {
  if (options.role !== 'directory' || value.endsWith('/')) return undefined;
  const first = value.search(NON_ASCII);
  const profile = options.profile ?? 'jdf';
  const raw = first !== -1 ? nonAsciiReport(value, first, 0, options, profile) : undefined;
  if (raw !== undefined && raw.text === undefined) return undefined;
  const escaped = raw === undefined ? value : value.slice(0, first) + raw.text + value.slice(raw.end);
  const quiet = checkQuietAbsolute(escaped + '/', options);
  if (quiet === undefined || value.indexOf('/', value.indexOf(':') + 3) === -1) return undefined; // "http://host": no path
  const slash = value.lastIndexOf('/');
  const rule = directoryWithoutTrailingSlash;
  const findings = [findingOf(rule, { segment: value.slice(slash + 1) }, severityUnder(rule.meta, profile)!, slash + 1, value + '/')];
  let fixed = value + '/';
  if (raw !== undefined) {
    const r = raw.report;
    const severity = severityUnder(nonAscii.meta, profile, r.severity)!;
    findings.unshift(findingOf(nonAscii, r.args!, severity, r.offset, escaped));
    if (severity !== 'info') fixed = escaped + '/';
  }
  const shown = redactPassword(value);
  // Written out in checkWith's order (a spread copy of the quiet answer cost a third of this answer).
  return { value: shown, kind: quiet.kind, local: quiet.local, resolved: shown, findings: sortFew(findings, bySeverityThenOffset), scheme: quiet.scheme!, host: quiet.host!, fixed: stripPassword(fixed) };
}

/**
 * Checks one FileSpec/@URL (or, with role 'directory', a RunList/@Directory) against the JDF file-URL
 * appendix or RFC 8089, classifies it and resolves it against `base`. Never throws.
 */
export function checkUrl(value: string, options: CheckOptions = {}): CheckResult {
  return checkPlainRelative(value, options) ?? checkQuietAbsolute(value, options)
    ?? checkUncAuthority(value, options) ?? checkDirectorySlash(value, options) ?? checkDrivePath(value, options)
    ?? checkRelativeNames(value, options) ?? checkWith(value, options, FAST);
}

/**
 * checkUrl the reference way: no shortcut, each rule asks its own questions of the value, every fix is checked
 * again and fixes are applied one at a time. The tests hold checkUrl equal to it.
 */
export function checkUrlBySpec(value: string, options: CheckOptions = {}): CheckResult {
  return checkWith(value, options, BY_SPEC);
}

/**
 * The target's scheme and authority, and its path with what follows it: all that its locality and host depend on.
 * A reference with neither scheme nor authority takes the base's (RFC 3986 5.2.2), so the target is not parsed again.
 */
function targetOf(ctx: CheckContext, resolved: string, base: string | undefined): UriComponents {
  if (resolved === ctx.core) return ctx.ref;
  if (ctx.scheme !== undefined || ctx.ref.authority !== undefined || base === undefined) return parseReference(resolved);
  const { scheme, authority } = baseComponents(base);
  if (scheme === undefined) return parseReference(resolved);
  const pathStart = scheme.length + 1 + (authority !== undefined ? authority.length + 2 : 0);
  return authority === undefined ? { scheme, path: resolved.slice(pathStart) } : { scheme, authority, path: resolved.slice(pathStart) };
}

function checkWith(value: string, options: CheckOptions, mode: Mode): CheckResult {
  const session = new CheckSession(options, mode);
  const run = session.first(value);
  convergeFixes(session, run);
  const { ctx, findings } = run;
  let resolved: string | null = null;
  // RFC 3986 5.2.2: an absolute reference is its own target, its path without dot segments (none: itself, 5.3).
  if (ctx.scheme !== undefined) resolved = mode.fast && !hasDotSegment(ctx.ref.path) ? ctx.core : resolveReference(ctx.core, '');
  else if (ctx.resolution) resolved = ctx.resolution.href;
  const target = resolved === null ? undefined : mode.fast ? targetOf(ctx, resolved, options.base) : parseReference(resolved);
  const hostSource = ctx.authority ? ctx.ref : target;
  const shown = redactPassword(value);
  // Fixes are applied in the catalog's order, before the findings are sorted for the reader.
  const fixed = findings.length === 0 ? undefined : applyAllFixes(session, value, run);
  const result: CheckResult = {
    value: shown,
    kind: ctx.kind,
    local: target !== undefined ? localityOfParts(target, options.localHosts) : 'unknown',
    resolved: resolved === null ? null : resolved === value ? shown : redactPassword(resolved),
    findings: findings.length < 2 ? findings : sortFew(findings, bySeverityThenOffset),
  };
  if (ctx.scheme !== undefined) result.scheme = ctx.scheme;
  if (hostSource?.authority !== undefined) result.host = authorityParts(hostSource.authority).host;
  if (fixed !== undefined) result.fixed = stripPassword(fixed);
  return result;
}
