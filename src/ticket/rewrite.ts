// Fixing a ticket in place: which attribute values to change, and the new bytes, identical to the old ones
// everywhere outside those values (encoding, BOM, line ends, comments, attribute order and quoting).
import { holdsPassword } from '../fileurl/redact.js';
import { resolveReference } from '../uri/resolve.js';
import { consumerIdentities, fileIdentity } from './readings.js';
import type { TicketReference, TicketReport } from './validate.js';

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
 * Why `fixed` may not replace the reference's value, or null where it names the file a consumer reads the value as.
 * Escapes are read in the ticket's encoding, `charset` (JDF appendix section 3).
 */
function sameFile(ref: TicketReference, fixed: string, charset: string): string | null {
  if (ref.role === 'directory') {
    // Only the trailing "/" is added: the same folder.
    const strip = (s: string) => fileIdentity(s, charset).replace(/\/+$/, '');
    return strip(fixed) === strip(ref.value.trim()) ? null : 'the fixed Directory would name another folder';
  }
  const base = ref.base ?? (ref.kind === 'absolute' ? null : standInBase(ref.value, fixed));
  const fixedTarget = fileIdentity(base !== null ? resolveReference(fixed, base) : fixed, charset);
  const readings = consumerIdentities(ref.value, base, ref.baseSource === 'directory', charset);
  if (readings.has(fixedTarget)) return null;
  return /[#?]/.test(ref.value)
    ? 'a raw "#" or "?" may start a fragment or query, so no consumer reads the original as the file the fixed value names'
    : 'no consumer reads the original value as the file the fixed value names';
}

/**
 * The base a relative reference is read against when its ticket gives none (a ticket dropped on the page, or read
 * from standard input without --stdin-filename): which file a relative value names relative to its ticket does
 * not depend on where the ticket is, so a folder deeper than any ".." of the two values climbs stands in for it.
 */
function standInBase(...values: string[]): string {
  const depth = values.reduce((n, v) => n + v.split(/[/\\]/).length, 1);
  return 'file:///' + 'stand-in/'.repeat(depth);
}

/**
 * Why a value as written cannot be rewritten, when it holds an entity reference other than the five predefined
 * ones, a character reference to a non-character or a bare "&" (XML 1.0 4.1): what a consumer reads there is
 * unknown to us (a DTD may define it), and writing the value back would spell it "&amp;..." and change it.
 */
function unknownReference(raw: string): string | null {
  for (let i = raw.indexOf('&'); i !== -1; i = raw.indexOf('&', i + 1)) {
    const m = /^&(lt|gt|amp|apos|quot|#[0-9]{1,7}|#x[0-9A-Fa-f]{1,6});/.exec(raw.slice(i, i + 12));
    const cp = m === null || !m[1]!.startsWith('#') ? 0x20 : m[1]![1] === 'x' ? parseInt(m[1]!.slice(2), 16) : parseInt(m[1]!.slice(1), 10);
    const isChar = cp === 0x9 || cp === 0xa || cp === 0xd || (cp >= 0x20 && cp <= 0xd7ff) || (cp >= 0xe000 && cp <= 0xfffd) || (cp >= 0x10000 && cp <= 0x10ffff);
    if (m === null || !isChar) return `the value holds ${m === null ? `"${raw.slice(i, i + 12).replace(/;.*/, ';')}"` : `"${m[0]}"`}, an entity or character reference whose meaning is unknown here, so it is not rewritten`;
  }
  return null;
}

/** A fix shown with a password masked (stripPassword) holds "****" where the file holds the password: never written. */
const MASKED_FIX = 'the fixed value still holds a password (shown masked), so it is not written; remove the password by hand';

/**
 * The edits that apply every safe fix, one per attribute value. A value reached through several rRefs is
 * changed only when the fix is safe for every use. `text` is the decoded ticket the report was made from.
 */
export function planFixes(text: string, report: TicketReport): FixPlan {
  const bySpan = new Map<string, { ref: TicketReference; uses: TicketReference[] }>();
  for (const ref of report.references) {
    if (ref.fixed === undefined) continue;
    const key = `${ref.span[0]}:${ref.span[1]}`;
    const entry = bySpan.get(key);
    if (entry) entry.uses.push(ref);
    else bySpan.set(key, { ref, uses: [ref] });
  }
  const edits: Edit[] = [];
  const skipped: Skipped[] = [];
  for (const { ref, uses } of bySpan.values()) {
    const fixed = ref.fixed!;
    const why = unknownReference(text.slice(ref.span[0], ref.span[1])) ?? (holdsPassword(fixed) ? MASKED_FIX : undefined) ?? uses.map((u) => sameFile(u, fixed, report.encoding)).find((r) => r !== null);
    const where = { line: ref.line, column: ref.column, element: ref.element, attribute: ref.attribute };
    if (why) {
      // Where validate reports the problem the fix is for: one place, one position.
      const at = ref.findings.find((f) => f.fix !== undefined) ?? ref;
      skipped.push({ ...where, line: at.line, column: at.column, value: ref.value, fixed, reason: why });
      continue;
    }
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
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}
