// What a value shows at a glance: the kinds of character its scan found (facts.ts) and the shape of its parse.
// Each URL rule names the signs without which it cannot report (its `when`), so checkUrl calls only the rules
// that might: a clean relative path wakes five of forty-five. The reference way calls every rule, and the tests
// hold the two equal, so a `when` that is too narrow is found.
import type { CheckContext } from './types.js';
import { KIND } from './facts.js';
import { MAX_URL_LENGTH } from './url-length.js';

const bit = (n: number): number => 1 << n;

export const SIGN = {
  control: bit(KIND.control),
  space: bit(KIND.space),
  backslash: bit(KIND.backslash),
  unsafe: bit(KIND.unsafe),
  pipe: bit(KIND.pipe),
  semicolon: bit(KIND.semicolon),
  badPercent: bit(KIND.badPercent),
  escapedNul: bit(KIND.escapedNul),
  escapedSlash: bit(KIND.escapedSlash),
  nonAscii: bit(KIND.nonAscii),
  at: bit(KIND.at),
  segmentDot: bit(KIND.segmentDot),
  badUtf8: bit(KIND.badUtf8),
  /** No scheme: a relative reference. */
  noScheme: bit(16),
  fileScheme: bit(17),
  /** A one-letter scheme: a drive letter read as one. */
  driveScheme: bit(18),
  /** Any other scheme. */
  otherScheme: bit(19),
  authority: bit(20),
  query: bit(21),
  fragment: bit(22),
  /** Checked as a RunList/@Directory. */
  directory: bit(23),
  /** Resolved against a base. */
  resolved: bit(24),
  windows: bit(25),
  empty: bit(26),
  /** White space around the value. */
  padded: bit(27),
  /** Longer than the schemas allow. */
  long: bit(28),
  /** The path starts with ".". */
  pathDot: bit(29),
} as const;

function schemeSign(scheme: string | undefined): number {
  if (scheme === undefined) return SIGN.noScheme;
  if (scheme === 'file') return SIGN.fileScheme;
  return scheme.length === 1 ? SIGN.driveScheme : SIGN.otherScheme;
}

/** The signs of a value, from its context. */
export function signsOf(ctx: CheckContext, mask: number): number {
  let signs = mask | schemeSign(ctx.scheme);
  if (ctx.ref.authority !== undefined) signs |= SIGN.authority;
  if (ctx.ref.query !== undefined) signs |= SIGN.query;
  if (ctx.ref.fragment !== undefined) signs |= SIGN.fragment;
  if (ctx.role === 'directory') signs |= SIGN.directory;
  if (ctx.resolution !== undefined) signs |= SIGN.resolved;
  if (ctx.platform === 'windows') signs |= SIGN.windows;
  if (ctx.core === '') signs |= SIGN.empty;
  if (ctx.core.length !== ctx.value.length) signs |= SIGN.padded;
  if (ctx.value.length > MAX_URL_LENGTH) signs |= SIGN.long;
  if (ctx.ref.path.startsWith('.')) signs |= SIGN.pathDot;
  return signs;
}
