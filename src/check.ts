import { localityOf, localityOfParts, type Locality } from './fileurl/locality.js';
import { redactPassword, stripPassword } from './fileurl/redact.js';
import { rules } from './rules/catalog.js';
import { createFinding, severityUnder, type FindingOptions } from './rules/finding.js';
import { isDriveScheme } from './rules/drive-letter.js';
import { factsBySpec, scanFacts, type UrlFacts } from './rules/facts.js';
import { MAX_URL_LENGTH } from './rules/scheme.js';
import { isWindowsReservedName } from './rules/segments.js';
import type { CheckContext, CheckOptions, Finding, ReferenceKind, Severity } from './rules/types.js';
import { parseAuthority, parseReference } from './uri/parse.js';
import { baseComponents, mergePrefixOf, resolveReference, resolveWithTrace } from './uri/resolve.js';
import type { AuthorityParts, UriComponents } from './uri/components.js';
import type { Report, Rule } from './rules/types.js';

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

/**
 * How a check is made. `fast`: the facts of one scan, a clean fix taken as it is, all fixes composed in one pass.
 * `bySpec`: every question asked of the value on its own, every fix checked again, fixes applied one at a time:
 * the reference the tests hold the fast way equal to.
 */
interface Mode {
  facts: (core: string) => UrlFacts;
  fast: boolean;
}
const FAST: Mode = { facts: scanFacts, fast: true };
const BY_SPEC: Mode = { facts: factsBySpec, fast: false };

function buildContext(value: string, options: CheckOptions, mode: Mode, resolve: boolean): CheckContext {
  let start = 0;
  let end = value.length;
  while (start < end && isSpace(value.charCodeAt(start))) start++;
  while (end > start && isSpace(value.charCodeAt(end - 1))) end--;
  const core = start === 0 && end === value.length ? value : value.slice(start, end);
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
    facts: mode.facts(core),
    scheme,
    kind,
    isFileLike: scheme === undefined || scheme === 'file' || isDriveScheme(scheme),
    authority: ref.authority !== undefined ? authorityParts(ref.authority) : undefined,
    pathStart,
    authorityStart,
    profile: options.profile ?? 'jdf',
    platform: options.platform ?? 'any',
    role: options.role ?? 'url',
    options,
    withCore: (c) => value.slice(0, start) + c + value.slice(end),
  };
  // RFC 3986 5.2.2: an empty reference resolves too (to the base without its fragment).
  if (resolve && options.base !== undefined && scheme === undefined) {
    ctx.resolution = resolveWithTrace(core, options.base, { drivePreserving: options.drivePreserving === true });
  }
  return ctx;
}

interface RuleRun {
  ctx: CheckContext;
  findings: Finding[];
  /** The findings whose fix must be checked again (its rule's fix is not clean). */
  recheck: Set<Finding>;
}

/** The rules that can offer a fix: all that the rounds of applyAllFixes look for. None of them reads the resolution. */
const fixableRules = rules.filter((r) => r.meta.fixable);

function runRules(value: string, options: CheckOptions, mode: Mode, converge = true, only: readonly Rule[] = rules): RuleRun {
  const ctx = buildContext(value, options, mode, only === rules);
  const findings: Finding[] = [];
  const recheck = new Set<Finding>();
  let rule: Rule = rules[0]!;
  const report = (r: Report): void => {
    const severity = severityUnder(rule.meta, ctx.profile, r.severity);
    if (severity === null) return;
    const how: FindingOptions = { profile: ctx.profile, severity };
    if (r.offset !== undefined) how.offset = r.offset;
    if (r.fix !== undefined && r.fix !== value) how.fix = r.fix;
    const finding = createFinding(rule.meta.code, r.args, how);
    findings.push(finding);
    if (finding.fix !== undefined && !takesFixAsItIs(rule, finding.fix, how.fix, mode)) recheck.add(finding);
  };
  for (rule of only) rule.check(ctx, report);
  if (converge) convergeFixes(value, options, findings, recheck, mode);
  return { ctx, findings, recheck };
}

/**
 * A clean rule's fix brings no new error, unless it makes the value longer than the schemas allow, or a password
 * had to be dropped from it (createFinding), which is more than an escape.
 */
const takesFixAsItIs = (rule: Rule, fix: string, reported: string | undefined, mode: Mode): boolean =>
  mode.fast && rule.cleanFix === true && fix === reported && fix.length <= MAX_URL_LENGTH;

/**
 * A single finding's fix is applied alone (a code-scanning user takes one at a time), so it must be no worse than
 * the value: where it would bring an error the value did not have (the backslash fix alone turns
 * file://\\HOST\share into file:////HOST/share, a UNC string in the path), the fixes of those new errors are
 * applied to it too; where that does not settle, the finding offers no fix.
 */
