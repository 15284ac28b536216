import { localityOf, type Locality } from './fileurl/locality.js';
import { redactPassword, stripPassword } from './fileurl/redact.js';
import { rules } from './rules/catalog.js';
import { createFinding, severityUnder, type FindingOptions } from './rules/finding.js';
import { isDriveScheme } from './rules/drive-letter.js';
import { isWindowsReservedName } from './rules/segments.js';
import type { CheckContext, CheckOptions, Finding, ReferenceKind, Severity } from './rules/types.js';
import { parseAuthority, parseReference } from './uri/parse.js';
import { mergePrefixOf, resolveReference, resolveWithTrace } from './uri/resolve.js';

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

const SEVERITY_ORDER: Record<Severity, number> = { error: 0, warning: 1, info: 2 };
const isSpace = (c: number): boolean => c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d || c === 0x0c;

function kindOf(scheme: string | undefined, authority: string | undefined, path: string): ReferenceKind {
  if (scheme !== undefined) return 'absolute';
  if (authority !== undefined) return 'network-path';
  return path.startsWith('/') ? 'absolute-path' : 'relative-path';
}

function buildContext(value: string, options: CheckOptions): CheckContext {
  let start = 0;
  let end = value.length;
  while (start < end && isSpace(value.charCodeAt(start))) start++;
  while (end > start && isSpace(value.charCodeAt(end - 1))) end--;
  const core = value.slice(start, end);
  const ref = parseReference(core);
  const scheme = ref.scheme?.toLowerCase();
  const authorityStart = start + (ref.scheme !== undefined ? ref.scheme.length + 1 : 0) + 2;
  const pathStart = start + (ref.scheme !== undefined ? ref.scheme.length + 1 : 0) + (ref.authority !== undefined ? ref.authority.length + 2 : 0);
  const kind = kindOf(scheme, ref.authority, ref.path);
  const ctx: CheckContext = {
    value,
    core,
    lead: start,
    ref,
    scheme,
    kind,
    isFileLike: scheme === undefined || scheme === 'file' || isDriveScheme(scheme),
    authority: ref.authority !== undefined ? parseAuthority(ref.authority) : undefined,
    pathStart,
    authorityStart,
    profile: options.profile ?? 'jdf',
    platform: options.platform ?? 'any',
    role: options.role ?? 'url',
    options,
    withCore: (c) => value.slice(0, start) + c + value.slice(end),
  };
  // RFC 3986 5.2.2: an empty reference resolves too (to the base without its fragment).
  if (options.base !== undefined && scheme === undefined) {
    const strict = resolveWithTrace(core, options.base, { drivePreserving: options.drivePreserving === true });
    const preserving = options.drivePreserving ? strict.href : resolveReference(core, options.base, { drivePreserving: true });
    ctx.resolution = { href: strict.href, trace: strict.trace, drivePreservingHref: preserving };
  }
  return ctx;
}

function runRules(value: string, options: CheckOptions, converge = true): { ctx: CheckContext; findings: Finding[] } {
  const ctx = buildContext(value, options);
  const findings: Finding[] = [];
  for (const rule of rules) {
    rule.check(ctx, (report) => {
      const severity = severityUnder(rule.meta, ctx.profile, report.severity);
      if (severity === null) return;
      const how: FindingOptions = { profile: ctx.profile, severity };
      if (report.offset !== undefined) how.offset = report.offset;
      if (report.fix !== undefined && report.fix !== value) how.fix = report.fix;
      findings.push(createFinding(rule.meta.code, report.args, how));
    });
  }
  if (converge) convergeFixes(value, options, findings);
  return { ctx, findings };
}

/**
 * A single finding's fix is applied alone (a code-scanning user takes one at a time), so it must be no worse than
 * the value: where it would bring an error the value did not have (the backslash fix alone turns
 * file://\\HOST\share into file:////HOST/share, a UNC string in the path), the fixes of those new errors are
 * applied to it too; where that does not settle, the finding offers no fix.
 */
function convergeFixes(value: string, options: CheckOptions, findings: Finding[]): void {
  if (!findings.some((f) => f.fix !== undefined)) return;
  const errorsBefore = new Set(findings.filter((f) => f.severity === 'error').map((f) => f.code));
  for (const finding of findings) {
    if (finding.fix === undefined) continue;
    let current = finding.fix;
    let settled = false;
    for (let round = 0; round < MAX_FIX_ROUNDS; round++) {
      const added = runRules(current, options, false).findings.filter((f) => f.severity === 'error' && !errorsBefore.has(f.code));
      if (added.length === 0) { settled = true; break; }
      const next = added.find((f) => f.fix !== undefined);
      if (next === undefined) break;
      current = next.fix!;
    }
    if (!settled) delete finding.fix;
    else if (current !== finding.fix) finding.fix = stripPassword(current);
  }
}

