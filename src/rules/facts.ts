// What the character rules need to know about a value, gathered in one left-to-right scan that classifies every
// character against the appendix's Table 1 (section 3): which kinds it holds, where the first of each kind is and
// how many there are. Rules decide from this record instead of scanning the value again, as whatwg-url collects
// its validation errors in the pass that parses. `factsBySpec` answers the same questions the slow way, each kind
// looked for on its own with the appendix's own predicates: the tests hold the two equal.
import { decodeSegment, isTripletAt } from '../escape/percent.js';
import { isControl } from '../escape/tables.js';
import { hexValue } from '../uri/chars.js';

/** The kinds of character (or escape) a rule asks about. */
export const KIND = {
  /** Octets 00-1F and 7F (section 3). */
  control: 0,
  space: 1,
  backslash: 2,
  /** Table 1's unsafe characters < > " { } ^ [ ] ` (the "|" is a kind of its own). */
  unsafe: 3,
  pipe: 4,
  semicolon: 5,
  /** Any "%". */
  percent: 6,
  /** A "%" not followed by two hex digits (RFC 3986 2.1). */
  badPercent: 7,
  /** "%00" (Table 6). */
  escapedNul: 8,
  /** "%2F" or "%2f": an escaped "/". */
  escapedSlash: 9,
  /** A UTF-16 code unit above 127. */
  nonAscii: 10,
  /** "@": user information may hold a password. */
  at: 11,
  /** "&": a value may carry XML references. */
  ampersand: 12,
  /** A "." that starts a segment: at the start or after "/" (a superset of RFC 3986's dot segments). */
  segmentDot: 13,
  /** An escape whose octet is not valid UTF-8 where it stands (the WHATWG UTF-8 decoder's rules). */
  badUtf8: 14,
} as const;

export type Kind = (typeof KIND)[keyof typeof KIND];
const KINDS = 15;

export interface UrlFacts {
  /** Whether the value holds a character of this kind. */
  has(kind: Kind): boolean;
  /** Index in the core of the first character of this kind, or -1. */
  first(kind: Kind): number;
  /** How many characters of this kind the core holds. */
  count(kind: Kind): number;
}

// The kind of each ASCII character that has one; 0xff: none. "%" and "." are looked at with their neighbours.
const NONE = 0xff;
const ASCII_KIND = new Uint8Array(128).fill(NONE);
for (let c = 0; c < 0x20; c++) ASCII_KIND[c] = KIND.control;
ASCII_KIND[0x7f] = KIND.control;
ASCII_KIND[0x20] = KIND.space;
ASCII_KIND[0x5c] = KIND.backslash;
for (const ch of '<>"{}^[]`') ASCII_KIND[ch.charCodeAt(0)] = KIND.unsafe;
ASCII_KIND[0x7c] = KIND.pipe;
ASCII_KIND[0x3b] = KIND.semicolon;
ASCII_KIND[0x40] = KIND.at;
ASCII_KIND[0x26] = KIND.ampersand;

/**
 * The record made by one scan: a bit per kind found, and for each kind its first index and its count, side by side
 * in one array made when the first kind is noted (a value with nothing to note allocates nothing more).
 */