function convergeFixes(value: string, options: CheckOptions, findings: Finding[], recheck: Set<Finding>, mode: Mode): void {
  if (recheck.size === 0) return;
  const errorsBefore = new Set(findings.filter((f) => f.severity === 'error').map((f) => f.code));
  for (const finding of recheck) {
    let current = finding.fix!;
    let settled = false;
    for (let round = 0; round < MAX_FIX_ROUNDS; round++) {
      const added = runRules(current, options, mode, false).findings.filter((f) => f.severity === 'error' && !errorsBefore.has(f.code));
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

/**
 * Applies the first fix of an error or warning until none is left: what a fixing tool writes. The fast way first
 * applies every such fix at once, where they change separate parts of the value, and goes on from there.
 */
function applyAllFixes(value: string, options: CheckOptions, run: RuleRun, mode: Mode): string | undefined {
  let current = value;
  let pending = run.findings;
  let round = 0;
  if (mode.fast) {
    const composed = composeFixes(value, run);
    if (composed !== undefined) {
      current = stripPassword(composed); // as every fix is (createFinding)
      pending = runRules(current, options, mode, false, fixableRules).findings;
      round = 1;
    }
  }
  for (; round < MAX_FIX_ROUNDS; round++) {
    const next = pending.find((f) => f.fix !== undefined && f.severity !== 'info');
    if (!next) break;
    current = next.fix!;
    pending = runRules(current, options, mode, false, mode.fast ? fixableRules : rules).findings;
  }
  return current === value ? undefined : current;
}

/**
 * Every error and warning fix applied in one pass, each taken as the one edit that turns the value into it (what
 * lies between their common start and end). Only clean fixes (escapes, which change no other rule's reading of
 * the value) compose: undefined unless there are two or more, all clean, and no two touch.
 */
function composeFixes(value: string, run: RuleRun): string | undefined {
  const edits: Array<{ start: number; end: number; text: string }> = [];
  for (const f of run.findings) {
    if (f.fix === undefined || f.severity === 'info') continue;
    if (run.recheck.has(f)) return undefined;
    edits.push(editOf(value, f.fix));
  }
  if (edits.length < 2) return undefined;
  edits.sort((a, b) => a.start - b.start);
  let out = '';
  let copied = 0;
  let previousEnd = -1;
  for (const edit of edits) {
    if (edit.start <= previousEnd) return undefined;
    out += value.slice(copied, edit.start) + edit.text;
    copied = previousEnd = edit.end;
  }
  return out + value.slice(copied);
}

function editOf(value: string, fixed: string): { start: number; end: number; text: string } {
  const limit = Math.min(value.length, fixed.length);
  let start = 0;
  while (start < limit && value.charCodeAt(start) === fixed.charCodeAt(start)) start++;
  let tail = 0;
  while (tail < limit - start && value.charCodeAt(value.length - 1 - tail) === fixed.charCodeAt(fixed.length - 1 - tail)) tail++;
  return { start, end: value.length - tail, text: fixed.slice(start, fixed.length - tail) };
}

// Characters after which no rule can fire in a relative path: the appendix's fsegment characters and "/",
// without ":" (scheme, Table 6), "%" (escapes) and "@" (which a masked password needs). Most references of a real ticket are made of these only.
const PLAIN = new Uint8Array(128);
for (const ch of "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.!*'()~+,$&=/") PLAIN[ch.charCodeAt(0)] = 1;

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
  return checkPlainRelative(value, options) ?? checkWith(value, options, FAST);
}

/**
 * checkUrl the reference way: no shortcut, each rule asks its own questions of the value, every fix is checked
 * again and fixes are applied one at a time. The tests hold checkUrl equal to it.
 */
export function checkUrlBySpec(value: string, options: CheckOptions = {}): CheckResult {
  return checkWith(value, options, BY_SPEC);
}

// A ticket names a handful of authorities thousands of times: each is taken apart once (the parts are not changed).
const authorities = new Map<string, AuthorityParts>();
function authorityParts(authority: string): AuthorityParts {
  let parts = authorities.get(authority);
  if (parts === undefined) {
    parts = parseAuthority(authority);
    if (authorities.size >= 256) authorities.clear();
    authorities.set(authority, parts);
  }
  return parts;
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
  const run = runRules(value, options, mode);
  const { ctx, findings } = run;
  let resolved: string | null = null;
  if (ctx.scheme !== undefined) resolved = resolveReference(ctx.core, '');
  else if (ctx.resolution) resolved = ctx.resolution.href;
  const target = resolved === null ? undefined : mode.fast ? targetOf(ctx, resolved, options.base) : parseReference(resolved);
  const hostSource = ctx.authority ? ctx.ref : target;
  const shown = redactPassword(value);
  const result: CheckResult = {
    value: shown,
    kind: ctx.kind,
    local: target !== undefined ? localityOfParts(target, options.localHosts) : 'unknown',
    resolved: resolved === null ? null : resolved === value ? shown : redactPassword(resolved),
    findings: findings.length < 2 ? findings : findings.slice().sort((a, b) => SEVERITY_ORDER[a.severity] - SEVERITY_ORDER[b.severity] || (a.offset ?? 0) - (b.offset ?? 0)),
  };
  if (ctx.scheme !== undefined) result.scheme = ctx.scheme;
  if (hostSource?.authority !== undefined) result.host = authorityParts(hostSource.authority).host;
  const fixed = findings.length === 0 ? undefined : applyAllFixes(value, options, run, mode);
  if (fixed !== undefined) result.fixed = stripPassword(fixed);
  return result;
}