const MAX_FIX_ROUNDS = 12;

/** Applies the first fix of an error or warning until none is left: what a fixing tool writes. */
function applyAllFixes(value: string, options: CheckOptions, findings: Finding[]): string | undefined {
  let current = value;
  let pending = findings;
  for (let round = 0; round < MAX_FIX_ROUNDS; round++) {
    const next = pending.find((f) => f.fix !== undefined && f.severity !== 'info');
    if (!next) break;
    current = next.fix!;
    pending = runRules(current, options, false).findings;
  }
  return current === value ? undefined : current;
}

// Characters after which no rule can fire in a relative path: the appendix's fsegment characters and "/",
// without ":" (scheme, Table 6) and "%" (escapes). Most references of a real ticket are made of these only.
const PLAIN = new Uint8Array(128);
for (const ch of "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.!*'()~+,$@&=/") PLAIN[ch.charCodeAt(0)] = 1;

const prefixFacts = new Map<string, { local: Locality; host: string | undefined }>();

/**
 * The answer for a plain relative path ("pages/p1.pdf") against a base ending in "/": no rule can fire, and the
 * target is the base followed by the reference. Undefined whenever any rule might have something to say.
 */
function checkPlainRelative(value: string, options: CheckOptions): CheckResult | undefined {
  if (options.base === undefined || (options.role ?? 'url') !== 'url' || value.length === 0 || options.localHosts) return undefined;
  const first = value.charCodeAt(0);
  if (first === 0x2f || first === 0x2e) return undefined;
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if (c >= 128 || PLAIN[c] === 0) return undefined;
    if (c === 0x2e && value.charCodeAt(i - 1) === 0x2f) return undefined; // a segment starting with "."
  }
  if (options.platform === 'windows' && value.split('/').some(isWindowsReservedName)) return undefined;
  const prefix = mergePrefixOf(options.base);
  // Only a base that is its own merge prefix (ends in "/", no query or fragment) drops nothing on resolution.
  if (prefix === undefined || prefix !== options.base || prefix.indexOf('@') !== -1) return undefined;
  let facts = prefixFacts.get(prefix);
  if (facts === undefined) {
    const authority = parseReference(prefix).authority;
    facts = { local: localityOf(prefix), host: authority !== undefined ? parseAuthority(authority).host : undefined };
    if (prefixFacts.size > 256) prefixFacts.clear();
    prefixFacts.set(prefix, facts);
  }
  const result: CheckResult = { value, kind: 'relative-path', local: facts.local, resolved: prefix + value, findings: [] };
  if (facts.host !== undefined) result.host = facts.host;
  return result;
}

/**
 * Checks one FileSpec/@URL (or, with role 'directory', a RunList/@Directory) against the JDF file-URL
 * appendix or RFC 8089, classifies it and resolves it against `base`. Never throws.
 */
export function checkUrl(value: string, options: CheckOptions = {}): CheckResult {
  return checkPlainRelative(value, options) ?? checkByRules(value, options);
}

/** checkUrl without the plain-relative shortcut: every rule runs. The tests hold the two equal. */
export function checkByRules(value: string, options: CheckOptions = {}): CheckResult {
  const { ctx, findings } = runRules(value, options);
  let resolved: string | null = null;
  if (ctx.scheme !== undefined) resolved = resolveReference(ctx.core, '');
  else if (ctx.resolution) resolved = ctx.resolution.href;
  const hostSource = ctx.authority ? ctx.ref : resolved !== null ? parseReference(resolved) : undefined;
  const result: CheckResult = {
    value: redactPassword(value),
    kind: ctx.kind,
    local: resolved !== null ? localityOf(resolved, options.localHosts) : 'unknown',
    resolved: resolved === null ? null : redactPassword(resolved),
    findings: findings.slice().sort((a, b) => SEVERITY_ORDER[a.severity] - SEVERITY_ORDER[b.severity] || (a.offset ?? 0) - (b.offset ?? 0)),
  };
  if (ctx.scheme !== undefined) result.scheme = ctx.scheme;
  if (hostSource?.authority !== undefined) result.host = parseAuthority(hostSource.authority).host;
  const fixed = applyAllFixes(value, options, findings);
  if (fixed !== undefined) result.fixed = stripPassword(fixed);
  return result;
}
