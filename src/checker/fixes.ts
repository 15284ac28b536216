// The fixes of one value's findings: each made safe to apply alone, and all of them applied (what `fixed` is).
import { stripPassword } from '../fileurl/redact.js';
import type { Finding } from '../rules/types.js';
import type { CheckSession, RuleRun } from './session.js';

const MAX_FIX_ROUNDS = 12;

/**
 * A single finding's fix is applied alone (a code-scanning user takes one at a time), so it must be no worse than
 * the value: where it would bring an error the value did not have (the backslash fix alone turns
 * file://\\HOST\share into file:////HOST/share, a UNC string in the path), the fixes of those new errors are
 * applied to it too; where that does not settle, the finding offers no fix.
 */
export function convergeFixes(session: CheckSession, run: RuleRun): void {
  if (run.recheck.length === 0) return;
  const errorsBefore = new Set(run.findings.filter((f) => f.severity === 'error').map((f) => f.code));
  for (const finding of run.recheck) {
    let current = finding.fix!;
    let settled = false;
    for (let round = 0; round < MAX_FIX_ROUNDS; round++) {
      const added = session.all(current).findings.filter((f) => f.severity === 'error' && !errorsBefore.has(f.code));
      if (added.length === 0) { settled = true; break; }
      const next = added.find((f) => f.fix !== undefined);
      if (next === undefined) break;
      current = next.fix!;
    }
    if (!settled) delete finding.fix;
    else if (current !== finding.fix) finding.fix = stripPassword(current);
  }
}

const firstFix = (findings: Finding[]): Finding | undefined => findings.find((f) => f.fix !== undefined && f.severity !== 'info');

/**
 * Applies the first fix of an error or warning until none is left: what a fixing tool writes. The fast way first
 * applies every clean fix at once, where they change separate parts of the value, and goes on from there.
 */
export function applyAllFixes(session: CheckSession, value: string, run: RuleRun): string | undefined {
  let current = value;
  let pending = run.findings;
  let round = 0;
  const composed = session.mode.fast ? composeFixes(value, run) : undefined;
  if (composed !== undefined) {
    current = stripPassword(composed); // as every fix is (createFinding)
    pending = session.fixable(current);
    round = 1;
  }
  for (; round < MAX_FIX_ROUNDS; round++) {
    const next = firstFix(pending);
    if (!next) break;
    current = next.fix!;
    pending = session.fixable(current);
  }
  return current === value ? undefined : current;
}

interface Edit {
  start: number;
  end: number;
  text: string;
}

/**
 * Every error and warning fix applied in one pass, each taken as the one edit that turns the value into it (what
 * lies between their common start and end). Only clean fixes (escapes, which change no other rule's reading of
 * the value) compose: undefined unless there are two or more, all clean, and no two touch.
 */
function composeFixes(value: string, run: RuleRun): string | undefined {
  const edits: Edit[] = [];
  for (const f of run.findings) {
    if (f.fix === undefined || f.severity === 'info') continue;
    if (run.recheck.includes(f)) return undefined;
    edits.push(editOf(value, f.fix));
  }
  if (edits.length < 2) return undefined;
  edits.sort((a, b) => a.start - b.start);
  let out = '';
  let copied = 0;
  let previousEnd = -1;
  for (const edit of edits) {
    if (edit.start <= previousEnd) return undefined;
    out += value.slice(copied, edit.start) + edit.text;
    copied = previousEnd = edit.end;
  }
  return out + value.slice(copied);
}

function editOf(value: string, fixed: string): Edit {
  const limit = Math.min(value.length, fixed.length);
  let start = 0;
  while (start < limit && value.charCodeAt(start) === fixed.charCodeAt(start)) start++;
  let tail = 0;
  while (tail < limit - start && value.charCodeAt(value.length - 1 - tail) === fixed.charCodeAt(fixed.length - 1 - tail)) tail++;
  return { start, end: value.length - tail, text: fixed.slice(start, fixed.length - tail) };
}
