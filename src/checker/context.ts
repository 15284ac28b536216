// What a URL rule sees of one value (CheckContext), and the two ways a check is made.
import { isDriveScheme } from '../fileurl/drive.js';
import { factsBySpec, scanFacts, type UrlFacts } from '../rules/facts.js';
import type { CheckContext, CheckOptions, ReferenceKind } from '../rules/types.js';
import type { AuthorityParts } from '../uri/components.js';
import { parseAuthority, parseReference } from '../uri/parse.js';
import { resolveWithTrace } from '../uri/resolve.js';
import { boundedMemo } from '../util/bounded-memo.js';

/**
 * How a check is made. `fast`: the facts of one scan, a clean fix taken as it is, clean fixes composed in one pass,
 * each value's rules run once per check. `bySpec`: every question asked of the value on its own, every fix checked
 * again, fixes applied one at a time: the reference the tests hold the fast way equal to.
 */
export interface Mode {
  facts: (core: string) => UrlFacts;
  fast: boolean;
}
export const FAST: Mode = { facts: scanFacts, fast: true };
export const BY_SPEC: Mode = { facts: factsBySpec, fast: false };

const isSpace = (c: number): boolean => c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d || c === 0x0c;

function kindOf(scheme: string | undefined, authority: string | undefined, path: string): ReferenceKind {
  if (scheme !== undefined) return 'absolute';
  if (authority !== undefined) return 'network-path';
  return path.startsWith('/') ? 'absolute-path' : 'relative-path';
}

/** An authority taken apart (RFC 3986 3.2), once per distinct authority: the parts are not changed. */
export const authorityParts: (authority: string) => AuthorityParts = boundedMemo(parseAuthority);

/** The whole value with its core replaced, the white space around it kept (one function for every context). */
function withCore(this: CheckContext, core: string): string {
  return this.value.slice(0, this.lead) + core + this.value.slice(this.lead + this.core.length);
}

/** The context of one value; with `resolve`, its resolution against options.base too (only some rules read it). */
export function buildContext(value: string, options: CheckOptions, mode: Mode, resolve: boolean): CheckContext {
  let start = 0;
  let end = value.length;
  while (start < end && isSpace(value.charCodeAt(start))) start++;
  while (end > start && isSpace(value.charCodeAt(end - 1))) end--;
  const core = start === 0 && end === value.length ? value : value.slice(start, end);
  const ref = parseReference(core);
  const scheme = ref.scheme?.toLowerCase();
  const schemeLength = ref.scheme !== undefined ? ref.scheme.length + 1 : 0;
  const ctx: CheckContext = {
    value,
    core,
    lead: start,
    ref,
    facts: mode.facts(core),
    scheme,
    kind: kindOf(scheme, ref.authority, ref.path),
    isFileLike: scheme === undefined || scheme === 'file' || isDriveScheme(scheme),
    authority: ref.authority !== undefined ? authorityParts(ref.authority) : undefined,
    pathStart: start + schemeLength + (ref.authority !== undefined ? ref.authority.length + 2 : 0),
    authorityStart: start + schemeLength + 2,
    profile: options.profile ?? 'jdf',
    platform: options.platform ?? 'any',
    role: options.role ?? 'url',
    options,
    withCore,
  };
  // RFC 3986 5.2.2: an empty reference resolves too (to the base without its fragment).
  if (resolve && options.base !== undefined && scheme === undefined) {
    ctx.resolution = resolveWithTrace(core, options.base, { drivePreserving: options.drivePreserving === true });
  }
  return ctx;
}