class ScannedFacts implements UrlFacts {
  mask = 0;
  /** [first of kind 0, count of kind 0, first of kind 1, ...], only meaningful for the kinds in `mask`. */
  private slots: number[] | undefined;
  has(kind: Kind): boolean { return (this.mask & (1 << kind)) !== 0; }
  first(kind: Kind): number { return this.has(kind) ? this.slots![2 * kind]! : -1; }
  count(kind: Kind): number { return this.has(kind) ? this.slots![2 * kind + 1]! : 0; }
  note(kind: Kind, i: number): void {
    const slots = (this.slots ??= [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
    const bit = 1 << kind;
    if ((this.mask & bit) === 0) {
      this.mask |= bit;
      slots[2 * kind] = i;
    }
    slots[2 * kind + 1]!++;
  }
}

/**
 * The WHATWG UTF-8 decoder over one run of escapes (consecutive triplets): how many continuation bytes are still
 * needed and their bounds. Any other character ends the run, as the end of a segment does when it is decoded.
 */
class Utf8Run {
  /** Index of the run's first "%". */
  start = -1;
  /** The run already failed: it is noted once. */
  bad = false;
  private needed = 0;
  private lower = 0x80;
  private upper = 0xbf;
  begin(i: number): void {
    this.start = i;
    this.bad = false;
    this.needed = 0;
    this.lower = 0x80;
    this.upper = 0xbf;
  }

  /** Takes one escaped octet; false when it cannot stand there. */
  take(b: number): boolean {
    if (this.needed > 0) {
      if (b < this.lower || b > this.upper) return false;
      this.lower = 0x80;
      this.upper = 0xbf;
      this.needed--;
      return true;
    }
    if (b <= 0x7f) return true;
    if (b >= 0xc2 && b <= 0xdf) this.needed = 1;
    else if (b >= 0xe0 && b <= 0xef) [this.needed, this.lower, this.upper] = [2, b === 0xe0 ? 0xa0 : 0x80, b === 0xed ? 0x9f : 0xbf];
    else if (b >= 0xf0 && b <= 0xf4) [this.needed, this.lower, this.upper] = [3, b === 0xf0 ? 0x90 : 0x80, b === 0xf4 ? 0x8f : 0xbf];
    else return false;
    return true;
  }

  /** The run ends: false when a sequence is cut short. */
  complete(): boolean {
    return this.needed === 0;
  }
}

/** The kinds found, as bits (1 << kind). */
export function maskOf(facts: UrlFacts): number {
  if (facts instanceof ScannedFacts) return facts.mask;
  let mask = 0;
  for (let kind = 0; kind < KINDS; kind++) if (facts.has(kind as Kind)) mask |= 1 << kind;
  return mask;
}

/** The one scan (section 3, Table 1): every character classified once. */
export function scanFacts(core: string): UrlFacts {
  const facts = new ScannedFacts();
  let run: Utf8Run | undefined;
  let runEnd = -1;
  for (let i = 0; i < core.length; i++) {
    const c = core.charCodeAt(i);
    if (c === 0x25 && isTripletAt(core, i)) {
      run ??= new Utf8Run();
      if (runEnd !== i) run.begin(i);
      notePercent(facts, run, core, i);
      runEnd = i + 3;
      i += 2;
      continue;
    }
    if (runEnd === i) endRun(facts, run!);
    if (c >= 0x80) { facts.note(KIND.nonAscii, i); continue; }
    const kind = ASCII_KIND[c]!;
    if (kind !== NONE) facts.note(kind as Kind, i);
    else if (c === 0x25) notePercentAlone(facts, i);
    else if (c === 0x2e && (i === 0 || core.charCodeAt(i - 1) === 0x2f)) facts.note(KIND.segmentDot, i);
  }
  if (runEnd === core.length) endRun(facts, run!);
  return facts;
}

/** A "%" that starts no escape (RFC 3986 2.1). */
function notePercentAlone(facts: ScannedFacts, i: number): void {
  facts.note(KIND.percent, i);
  facts.note(KIND.badPercent, i);
}

// A run that failed, or was cut short, is noted once, at its end: one place, so the compiled scan meets no branch
// it has never run when the first bad run comes (its first index and count are the same as noted at the octet).
function endRun(facts: ScannedFacts, run: Utf8Run): void {
  if (run.bad || !run.complete()) facts.note(KIND.badUtf8, run.start);
}

// RFC 3986 2.1: "%" HEXDIG HEXDIG, its octet read on by the UTF-8 decoder.
function notePercent(facts: ScannedFacts, run: Utf8Run, core: string, i: number): void {
  facts.note(KIND.percent, i);
  const hi = core.charCodeAt(i + 1);
  const lo = core.charCodeAt(i + 2);
  if (hi === 0x30 && lo === 0x30) facts.note(KIND.escapedNul, i);
  else if (hi === 0x32 && (lo | 0x20) === 0x66) facts.note(KIND.escapedSlash, i);
  run.bad ||= !run.take(hexValue(hi) * 16 + hexValue(lo));
}

/** Each kind as the spec states it, tested at one index of the core on its own. */
const BY_SPEC: Record<Kind, (core: string, i: number) => boolean> = {
  [KIND.control]: (s, i) => isControl(s.charCodeAt(i)),
  [KIND.space]: (s, i) => s[i] === ' ',
  [KIND.backslash]: (s, i) => s[i] === '\\',
  [KIND.unsafe]: (s, i) => '<>"{}^[]`'.includes(s[i]!),
  [KIND.pipe]: (s, i) => s[i] === '|',
  [KIND.semicolon]: (s, i) => s[i] === ';',
  [KIND.percent]: (s, i) => s[i] === '%',
  [KIND.badPercent]: (s, i) => s[i] === '%' && !/^%[0-9A-Fa-f]{2}/.test(s.slice(i, i + 3)),
  [KIND.escapedNul]: (s, i) => s.startsWith('%00', i),
  [KIND.escapedSlash]: (s, i) => /^%2f/i.test(s.slice(i, i + 3)),
  [KIND.nonAscii]: (s, i) => s.charCodeAt(i) > 127,
  [KIND.at]: (s, i) => s[i] === '@',
  [KIND.ampersand]: (s, i) => s[i] === '&',
  [KIND.segmentDot]: (s, i) => s[i] === '.' && (i === 0 || s[i - 1] === '/'),
  // Section 3: the run of escapes that starts at i does not decode as UTF-8 (a segment's decoding, on that run alone).
  [KIND.badUtf8]: (s, i) => /^%[0-9A-Fa-f]{2}/.test(s.slice(i, i + 3)) && !/%[0-9A-Fa-f]{2}$/.test(s.slice(0, i)) && !decodeSegment(/^(%[0-9A-Fa-f]{2})+/.exec(s.slice(i))![0]).valid,
};

/** The same record, each question answered by its own scan with the spec's predicate: the reference path. */
export function factsBySpec(core: string): UrlFacts {
  const find = (kind: Kind) => {
    let first = -1;
    let count = 0;
    for (let i = 0; i < core.length; i++) {
      if (!BY_SPEC[kind](core, i)) continue;
      if (first === -1) first = i;
      count++;
    }
    return { first, count };
  };
  return {
    has: (kind) => find(kind).first !== -1,
    first: (kind) => find(kind).first,
    count: (kind) => find(kind).count,
  };
}
