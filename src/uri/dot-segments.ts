// RFC 3986 5.2.4, remove_dot_segments, and the questions resolution asks before it: does a path hold a "." or ".."
// segment, and where does a drive letter (RFC 8089 E.2) start it.
import { isDriveSegmentAt } from '../fileurl/drive.js';

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

/**
 * Whether a "." or ".." segment may start at or after `from` (the start of a path): one that starts there or after
 * a "/", and ends at the end or at "/", "?" or "#". A "/." in the authority, query or fragment counts too, so
 * false means the path has none.
 */
export function mayHaveDotSegment(reference: string, from: number): boolean {
  for (let dot = reference.indexOf('.', from); dot !== -1; dot = reference.indexOf('.', dot + 1)) {
    if (dot > from && reference.charCodeAt(dot - 1) !== 0x2f) continue;
    const end = reference.charCodeAt(dot + 1) === 0x2e ? dot + 2 : dot + 1;
    if (end >= reference.length || isDelimiter(reference.charCodeAt(end), true)) return true;
  }
  return false;
}

/** "?" or "#", which end the path; with `slash`, "/" too. */
const isDelimiter = (c: number, slash: boolean): boolean => c === 0x3f || c === 0x23 || (slash && c === 0x2f);

/** walkSegments' output buffer after the directory: segments as [start, end) ranges of the reference, reused. */
const keptStarts = new Int32Array(1025); // a reference of 2048 characters has at most 1025 segments
const keptEnds = new Int32Array(1025);

/**
 * RFC 3986 5.2.4 on directory + reference[0, end), for a directory without dot segments: the reference's
 * segments in turn, "." dropped (B), ".." removing the output's last segment (C; none above the root), any other
 * moved to the output with its "/" (E). The output is the directory up to `kept` and ranges of the reference, so
 * no string is built or searched until the end. Short references only (the buffer's size).
 */
export function walkSegments(reference: string, end: number, directory: string): string | undefined {
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
