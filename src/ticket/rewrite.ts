// Fixing a ticket in place: which attribute values to change, and the new bytes, identical to the old ones
// everywhere outside those values (encoding, BOM, line ends, comments, attribute order and quoting).
import { spanKey } from './fix-decision.js';
import type { TicketReference, TicketReport } from './validate.js';
import { concat } from '../util/concat.js';

export interface Edit {
  /** Character span of the raw value in the decoded text, [start, end). */
  span: [number, number];
  from: string;
  to: string;
  /** The value as the file must hold it (XML-escaped for its quote and charset). */
  written: string;
  line: number;
  column: number;
  element: string;
  attribute: string;
}

export interface Skipped {
  line: number;
  column: number;
  element: string;
  attribute: string;
  value: string;
  fixed: string;
  reason: string;
}

export interface FixPlan {
  edits: Edit[];
  skipped: Skipped[];
}

/** XML-escapes a value for an attribute quoted with `quote`; characters the charset cannot hold become references. */
export function escapeForAttribute(value: string, quote: string, charset: string): string {
  let out = '';
  for (const ch of value) {
    const c = ch.codePointAt(0)!;
    if (ch === '&') out += '&amp;';
    else if (ch === '<') out += '&lt;';
    else if (ch === quote) out += quote === '"' ? '&quot;' : '&apos;';
    else if (c < 0x20 || (c > 0x7e && (charset === 'US-ASCII' || ((charset === 'ISO-8859-1' || charset === 'WINDOWS-1252') && c > 0xff)))) out += `&#x${c.toString(16).toUpperCase()};`;
    else out += ch;
  }
  return out;
}

/**
 * The edits that apply every fix the report keeps (`fixed`), one per attribute value; the values whose fix it
 * refuses (`fixRefused`) are skipped with its reason. `text` is the decoded ticket the report was made from.
 */
export function planFixes(text: string, report: TicketReport): FixPlan {
  const bySpan = new Map<string, { ref: TicketReference; uses: TicketReference[] }>();
  for (const ref of report.references) {
    if (ref.fixed === undefined && ref.fixRefused === undefined) continue;
    const key = spanKey(ref);
    const entry = bySpan.get(key);
    if (entry) entry.uses.push(ref);
    else bySpan.set(key, { ref, uses: [ref] });
  }
  const edits: Edit[] = [];
  const skipped: Skipped[] = [];
  for (const { ref, uses } of bySpan.values()) {
    // The decision is the report's (settleFixes, src/ticket/fix-decision.ts): what it calls fixed is written.
    const refused = uses.find((u) => u.fixRefused !== undefined)?.fixRefused;
    const where = { line: ref.line, column: ref.column, element: ref.element, attribute: ref.attribute };
    if (refused) {
      // Where validate reports the problem the fix is for (its first error or warning): one place, one position.
      const at = ref.findings.find((f) => f.severity !== 'info') ?? ref;
      skipped.push({ ...where, line: at.line, column: at.column, value: ref.value, fixed: refused.fixed, reason: refused.reason });
      continue;
    }
    const fixed = ref.fixed!;
    const quote = text[ref.span[0] - 1] === "'" ? "'" : '"';
    edits.push({ ...where, span: ref.span, from: text.slice(ref.span[0], ref.span[1]), to: fixed, written: escapeForAttribute(fixed, quote, report.encoding) });
  }
  edits.sort((a, b) => a.span[0] - b.span[0]);
  return { edits, skipped };
}

function encodeText(s: string, charset: string): Uint8Array {
  if (charset === 'UTF-16LE' || charset === 'UTF-16BE') {
    const out = new Uint8Array(s.length * 2);
    for (let i = 0; i < s.length; i++) {
      const c = s.charCodeAt(i);
      out[2 * i] = charset === 'UTF-16LE' ? c & 0xff : c >> 8;
      out[2 * i + 1] = charset === 'UTF-16LE' ? c >> 8 : c & 0xff;
    }
    return out;
  }
  if (charset === 'UTF-8') return new TextEncoder().encode(s);
  // Single-byte charsets: escapeForAttribute left only characters they hold, and fixes are ASCII.
  return Uint8Array.from([...s].map((ch) => ch.charCodeAt(0) & 0xff));
}

/** How many bytes `text.slice(from, to)` takes in the file. */
function byteLength(text: string, from: number, to: number, charset: string): number {
  if (charset === 'UTF-16LE' || charset === 'UTF-16BE') return (to - from) * 2;
  if (charset !== 'UTF-8') return to - from;
  let n = 0;
  for (let i = from; i < to; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) n += 1;
    else if (c < 0x800) n += 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < to) {
      n += 4;
      i++;
    } else n += 3;
  }
  return n;
}

/** The original bytes with each edit's value replaced; every other byte is copied as it was. */
export function applyEdits(bytes: Uint8Array, text: string, charset: string, bom: boolean, edits: readonly Edit[]): Uint8Array {
  const bomLength = bom ? (charset === 'UTF-8' ? 3 : 2) : 0;
  const parts: Uint8Array[] = [];
  let bytePos = bomLength;
  let charPos = 0;
  let copiedFrom = 0;
  for (const edit of edits) {
    bytePos += byteLength(text, charPos, edit.span[0], charset);
    const valueStart = bytePos;
    const valueEnd = valueStart + byteLength(text, edit.span[0], edit.span[1], charset);
    parts.push(bytes.subarray(copiedFrom, valueStart), encodeText(edit.written, charset));
    copiedFrom = valueEnd;
    bytePos = valueEnd;
    charPos = edit.span[1];
  }
  parts.push(bytes.subarray(copiedFrom));
  return concat(parts);
}
