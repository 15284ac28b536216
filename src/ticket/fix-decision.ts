// Whether fix writes a value's fix: one decision, made when the ticket is validated (settleFixes), so that what
// the report calls fixed (`fixed`) is what `fix` writes, and a fix it would refuse is reported as refused
// (`fixRefused`, with the reason) instead. planFixes (rewrite.ts) reads it.
import { holdsPassword } from '../fileurl/redact.js';
import { resolveReference } from '../uri/resolve.js';
import { consumerIdentities, fileIdentity } from './readings.js';
import type { TicketReference } from './validate.js';

/** One attribute value, whichever rRef reached it. */
export const spanKey = (ref: TicketReference): string => `${ref.span[0]}:${ref.span[1]}`;

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
  // The strict reading first (the usual answer): consumerIdentities holds it too, and works out four more.
  if (fileIdentity(base !== null ? resolveReference(ref.value, base) : ref.value, charset) === fixedTarget) return null;
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
 * Why fix leaves the value that `uses` share as it is rather than write `fixed`, or null where it writes it: an
 * entity or character reference of unknown meaning in the value as written (`raw`), a masked password in the fix,
 * or a use for which no consumer reads the value as the file the fix names. A value reached through several rRefs
 * is changed only when the fix is safe for every use.
 */
function whyNotFixed(raw: string, uses: readonly TicketReference[], fixed: string, charset: string): string | null {
  return unknownReference(raw) ?? (holdsPassword(fixed) ? MASKED_FIX : null) ?? uses.map((u) => sameFile(u, fixed, charset)).find((r) => r !== null) ?? null;
}

/**
 * The decision, made once for the references of the decoded ticket `text` read in `charset`: every use of a value whose fix would be
 * refused loses `fixed` and carries `fixRefused` (the fix, and why). The fix of a value is its first use's.
 */
export function settleFixes(text: string, references: readonly TicketReference[], charset: string): void {
  const bySpan = new Map<string, TicketReference[]>();
  for (const ref of references) {
    if (ref.fixed === undefined) continue;
    const key = spanKey(ref);
    const uses = bySpan.get(key);
    if (uses) uses.push(ref);
    else bySpan.set(key, [ref]);
  }
  for (const uses of bySpan.values()) settleFix(text, uses, charset);
}

/**
 * The decision for the uses of one value (every reference with `fixed` at the same span, in the order of the
 * walk), in a ticket read in `charset`. validateTicketStream makes it as soon as no other use can follow.
 */
export function settleFix(text: string, uses: readonly TicketReference[], charset: string): void {
  const first = uses[0]!;
  const fixed = first.fixed!;
  const reason = whyNotFixed(text.slice(first.span[0], first.span[1]), uses, fixed, charset);
  if (reason === null) return;
  for (const use of uses) {
    delete use.fixed;
    use.fixRefused = { fixed, reason };
  }
}
