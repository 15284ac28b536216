import type { UriComponents } from './components.js';
import { isAlpha } from './chars.js';
import { parseReference } from './parse.js';
import { recompose } from './recompose.js';

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

/** "/c:" or "/c|" as the first segment of a path (RFC 8089 E.2, E.2.2). */
export function driveSegmentLength(path: string): number {
  if (path.length >= 3 && path.charCodeAt(0) === 0x2f && isAlpha(path.charCodeAt(1))) {
    const sep = path.charCodeAt(2);
    if ((sep === 0x3a || sep === 0x7c) && (path.length === 3 || path.charCodeAt(3) === 0x2f)) return 3;
  }
  return 0;
}

// RFC 3986 5.2.4. The buffers are an index into the input and a stack of output segments (each with its
// leading "/"), so a megabyte of "../" costs linear time; the steps are the RFC's A to E.
export function removeDotSegmentsTraced(input: string, keepDrive = false): DotSegmentsResult {
  const output: string[] = [];
  let aboveRoot = 0;
  let removedDrive = false;
  const driveLength = driveSegmentLength(input);
  const n = input.length;
  let i = 0;

  const removeLastSegment = (): void => {
    if (output.length === 0) {
      aboveRoot++;
      return;
    }
    if (output.length === 1 && driveLength > 0 && output[0] === input.slice(0, driveLength)) {
      if (keepDrive) return; // RFC 8089 E.2.1: never overwrite the drive letter
      removedDrive = true;
    }
    output.pop();
  };

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
      if (c2 === -1) { output.push('/'); i = n; continue; }
      // C. "/../" or "/.." (complete segment) becomes "/", removing the last output segment
      if (c2 === 0x2e && c3 === 0x2f) { removeLastSegment(); i += 3; continue; }
      if (c2 === 0x2e && c3 === -1) { removeLastSegment(); output.push('/'); i = n; continue; }
    }
    // D. "." or ".." alone
    if (c0 === 0x2e && (c1 === -1 || (c1 === 0x2e && c2 === -1))) { i = n; continue; }
    // E. move the first segment, with its leading "/", to the output
    let end = input.indexOf('/', c0 === 0x2f ? i + 1 : i);
    if (end === -1) end = n;
    output.push(input.slice(i, end));
    i = end;
  }
  return { path: output.join(''), aboveRoot, removedDrive };
}

// RFC 3986 5.2.4
export function removeDotSegments(path: string): string {
  return removeDotSegmentsTraced(path, false).path;
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
  const dots = (path: string): string => {
    const result = removeDotSegmentsTraced(path, keepDrive);
    if (trace) {
      trace.aboveRoot += result.aboveRoot;
      if (result.removedDrive) trace.climbedAboveDrive = true;
    }
    return result.path;
  };
  const t: UriComponents = { path: '' };
  if (r.scheme !== undefined) {
    t.scheme = r.scheme;
    t.authority = r.authority;
    t.path = dots(r.path);
    t.query = r.query;
  } else {
    if (r.authority !== undefined) {
      t.authority = r.authority;
      t.path = dots(r.path);
      t.query = r.query;
    } else {
      if (r.path === '') {
        t.path = base.path;
        t.query = r.query !== undefined ? r.query : base.query;
      } else {
        if (r.path.startsWith('/')) {
          const baseDrive = driveSegmentLength(base.path);
          if (baseDrive > 0 && driveSegmentLength(r.path) === 0) {
            if (trace) trace.absolutePathDroppedDrive = !keepDrive;
            // RFC 8089 E.2.1: "/x" is resolved relative to the drive letter
            t.path = keepDrive ? dots(base.path.slice(0, baseDrive) + r.path) : dots(r.path);
          } else {
            t.path = dots(r.path);
          }
        } else {
          t.path = merge(base, r.path);
          t.path = dots(t.path);
        }
        t.query = r.query;
      }
      t.authority = base.authority;
    }
    t.scheme = base.scheme;
  }
  t.fragment = r.fragment;
  if (t.authority === undefined) delete t.authority;
  if (t.query === undefined) delete t.query;
  if (t.fragment === undefined) delete t.fragment;
  return t;
}

/**
 * Resolves `reference` against `base` (RFC 3986 5.2, strict). Never throws: a base without a scheme is used
 * as it is (RFC 3986 5.1 asks for an absolute base; the result is then a reference, not a URI).
 */
export function resolveReference(reference: string, base: string, options: ResolveOptions = {}): string {
  return recompose(transformReference(parseReference(reference), parseReference(base), options));
}

export interface DetailedResolution {
  /** The target URI under the chosen options. */
  href: string;
  trace: ResolutionTrace;
}

export function resolveWithTrace(reference: string, base: string, options: ResolveOptions = {}): DetailedResolution {
  const trace: ResolutionTrace = { aboveRoot: 0, climbedAboveDrive: false, absolutePathDroppedDrive: false };
  const href = recompose(transformReference(parseReference(reference), parseReference(base), options, trace));
  return { href, trace };
}
