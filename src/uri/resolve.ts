import type { UriComponents } from './components.js';
import { isDriveSegmentAt } from '../fileurl/drive.js';
import { isAlpha, isDigit } from './chars.js';
import { parseReference } from './parse.js';
import { recompose } from './recompose.js';
import { boundedMemo } from '../util/bounded-memo.js';

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

export interface DotSegmentsResult {
  path: string;
  aboveRoot: number;
  removedDrive: boolean;
}

/** "/c:" or "/c|" as the first segment of a path (RFC 8089 E.2, E.2.2): its length, 3, or 0. */
export const driveSegmentLength = (path: string): number => (path.charCodeAt(0) === 0x2f && isDriveSegmentAt(path, 1) ? 3 : 0);

/** Whether any complete segment of `path` is "." or ".." (else remove_dot_segments would return it unchanged). */
export function hasDotSegment(path: string): boolean {
  let i = path.indexOf('.');
  while (i !== -1) {
    if (i === 0 || path.charCodeAt(i - 1) === 0x2f) {
      const next = path.charCodeAt(i + 1);
      if (Number.isNaN(next) || next === 0x2f) return true;
      if (next === 0x2e) {
        const after = path.charCodeAt(i + 2);
        if (Number.isNaN(after) || after === 0x2f) return true;
      }
    }
    i = path.indexOf('.', i + 1);
  }
  return false;
}

// RFC 3986 5.2.4. The input buffer is an index into the input; the output buffer is a stack of segments (each
// with its leading "/"), kept as [start, end) ranges of the input, since every segment the steps move is a piece
// of it. So a megabyte of "../" costs linear time and no segment is copied until the end; the steps are A to E.
export function removeDotSegmentsTraced(input: string, keepDrive = false): DotSegmentsResult {
  if (!hasDotSegment(input)) return { path: input, aboveRoot: 0, removedDrive: false };
  const output = new OutputBuffer(input);
  let aboveRoot = 0;
  let removedDrive = false;
  const driveEnd = driveSegmentLength(input);
  const n = input.length;
  let i = 0;
  while (i < n) {
    const c0 = input.charCodeAt(i);
    const c1 = i + 1 < n ? input.charCodeAt(i + 1) : -1;
    const c2 = i + 2 < n ? input.charCodeAt(i + 2) : -1;
    const c3 = i + 3 < n ? input.charCodeAt(i + 3) : -1;
    // A. "../" or "./" prefix
    if (c0 === 0x2e && c1 === 0x2e && c2 === 0x2f) { i += 3; continue; }
    if (c0 === 0x2e && c1 === 0x2f) { i += 2; continue; }
    if (c0 === 0x2f && c1 === 0x2e) {
      // B. "/./" or "/." (complete segment) becomes "/"
      if (c2 === 0x2f) { i += 2; continue; }
      if (c2 === -1) { output.push(i, i + 1); i = n; continue; }
      // C. "/../" or "/.." (complete segment) becomes "/", removing the last output segment
      if (c2 === 0x2e && (c3 === 0x2f || c3 === -1)) {
        if (output.size === 0) aboveRoot++;
        else if (driveEnd > 0 && output.isOnly(0, driveEnd)) {
          if (!keepDrive) { removedDrive = true; output.pop(); } // RFC 8089 E.2.1 keeps the drive letter
        } else output.pop();
        if (c3 === -1) { output.push(i, i + 1); i = n; } else i += 3;
        continue;
      }
    }
    // D. "." or ".." alone
    if (c0 === 0x2e && (c1 === -1 || (c1 === 0x2e && c2 === -1))) { i = n; continue; }
    // E. move the first segment, with its leading "/", to the output
    let end = input.indexOf('/', c0 === 0x2f ? i + 1 : i);
    if (end === -1) end = n;
    output.push(i, end);
    i = end;
  }
  return { path: output.toString(), aboveRoot, removedDrive };
}

