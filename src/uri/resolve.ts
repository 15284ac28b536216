import type { UriComponents } from './components.js';
import { driveSegmentLength, hasDotSegment, mayHaveDotSegment, removeDotSegments, removeDotSegmentsTraced, walkSegments } from './dot-segments.js';
import { isAlpha, isDigit } from './chars.js';
import { parseReference } from './parse.js';
import { recompose } from './recompose.js';
import { boundedMemo } from '../util/bounded-memo.js';

export { driveSegmentLength, hasDotSegment, removeDotSegments, removeDotSegmentsTraced, type DotSegmentsResult } from './dot-segments.js';

export interface ResolveOptions {
  /** RFC 8089 E.2.1: "/x" and ".." never leave the base's drive letter. Off by default (strict RFC 3986). */
  drivePreserving?: boolean;
}

/** What happened on the way, for the checker's resolution findings. */
export interface ResolutionTrace {
  /** ".." segments that met an empty output buffer and were dropped (RFC 3986 5.4.2 "abnormal" examples). */
  aboveRoot: number;
  /** A ".." removed the drive-letter segment of the base ("/c:") under strict resolution. */
  climbedAboveDrive: boolean;
  /** An absolute-path reference replaced a base path that started with a drive letter. */
  absolutePathDroppedDrive: boolean;
}

// RFC 3986 5.2.3
export function merge(base: UriComponents, referencePath: string): string {
  if (base.authority !== undefined && base.path === '') return '/' + referencePath;
  const lastSlash = base.path.lastIndexOf('/');
  return lastSlash === -1 ? referencePath : base.path.slice(0, lastSlash + 1) + referencePath;
}

// RFC 3986 5.2.2 (strict: a scheme in the reference is never ignored). With drivePreserving, RFC 8089 E.2.1.
export function transformReference(
  r: UriComponents,
  base: UriComponents,
  options: ResolveOptions = {},
  trace?: ResolutionTrace,
): UriComponents {
  const keepDrive = options.drivePreserving === true;
  let scheme: string | undefined;
  let authority: string | undefined;
  let path: string;
  let query: string | undefined;
  if (r.scheme !== undefined) {
    scheme = r.scheme;
    authority = r.authority;
    path = dots(r.path, keepDrive, trace);
    query = r.query;
  } else {
    if (r.authority !== undefined) {
      authority = r.authority;
      path = dots(r.path, keepDrive, trace);
      query = r.query;
    } else {
      if (r.path === '') {
        path = base.path;
        query = r.query !== undefined ? r.query : base.query;
      } else {
        if (r.path.charCodeAt(0) === 0x2f) {
          const baseDrive = driveSegmentLength(base.path);
          if (baseDrive > 0 && driveSegmentLength(r.path) === 0) {
            if (trace) trace.absolutePathDroppedDrive = !keepDrive;
            // RFC 8089 E.2.1: "/x" is resolved relative to the drive letter
            path = keepDrive ? dots(base.path.slice(0, baseDrive) + r.path, keepDrive, trace) : dots(r.path, keepDrive, trace);
          } else {
            path = dots(r.path, keepDrive, trace);
          }
        } else {
          path = merge(base, r.path);
          path = dots(path, keepDrive, trace);
        }
        query = r.query;
      }
      authority = base.authority;
    }
    scheme = base.scheme;
  }
  // Only defined components become properties, so that results compare equal to parseReference's.
  const t: UriComponents = { path };
  if (scheme !== undefined) t.scheme = scheme;
  if (authority !== undefined) t.authority = authority;
  if (query !== undefined) t.query = query;
  if (r.fragment !== undefined) t.fragment = r.fragment;
  return t;
}

// RFC 3986 5.2.4 as transformReference calls it, noting in the trace what the removal did.
function dots(path: string, keepDrive: boolean, trace: ResolutionTrace | undefined): string {
  if (!hasDotSegment(path)) return path;
  const result = removeDotSegmentsTraced(path, keepDrive);
  if (trace) {
    trace.aboveRoot += result.aboveRoot;
    if (result.removedDrive) trace.climbedAboveDrive = true;
  }
  return result.path;
}

