// One check of one value: the rules run on it, and on the values its fixes make, each value's rules run once.
import { redactText, stripPassword } from '../fileurl/redact.js';
import { isEffect } from '../rules/causes.js';
import { findingOf, severityUnder } from '../rules/finding.js';
import { rules } from '../rules/catalog.js';
import { maskOf } from '../rules/facts.js';
import { signsOf } from '../rules/signs.js';
import { templatePlaceholder } from '../rules/template.js';
import { MAX_URL_LENGTH } from '../rules/url-length.js';
import type { CheckContext, CheckOptions, Edit, Finding, Report, Rule } from '../rules/types.js';
import { buildContext, type Mode } from './context.js';
import { isQuiet } from './plain.js';
import { spacesOnly } from './spaces.js';

/** A value's findings, and what applying their fixes needs to know of them. */
export interface Fixes {
  /** In the catalog's order: the order fixes are applied in. */
  readonly findings: readonly Finding[];
  /** The findings whose fix must be checked again (its rule's fix is not clean). */
  readonly recheck: readonly Finding[];
  /** By index in `findings`: the one span a fix taken as it is replaces, where its rule said (composeFixes reads it). */
  readonly edits?: ReadonlyArray<Edit | undefined>;
}

export interface RuleRun extends Fixes {
  ctx: CheckContext;
  findings: Finding[];
  recheck: Finding[];
}

/** The rules that can offer a fix: all that the rounds of applyAllFixes look for. None of them reads the resolution. */
const fixableRules = rules.filter((r) => r.meta.fixable);

// Each rule's signs (0: always called), side by side with the rule lists, so the loop reads no rule to skip it.
const WHEN = Int32Array.from(rules, (r) => r.when ?? 0);
const FIXABLE_WHEN = Int32Array.from(fixableRules, (r) => r.when ?? 0);

/**
 * A clean rule's fix brings no new error, unless it makes the value longer than the schemas allow, or a password
 * had to be dropped from it (createFinding), which is more than an escape.
 */
const takesFixAsItIs = (rule: Rule, fix: string, reported: string | undefined): boolean =>
  rule.cleanFix === true && fix === reported && fix.length <= MAX_URL_LENGTH;

const NONE: readonly Finding[] = Object.freeze([]);
const QUIET: Fixes = Object.freeze({ findings: NONE, recheck: NONE });

export class CheckSession {
  /** Every rule's run, by value: the fast way asks them once per check (made when a fix is checked). */
  private runs: Map<string, Fixes> | undefined;
  /** The values fixes made that the fast way found quiet: applyAllFixes asks again of the fixes convergeFixes checked. */
  private quiet: string[] | undefined;

  constructor(readonly options: CheckOptions, readonly mode: Mode) {}

  /** Every rule on the value being checked: its findings are its own to change (convergeFixes), so not kept. */
  first(value: string): RuleRun {
    return this.run(value, rules);
  }

  /**
   * The findings of every rule on a value a fix made (the fast way knows a quiet value, plain.ts, has none, and
   * one that is quiet once its spaces are escaped has unescaped-space alone, spaces.ts).
   */
  all(value: string): readonly Finding[] {
    if (!this.mode.fast) return this.run(value, rules).findings;
    if (this.isQuiet(value)) return NONE;
    this.runs ??= new Map();
    let found = this.runs.get(value);
    if (found === undefined) {
      found = spacesOnly(value, this.options) ?? this.run(value, rules);
      this.runs.set(value, found);
    }
    return found.findings;
  }

  /** The findings that can carry a fix, in the catalog's order (the fast way runs only the fixable rules). */
  fixable(value: string): Fixes {
    if (!this.mode.fast) return this.run(value, rules);
    // A value all() ran the rules on is not quiet (all() asks first): no need to ask again.
    const known = this.runs?.get(value);
    if (known !== undefined) return known;
    return this.isQuiet(value) ? QUIET : spacesOnly(value, this.options) ?? this.run(value, fixableRules);
  }

  private isQuiet(value: string): boolean {
    if (this.quiet?.includes(value)) return true;
    if (!isQuiet(value, this.options)) return false;
    (this.quiet ??= []).push(value);
    return true;
  }

  private run(value: string, only: readonly Rule[]): RuleRun {
    const ctx = buildContext(value, this.options, this.mode, only === rules);
    const findings: Finding[] = [];
    const recheck: Finding[] = [];
    let edits: Array<Edit | undefined> | undefined;
    const fast = this.mode.fast;
    let rule: Rule = only[0]!;
    const report = (r: Report): void => {
      const severity = severityUnder(rule.meta, ctx.profile, r.severity);
      if (severity === null) return;
      const fix = r.fix !== undefined && r.fix !== value ? r.fix : undefined;
      const finding = findingOf(rule, r.args ?? {}, severity, r.offset, fix);
      if (r.suggestions !== undefined) finding.suggestions = r.suggestions.map((s) => ({ desc: redactText(s.desc), fix: stripPassword(s.fix) })); // a desc names the server, userinfo and all
      findings.push(finding);
      if (finding.fix === undefined) return;
      if (!(fast && takesFixAsItIs(rule, finding.fix, fix))) recheck.push(finding);
      else if (r.edit !== undefined) (edits ??= [])[findings.length - 1] = r.edit;
    };
    // A template is not a URL: its finding is its only one (the rule is first in the catalog).
    if (!fast) {
      for (rule of only) {
        rule.check(ctx, report);
        if (rule === templatePlaceholder && findings.length > 0) break;
      }
    } else {
      // Only the rules that might report on a value with these signs.
      const signs = signsOf(ctx, maskOf(ctx.facts));
      const when = only === rules ? WHEN : FIXABLE_WHEN;
      for (let k = 0; k < only.length; k++) {
        const gate = when[k]!;
        if (gate !== 0 && (gate & signs) === 0) continue;
        rule = only[k]!;
        rule.check(ctx, report);
        if (rule === templatePlaceholder && findings.length > 0) break;
      }
    }
    if (findings.length > 1) dropEffects(findings, recheck, edits);
    return edits === undefined ? { ctx, findings, recheck } : { ctx, findings, recheck, edits };
  }
}

/** One cause, one finding (src/rules/causes.ts): a finding another one accounts for is dropped, with its fix. */
function dropEffects(findings: Finding[], recheck: Finding[], edits: Array<Edit | undefined> | undefined): void {
  for (let i = findings.length - 1; i >= 0; i--) {
    const f = findings[i]!;
    if (!isEffect(f, findings)) continue;
    findings.splice(i, 1);
    edits?.splice(i, 1);
    const r = recheck.indexOf(f);
    if (r !== -1) recheck.splice(r, 1);
  }
}
