// The fixes of one value's findings: each made safe to apply alone, and all of them applied (what `fixed` is).
import { stripPassword } from '../fileurl/redact.js';
import type { Edit, Finding } from '../rules/types.js';
import { sortFew } from '../util/sort-few.js';
import type { CheckSession, Fixes, RuleRun } from './session.js';
import type { RuleCode } from '../rules/codes.js';

const MAX_FIX_ROUNDS = 12;

/**
 * A single finding's fix is applied alone (a code-scanning user takes one at a time), so it must be no worse than
 * the value: where it would bring an error the value did not have (the backslash fix alone turns
 * file://\\HOST\share\a?b\c, whose query the UNC fix leaves, into file:////HOST/share/a?b/c, a UNC string in the
 * path), the fixes of those new errors are applied to it too; where that does not settle, the finding offers no fix.
 */
export function convergeFixes(session: CheckSession, run: RuleRun): void {
  if (run.recheck.length === 0) return;
  for (const finding of run.recheck) {
    let current = finding.fix!;
    let settled = false;
    for (let round = 0; round < MAX_FIX_ROUNDS; round++) {
      const next = addedError(session.all(current), run.findings);
      if (next === undefined) { settled = true; break; }
      if (next.fix === undefined) break;
      current = next.fix;
    }
    if (!settled) delete finding.fix;
    else if (current !== finding.fix) finding.fix = stripPassword(current);
  }
}

const hasError = (findings: readonly Finding[], code: RuleCode): boolean => findings.some((f) => f.severity === 'error' && f.code === code);

/**
 * The errors of `found` that `before` had no error of the same code for (what a fix brought): the first of them
 * with a fix, else the first; undefined when there is none.
 */
function addedError(found: readonly Finding[], before: readonly Finding[]): Finding | undefined {
  let first: Finding | undefined;
  for (const f of found) {
    if (f.severity !== 'error' || hasError(before, f.code)) continue;
    if (f.fix !== undefined) return f;
    first ??= f;
  }
  return first;
}

const firstFix = (findings: readonly Finding[]): Finding | undefined => findings.find((f) => f.fix !== undefined && f.severity !== 'info');

/**
 * Applies the first fix of an error or warning until none is left: what a fixing tool writes. The fast way applies
 * every clean fix at once, where they change separate parts of the value: when every fix of a value is clean, that
 * is the answer (a clean fix changes no other rule's reading, so no fix is left); otherwise it goes on from there.
 */
export function applyAllFixes(session: CheckSession, value: string, run: RuleRun): string | undefined {
  let current = value;
  let pending: Fixes = run;
  let round = 0;
  const composed = session.mode.fast ? composeFixes(value, run) : undefined;
  if (composed !== undefined) {
    current = stripPassword(composed.value); // as every fix is (createFinding)
    if (composed.allClean) return current === value ? undefined : current;
    pending = session.fixable(current);
    round = 1;
  }
  for (; round < MAX_FIX_ROUNDS; round++) {
    // Each of the clean fixes left would take a round of its own; they are all applied in one where that many are left.
    const clean = round > 0 && session.mode.fast ? composeFixes(current, pending) : undefined;
    if (clean?.allClean && round + clean.count <= MAX_FIX_ROUNDS) return finished(value, stripPassword(clean.value));
    const next = firstFix(pending.findings);
    if (!next) break;
    current = next.fix!;
    pending = session.fixable(current);
  }
  return finished(value, current);
}

const finished = (value: string, fixed: string): string | undefined => (fixed === value ? undefined : fixed);

/**
 * Every error and warning fix applied in one pass, each taken as the one edit that turns the value into it (what
 * lies between their common start and end). Only clean fixes (escapes, which change no other rule's reading of
 * the value) compose: undefined unless there is one or more, all clean, and no two touch. `allClean`: every
 * finding that offered a fix offered a clean one, so nothing is left to fix after them.
 */
function composeFixes(value: string, run: Fixes): { value: string; allClean: boolean; count: number } | undefined {
  let only: Finding | undefined;
  let count = 0;
  for (const f of run.findings) {
    if (f.fix === undefined || f.severity === 'info') continue;
    if (run.recheck.includes(f)) return undefined;
    only = f;
    count++;
  }
  if (count === 0) return undefined;
  const allClean = run.recheck.length === 0;
  if (count === 1) return { value: only!.fix!, allClean, count };
  const edits: Edit[] = [];
  for (let i = 0; i < run.findings.length; i++) {
    const f = run.findings[i]!;
    if (f.fix !== undefined && f.severity !== 'info') edits.push(run.edits?.[i] ?? editOf(value, f.fix));
  }
  sortFew(edits, (a, b) => a.start - b.start);
  let out = '';
  let copied = 0;
  let previousEnd = -1;
  for (const edit of edits) {
    if (edit.start <= previousEnd) return undefined;
    out += value.slice(copied, edit.start) + edit.text;
    copied = previousEnd = edit.end;
  }
  return { value: out + value.slice(copied), allClean, count };
}

function editOf(value: string, fixed: string): Edit {
  const limit = Math.min(value.length, fixed.length);
  let start = 0;
  while (start < limit && value.charCodeAt(start) === fixed.charCodeAt(start)) start++;
  let tail = 0;
  while (tail < limit - start && value.charCodeAt(value.length - 1 - tail) === fixed.charCodeAt(fixed.length - 1 - tail)) tail++;
  return { start, end: value.length - tail, text: fixed.slice(start, fixed.length - tail) };
}