// A ticket resolves thousands of references against a handful of bases: each base is parsed once, and with it
// the strings that 5.2.2 puts in front of a reference when no dot segment is removed.
interface ParsedBase {
  components: UriComponents;
  /** Base.scheme ":" as 5.3 writes it ("" without a scheme): what a network-path reference follows. */
  scheme: string;
  /** Base.scheme ":" "//" Base.authority as 5.3 writes them: what an absolute-path reference follows. */
  origin: string;
  /** Whether Base.path starts with a drive letter ("/c:", RFC 8089 E.2), which E.2.1 keeps under "/x". */
  drive: boolean;
  /** The base recomposed (5.3) without its query and fragment: what a reference "?q" follows. */
  withoutQuery: string;
  /** The base recomposed (5.3) without its fragment: what an empty reference or "#f" follows. */
  withoutFragment: string;
  /** scheme ":" ["//" authority] and the base path up to its last "/", when appending to it is all that 5.2 does. */
  mergePrefix: string | undefined;
  /** merge(base, "") (RFC 3986 5.2.3): the base path up to its last "/", when it starts with "/". */
  directory: string | undefined;
}

/** A base taken apart once per distinct base: a ticket's references share a handful. */
const parsedBase = boundedMemo((base: string): ParsedBase => {
  const components = parseReference(base);
  const { scheme, authority, path, query } = components;
  const withoutQuery: UriComponents = { path };
  if (scheme !== undefined) withoutQuery.scheme = scheme;
  if (authority !== undefined) withoutQuery.authority = authority;
  const parsed: ParsedBase = {
    components,
    scheme: scheme !== undefined ? scheme + ':' : '',
    origin: recompose({ ...withoutQuery, path: '' }),
    drive: driveSegmentLength(path) > 0,
    withoutQuery: recompose(withoutQuery),
    withoutFragment: recompose(query !== undefined ? { ...withoutQuery, query } : withoutQuery),
    mergePrefix: undefined,
    directory: undefined,
  };
  if (scheme !== undefined) {
    const directory = merge(components, '');
    if (!hasDotSegment(directory) && !(authority === undefined && directory.startsWith('//'))) {
      parsed.mergePrefix = parsed.origin + directory;
      if (directory.charCodeAt(0) === 0x2f) parsed.directory = directory;
    }
  }
  return parsed;
});

/**
 * RFC 3986 5.2.2 where remove_dot_segments (5.2.4) has nothing to remove: T recomposed (5.3) is then a string of
 * the base's (memoised; the first branch needs none) followed by R as written, and each branch says why. Undefined
 * where R's path may hold a "." or ".." segment, or where a drive letter of the base matters (`drive`: RFC 8089
 * E.2.1 keeps it, a trace notes its loss): transformReference does those, and the trace has nothing else to note.
 */
function targetWithoutDotSegments(reference: string, baseUri: string, drive: boolean): string | undefined {
  const colon = schemeEnd(reference);
  // if defined(R.scheme): T is R's components with remove_dot_segments(R.path) = R.path, so T recomposed is R.
  if (colon !== -1) return mayHaveDotSegment(reference, colon + 1) ? undefined : reference;
  const base = parsedBase(baseUri);
  const first = reference.charCodeAt(0);
  // if defined(R.authority): T is Base.scheme and R's components; a path after an authority needs no 5.3 guard.
  if (first === 0x2f && reference.charCodeAt(1) === 0x2f) return mayHaveDotSegment(reference, 2) ? undefined : base.scheme + reference;
  // if (R.path == ""): T is the base up to its query when R has one ("?"), else up to its fragment, and R's rest.
  if (Number.isNaN(first) || first === 0x23) return base.withoutFragment + reference; // "" or "#"
  if (first === 0x3f) return base.withoutQuery + reference; // "?"
  // if (R.path starts-with "/"): T is Base.scheme, Base.authority and R (which does not start with "//").
  if (first === 0x2f) return (drive && base.drive) || mayHaveDotSegment(reference, 0) ? undefined : base.origin + reference;
  // else: T.path is merge(Base.path, R.path) (5.2.3), whose prefix ends with "/" (or is empty), so adds no dot segment.
  return base.mergePrefix === undefined || mayHaveDotSegment(reference, 0) ? undefined : base.mergePrefix + reference;
}