/** 5.2.4's output buffer: segments as [start, end) ranges of the input. */
class OutputBuffer {
  private readonly starts: number[] = [];
  private readonly ends: number[] = [];
  constructor(private readonly input: string) {}
  get size(): number { return this.starts.length; }
  push(start: number, end: number): void { this.starts.push(start); this.ends.push(end); }
  pop(): void { this.starts.pop(); this.ends.pop(); }
  /** Whether the buffer holds exactly the one segment input[start, end). */
  isOnly(start: number, end: number): boolean { return this.starts.length === 1 && this.starts[0] === start && this.ends[0] === end; }
  /** The segments in order; neighbours in the input are copied as one piece. */
  toString(): string {
    let out = '';
    for (let k = 0; k < this.starts.length; k++) {
      const start = this.starts[k]!;
      let end = this.ends[k]!;
      while (k + 1 < this.starts.length && this.starts[k + 1] === end) end = this.ends[++k]!;
      out += this.input.slice(start, end);
    }
    return out;
  }
}

// RFC 3986 5.2.4
export function removeDotSegments(path: string): string {
  return hasDotSegment(path) ? removeDotSegmentsTraced(path, false).path : path;
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
  if (!isAlpha(reference.charCodeAt(0))) return -1;
  for (let i = 1; i < reference.length; i++) {
    const c = reference.charCodeAt(i);
    if (c === 0x3a) return i; // ":"
    if (!(isAlpha(c) || isDigit(c) || c === 0x2b || c === 0x2d || c === 0x2e)) return -1; // not "+" "-" "."
  }
  return -1;
}

/**
 * Whether a "." or ".." segment may start at or after `from` (the start of a path): one that starts there or after
 * a "/", and ends at the end or at "/", "?" or "#". A "/." in the authority, query or fragment counts too, so
 * false means the path has none.
 */
function mayHaveDotSegment(reference: string, from: number): boolean {
  for (let dot = reference.indexOf('.', from); dot !== -1; dot = reference.indexOf('.', dot + 1)) {
    if (dot > from && reference.charCodeAt(dot - 1) !== 0x2f) continue;
    const end = reference.charCodeAt(dot + 1) === 0x2e ? dot + 2 : dot + 1;
    if (end >= reference.length || isDelimiter(reference.charCodeAt(end), true)) return true;
  }
  return false;
}

/** "?" or "#", which end the path; with `slash`, "/" too. */
const isDelimiter = (c: number, slash: boolean): boolean => c === 0x3f || c === 0x23 || (slash && c === 0x2f);

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

/** walkSegments' output buffer after the directory: segments as [start, end) ranges of the reference, reused. */
const keptStarts = new Int32Array(1025); // a reference of 2048 characters has at most 1025 segments
const keptEnds = new Int32Array(1025);

/**
 * RFC 3986 5.2.4 on directory + reference[0, end), for a directory without dot segments: the reference's
 * segments in turn, "." dropped (B), ".." removing the output's last segment (C; none above the root), any other
 * moved to the output with its "/" (E). The output is the directory up to `kept` and ranges of the reference, so
 * no string is built or searched until the end. Short references only (the buffer's size).
 */
function walkSegments(reference: string, end: number, directory: string): string | undefined {
  if (end > 2048) return undefined;
  let kept = directory.length; // the output starts with directory[0, kept), which ends with "/"
  let count = 0; // then the ranges keptStarts[k], keptEnds[k] of the reference, k < count
  for (let i = 0; ; ) {
    let j = reference.indexOf('/', i);
    if (j === -1 || j > end) j = end;
    const last = j === end;
    const length = j - i;
    const dots = length === 1 && reference.charCodeAt(i) === 0x2e ? 1 : length === 2 && reference.charCodeAt(i) === 0x2e && reference.charCodeAt(i + 1) === 0x2e ? 2 : 0;
    if (dots === 2) {
      // C. remove the last segment of the output, a range of the reference or else one of the directory
      if (count > 0) count--;
      else kept = directory.lastIndexOf('/', kept - 2) + 1 || 1;
    } else if (dots === 0) {
      // E. move the segment, with the "/" after it, to the output
      keptStarts[count] = i;
      keptEnds[count++] = last ? j : j + 1;
    }
    if (last) break;
    i = j + 1;
  }
  let path = kept === directory.length ? directory : directory.slice(0, kept);
  for (let k = 0; k < count; k++) {
    const start = keptStarts[k]!;
    let stop = keptEnds[k]!;
    while (k + 1 < count && keptStarts[k + 1] === stop) stop = keptEnds[++k]!; // neighbours in the reference as one piece
    path += reference.slice(start, stop);
  }
  return path;
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
