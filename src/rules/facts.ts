// What the character rules need to know about a value, gathered in one left-to-right scan that classifies every
// character against the appendix's Table 1 (section 3): which kinds it holds, where the first of each kind is and
// how many there are. Rules decide from this record instead of scanning the value again, as whatwg-url collects
// its validation errors in the pass that parses. `factsBySpec` answers the same questions the slow way, each kind
// looked for on its own with the appendix's own predicates: the tests hold the two equal.
import { isTripletAt } from '../escape/percent.js';
import { isControl } from '../escape/tables.js';

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
} as const;

export type Kind = (typeof KIND)[keyof typeof KIND];
const KINDS = 14;

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

/** The record made by one scan. */
class ScannedFacts implements UrlFacts {
  mask = 0;
  readonly firsts = new Int32Array(KINDS).fill(-1);
  readonly counts = new Int32Array(KINDS);
  has(kind: Kind): boolean { return (this.mask & (1 << kind)) !== 0; }
  first(kind: Kind): number { return this.firsts[kind]!; }
  count(kind: Kind): number { return this.counts[kind]!; }
  note(kind: Kind, i: number): void {
    const seen = this.counts[kind]!;
    this.counts[kind] = seen + 1;
    if (seen === 0) {
      this.firsts[kind] = i;
      this.mask |= 1 << kind;
    }
  }
}

/** The one scan (section 3, Table 1): every character classified once. */
export function scanFacts(core: string): UrlFacts {
  const facts = new ScannedFacts();
  for (let i = 0; i < core.length; i++) {
    const c = core.charCodeAt(i);
    if (c >= 0x80) { facts.note(KIND.nonAscii, i); continue; }
    const kind = ASCII_KIND[c]!;
    if (kind !== NONE) { facts.note(kind as Kind, i); continue; }
    if (c === 0x25) notePercent(facts, core, i);
    else if (c === 0x2e && (i === 0 || core.charCodeAt(i - 1) === 0x2f)) facts.note(KIND.segmentDot, i);
  }
  return facts;
}

// RFC 3986 2.1: "%" HEXDIG HEXDIG, or a "%" that starts no escape.
function notePercent(facts: ScannedFacts, core: string, i: number): void {
  facts.note(KIND.percent, i);
  if (!isTripletAt(core, i)) { facts.note(KIND.badPercent, i); return; }
  const hi = core.charCodeAt(i + 1);
  const lo = core.charCodeAt(i + 2);
  if (hi === 0x30 && lo === 0x30) facts.note(KIND.escapedNul, i);
  else if (hi === 0x32 && (lo | 0x20) === 0x66) facts.note(KIND.escapedSlash, i);
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