/** Where the ":" after a scheme (RFC 3986 3.1, as parseReference reads it) is, or -1 when R.scheme is undefined. */
function schemeEnd(reference: string): number {
  if (reference.length === 0 || !isAlpha(reference.charCodeAt(0))) return -1; // "" read out of bounds: a deopt
  for (let i = 1; i < reference.length; i++) {
    const c = reference.charCodeAt(i);
    if (c === 0x3a) return i; // ":"
    if (!(isAlpha(c) || isDigit(c) || c === 0x2b || c === 0x2d || c === 0x2e)) return -1; // not "+" "-" "."
  }
  return -1;
}

/**
 * A relative-path reference (RFC 3986 4.2: no scheme, no authority, not starting with "/") against a base whose
 * merged directory starts with "/": 5.2.2 takes the base's scheme and authority, merges (5.2.3) and removes dot
 * segments (5.2.4) from the path alone, and appends the reference's query and fragment as they are. Undefined for every other
 * reference, and where the spec's recomposition (5.3) would have to guard a path starting with "//".
 */
function mergeRelativePath(reference: string, base: ParsedBase): string | undefined {
  const { origin, directory } = base;
  if (directory === undefined || reference.length === 0) return undefined;
  let end = reference.length;
  for (let i = 0; i < reference.length; i++) {
    const c = reference.charCodeAt(i);
    if (c === 0x3f || c === 0x23) { end = i; break; } // "?" "#"
    if (c === 0x3a && reference.lastIndexOf('/', i) === -1) return undefined; // ":" in the first segment
  }
  const first = reference.charCodeAt(0);
  if (end === 0 || first === 0x2f) return undefined;
  const path = walkSegments(reference, end, directory) ?? removeDotSegments(directory + reference.slice(0, end));
  if (base.components.authority === undefined && path.charCodeAt(0) === 0x2f && path.charCodeAt(1) === 0x2f) return undefined;
  return origin + path + reference.slice(end);
}

/** The base's components, parsed once per base (do not change them). */
export function baseComponents(base: string): UriComponents {
  return parsedBase(base).components;
}

/** The prefix a plain relative path is appended to, or undefined when 5.2 does more than append. */
export function mergePrefixOf(base: string): string | undefined {
  return parsedBase(base).mergePrefix;
}

/**
 * Resolves `reference` against `base` (RFC 3986 5.2, strict). Never throws: a base without a scheme is used
 * as it is (RFC 3986 5.1 asks for an absolute base; the result is then a reference, not a URI).
 */
export function resolveReference(reference: string, base: string, options: ResolveOptions = {}): string {
  const target = targetWithoutDotSegments(reference, base, options.drivePreserving === true);
  if (target !== undefined) return target;
  const parsed = parsedBase(base);
  if (options.drivePreserving !== true) {
    const merged = mergeRelativePath(reference, parsed);
    if (merged !== undefined) return merged;
  }
  return recompose(transformReference(parseReference(reference), parsed.components, options));
}

/** RFC 3986 5.2 exactly as written, without the shortcuts of resolveReference (the tests hold the two equal). */
export function resolveBySpec(reference: string, base: string, options: ResolveOptions = {}): string {
  return recompose(transformReference(parseReference(reference), parseReference(base), options));
}

export interface DetailedResolution {
  /** The target URI under the chosen options. */
  href: string;
  trace: ResolutionTrace;
}

export function resolveWithTrace(reference: string, base: string, options: ResolveOptions = {}): DetailedResolution {
  const trace: ResolutionTrace = { aboveRoot: 0, climbedAboveDrive: false, absolutePathDroppedDrive: false };
  const href = targetWithoutDotSegments(reference, base, true) ?? recompose(transformReference(parseReference(reference), baseComponents(base), options, trace));
  return { href, trace };
}
