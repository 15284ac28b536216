// A shop's choice of rules, as ESLint users set theirs: each rule at its catalog severity, at another, or off.
// The config's "rules", --rule CODE:SETTING and validateTicket's `rules` option all read these.
import { rulesByCode } from './catalog.js';
import type { Severity } from './types.js';

/** A rule's severity in a shop, or `off`: not reported at all. */
export type RuleSetting = Severity | 'off';

/** Rule codes to their setting; a rule not named keeps its catalog severity. */
export type RuleSettings = Readonly<Record<string, RuleSetting>>;

export const RULE_SETTINGS: readonly RuleSetting[] = ['off', 'info', 'warning', 'error'];

/** Levenshtein distance, stopping early once it is over `limit`. */
function distance(a: string, b: string, limit: number): number {
  if (Math.abs(a.length - b.length) > limit) return limit + 1;
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    let best = i;
    for (let j = 1; j <= b.length; j++) {
      row[j] = Math.min(previous[j]! + 1, row[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
      best = Math.min(best, row[j]!);
    }
    if (best > limit) return limit + 1;
    previous = row;
  }
  return previous[b.length]!;
}

/** The candidate nearest `name` (at most a third of its letters apart, and at least 2; one it begins counts as 1), if one is near. */
export function nearest(name: string, candidates: Iterable<string>): string | undefined {
  const limit = Math.max(2, Math.floor(name.length / 3));
  const lower = name.toLowerCase();
  let found: string | undefined;
  let least = limit + 1;
  for (const c of candidates) {
    const d = lower.length > 1 && c.startsWith(lower) && c !== lower ? 1 : distance(lower, c, limit);
    if (d < least) {
      least = d;
      found = c;
    }
  }
  return found;
}

/** Why `code` names no rule ("... (did you mean 'root-without-drive'?)"), or undefined when it names one. */
export function unknownRule(code: string): string | undefined {
  if (rulesByCode.has(code)) return undefined;
  const near = nearest(code, rulesByCode.keys());
  return `'${code}' is no rule of jdf-filespec${near !== undefined ? ` (did you mean '${near}'?)` : ''}`;
}

/** Why `text` is not a setting, or undefined when it is one. */
export function unknownSetting(text: string): string | undefined {
  if ((RULE_SETTINGS as readonly string[]).includes(text)) return undefined;
  const near = nearest(text, RULE_SETTINGS);
  return `'${text}' is not off, info, warning or error${near !== undefined ? ` (did you mean '${near}'?)` : ''}`;
}

/** --rule CODE:SETTING read, or why it cannot be. */
export function parseRuleOption(text: string): { code: string; setting: RuleSetting } | { problem: string } {
  const colon = text.lastIndexOf(':');
  if (colon <= 0) return { problem: `--rule takes CODE:SETTING (such as root-without-drive:off), not '${text}'` };
  const code = text.slice(0, colon).trim();
  const setting = text.slice(colon + 1).trim();
  const problem = unknownRule(code) ?? unknownSetting(setting);
  return problem !== undefined ? { problem: `--rule ${text}: ${problem}` } : { code, setting: setting as RuleSetting };
}
