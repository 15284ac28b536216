// Whether fix writes a value's fix: one decision, made when the ticket is validated (settleFixes), so that what
// the report calls fixed (`fixed`) is what `fix` writes, and a fix it would refuse is reported as refused
// (`fixRefused`, with the reason) instead. planFixes (rewrite.ts) reads it.
import { holdsPassword } from '../fileurl/redact.js';
import { resolveReference } from '../uri/resolve.js';
import type { ReadingsShelf } from './readings-shelf.js';
import { folderIdentity, UseReadings } from './use-readings.js';
import { windowsTarget } from './windows-reading.js';
import type { TicketReference } from './validate.js';

/** One attribute value, whichever rRef reached it. */
export const spanKey = (ref: TicketReference): string => `${ref.span[0]}:${ref.span[1]}`;

/**
 * Why `fixed` may not replace the reference's value, or null where it names the file a consumer reads the value as.
 * Escapes are read in the ticket's encoding, `charset` (JDF appendix section 3). `memo` keeps each use's readings
 * for the next fix tried on it.
 */
function sameFile(ref: TicketReference, fixed: string, charset: string, memo: ReadingsMemo): string | null {
  if (ref.role === 'directory') {
    // Only the trailing "/" is added: the same folder; or a Windows folder every reading agrees on.
    const own = memo.of(ref, ref.value.trim(), ref.base, false, charset);
    if (folderIdentity(fixed, charset) === own.ownFolder()) return null;
    return sameWindowsFile(own, fixed, charset) ? null : 'the fixed Directory would name another folder';
  }
  const base = ref.base ?? (ref.kind === 'absolute' ? null : standInBase(ref.value, fixed));
  // Strict RFC 3986, WHATWG, a naive decode, a Windows path, a Directory string join (readings.ts, consumerHrefs).
  const readings = memo.of(ref, ref.value, base, ref.baseSource === 'directory', charset);
  if (readings.names(base !== null ? resolveReference(fixed, base) : fixed)) return null;
  if (sameWindowsFile(readings, fixed, charset)) return null;
  return /[#?]/.test(ref.value)
    ? 'a raw "#" or "?" may start a fragment or query, so no consumer reads the original as the file the fixed value names'
    : 'no consumer reads the original value as the file the fixed value names';
}

/** The readings of each use of one value, kept while its fixes are decided (a use's base may depend on the fix: standInBase). */
class ReadingsMemo {
  // Most values have one use: it is kept in fields, a Map made only for a second.
  private firstUse: TicketReference | undefined;
  private firstReadings: UseReadings | undefined;
  private otherUses: Map<TicketReference, UseReadings> | undefined;

  constructor(private readonly shelf: ReadingsShelf | undefined) {}

  of(ref: TicketReference, value: string, base: string | null, withJoin: boolean, charset: string): UseReadings {
    const kept = ref === this.firstUse ? this.firstReadings : this.otherUses?.get(ref);
    if (kept !== undefined && kept.base === base) return kept;
    // A label names its charset in any case: as the WHATWG reading's (utf-8), the report's UTF-8 matches it.
    const shared = base !== null ? this.shelf?.find(value, base, withJoin) : undefined;
    const made = new UseReadings(value, base, withJoin, charset.toLowerCase(), shared);
    if (this.firstUse === undefined || this.firstUse === ref) {
      this.firstUse = ref;
      this.firstReadings = made;
    } else {
      (this.otherUses ??= new Map()).set(ref, made);
    }
    return made;
  }
}

/**
 * Whether every reading of the value that names a file names the Windows path (drive or UNC share) the fixed value
 * names: a Windows path written with "\" (`file:///C:/Jobs/Current\`, `file://\\HOST\share\x`), with its
 * backslashes escaped (`file://%5C%5CHOST%5Cshare%5Cx`, the host decoded as RFC 3986 3.2.2 reads a reg-name) or
 * with the scheme twice (`file://file:/c:/x`, whose strict reading has a port and names no file). Folder names are
 * compared without a trailing separator, case-folded as Windows compares them.
 */
function sameWindowsFile(readings: UseReadings, fixed: string, charset: string): boolean {
  const target = windowsTarget(readings.base !== null ? resolveReference(fixed, readings.base) : fixed, charset);
  if (target === null || target === undefined) return false;
  return readings.windowsPath() === target;
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
function whyNotFixed(raw: string, uses: readonly TicketReference[], fixed: string, charset: string, memo: ReadingsMemo): string | null {
  return unknownReference(raw) ?? whyFixUnsafe(uses, fixed, charset, memo);
}

/** whyNotFixed for a value whose text holds no reference of unknown meaning: the fix itself, then each use in turn. */
function whyFixUnsafe(uses: readonly TicketReference[], fixed: string, charset: string, memo: ReadingsMemo): string | null {
  if (holdsPassword(fixed)) return MASKED_FIX;
  for (const use of uses) {
    const reason = sameFile(use, fixed, charset, memo);
    if (reason !== null) return reason;
  }
  return null;
}

/**
 * The decision, made once for the references of the decoded ticket `text` read in `charset`: every use of a value
 * whose fix would be refused loses `fixed` and carries `fixRefused` (the fix, and why), and its findings offer no
 * `fix` of their own; on a value that is fixed, a finding offers its own fix only where the same decision would
 * write it. Every format (JSON, SARIF, text, the page) shows what it reads here. The fix of a value is its first use's.
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
 * walk), in a ticket read in `charset`. validateTicketStream makes it as soon as no other use can follow, with the
 * readings the walk's check of the value left on its `shelf`.
 */
export function settleFix(text: string, uses: readonly TicketReference[], charset: string, shelf?: ReadingsShelf): void {
  const first = uses[0]!;
  const fixed = first.fixed!;
  const raw = text.slice(first.span[0], first.span[1]);
  const memo = new ReadingsMemo(shelf);
  const reason = whyNotFixed(raw, uses, fixed, charset, memo);
  if (reason === null) {
    settleFindingFixes(uses, fixed, charset, memo);
    return;
  }
  for (const use of uses) {
    delete use.fixed;
    use.fixRefused = { fixed, reason };
    for (const f of use.findings) delete f.fix;
  }
}

/**
 * A finding's own fix, taken alone, stays where fix would write it too; where it would not (a step that leaves the
 * value naming another file, such as the backslash fix of "E:\\a\\b.pdf" without the scheme's), the finding
 * offers the value's whole fix, `fixed`, which the decision accepted and which corrects this problem as well.
 */
function settleFindingFixes(uses: readonly TicketReference[], fixed: string, charset: string, memo: ReadingsMemo): void {
  // Each fix decided, and whether it is written: a value has a few findings, so a list (a Map cost more here),
  // the same two lists for every value (nothing here settles another value's fixes), written over from the start:
  // setting an array's length to 0 lets its room go, and the next push makes room for 17 again.
  const fixes = DECIDED;
  const written = WRITTEN;
  fixes[0] = fixed;
  written[0] = true;
  let count = 1;
  try {
    for (const use of uses) {
      for (const f of use.findings) {
        if (f.fix === undefined) continue;
        let at = 0;
        while (at < count && fixes[at] !== f.fix) at++;
        // The value's text was found free of unknown references when its own fix was accepted.
        if (at === count) {
          fixes[count] = f.fix;
          written[count++] = whyFixUnsafe(uses, f.fix, charset, memo) === null;
        }
        if (!written[at]) f.fix = fixed;
      }
    }
  } finally {
    for (let k = 0; k < count; k++) fixes[k] = ''; // no value kept alive
  }
}

const DECIDED: string[] = [];
const WRITTEN: boolean[] = [];
