// A rule's cases, in the manner of ESLint's RuleTester: valid values must not yield the rule's code, and each
// invalid value must yield it at the offset it pins, with the fix it pins (or none, where it pins null).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { Finding } from '../src/index.js';
import type { RuleCode } from '../src/rules/codes.js';

export interface ValidCase<O> {
  value: string;
  options?: O;
}

export interface InvalidCase<O> extends ValidCase<O> {
  /** Where the finding starts in the value; required. */
  offset?: number;
  /** The finding's fix; null: it has none; absent: not pinned (only for rules without fixes). */
  fix?: string | null;
  /** The values of the finding's suggestions, in order (a value with two plausible meanings); absent: none. */
  suggestions?: readonly string[];
}

export interface RuleCases<O> {
  valid: ReadonlyArray<ValidCase<O>>;
  invalid: ReadonlyArray<InvalidCase<O>>;
  /** The rule offers fixes: every invalid case must pin its fix (or null). */
  fixable?: boolean;
}

const show = (value: string, options: unknown) => JSON.stringify(value) + (options !== undefined ? ` ${JSON.stringify(options)}` : '');

/** One uvu test per case: `check` gives the findings of a value. */
export function ruleTester<O>(code: RuleCode, check: (value: string, options: O | undefined) => readonly Finding[], cases: RuleCases<O>): void {
  for (const c of cases.valid) {
    test(`${code}: valid ${show(c.value, c.options)}`, () => {
      const found = check(c.value, c.options).map((f) => f.code);
      assert.not.ok(found.includes(code), `must not give ${code}, got ${found}`);
    });
  }
  for (const c of cases.invalid) {
    test(`${code}: invalid ${show(c.value, c.options)}`, () => {
      assert.ok(c.offset !== undefined, 'an invalid case pins its offset');
      if (cases.fixable) assert.ok(c.fix !== undefined, 'an invalid case of a fixable rule pins its fix (or null)');
      const all = check(c.value, c.options);
      const f = all.find((x) => x.code === code);
      assert.ok(f, `should give ${code}, got ${all.map((x) => x.code)}`);
      assert.is(f!.offset, c.offset, 'offset');
      if (c.fix !== undefined) assert.is(f!.fix ?? null, c.fix, 'fix');
      assert.equal(f!.suggestions?.map((s) => s.fix), c.suggestions, 'suggestions');
      for (const s of c.suggestions ?? []) assert.not.ok(check(s, c.options).some((x) => x.code === code), `the suggestion ${JSON.stringify(s)} still gives ${code}`);
      if (typeof c.fix === 'string') {
        const again = check(c.fix, c.options).map((x) => x.code);
        assert.not.ok(again.includes(code), `the fix ${JSON.stringify(c.fix)} still gives ${code}`);
      }
    });
  }
}
