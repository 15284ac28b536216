// ESLint flat config (npm run lint). Starts from rules the tree passes, so that nobody's landing is blocked by a
// wall of old warnings; tighten it one rule at a time. The core (everything outside src/node and src/cli) runs in
// a browser: a Node import there is an error here, and tsconfig.core.json compiles it without Node's types.
//
// The formatter is ESLint too (ESLint Stylistic, the last block), not Prettier beside it: one config and one
// command in CI (npm run lint; npm run format fixes), no second tool whose output ESLint must be told to accept,
// and the house style the tree already has kept as it is: Prettier would rewrite every file while branches are
// being merged, and break at its print width the long one-line rule metas and tables the code writes on purpose.
// Editors fix on save through the ESLint extension they already run. Its rules are those the tree passed, or
// passed but for a few lines (fixed when the rules came in); add one when the tree passes it, never by a mass rewrite.
import { builtinModules } from 'node:module';
import js from '@eslint/js';
import stylistic from '@stylistic/eslint-plugin';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/', 'node_modules/', 'scratch/', 'coverage/', '**/*.d.ts'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { ecmaVersion: 2022, sourceType: 'module' },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
  },
  {
    rules: {
      // Spec-mirroring code matches the control characters XML and RFC 3986 forbid, on purpose.
      'no-control-regex': 'off',
      // Binary readers step an offset field by field, as the format's spec lists them, the last step included.
      'no-useless-assignment': 'off',
      // Style, not a mistake: reported, but it blocks nobody's landing while six people edit at once.
      'no-useless-escape': 'warn',
      'prefer-const': 'warn',
      // `_name` marks a value taken apart on purpose and not used (a rest pattern's leftovers).
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' }],
    },
  },
  {
    files: ['**/*.{js,mjs,cjs}'],
    languageOptions: { globals: { process: 'readonly', console: 'readonly', URL: 'readonly', Buffer: 'readonly', setTimeout: 'readonly', clearTimeout: 'readonly' } },
  },
  {
    // Tests and the bench read JSON reports and poke at values on purpose.
    files: ['test/**', 'bench/**'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    files: ['src/**/*.ts'],
    ignores: ['src/node/**', 'src/cli/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: builtinModules.map((name) => ({ name, message: 'The core runs in a browser: Node-only code goes in src/node or src/cli.' })),
          patterns: [
            { regex: '^(\\.\\.?/)+(node|cli)/', message: 'The core must not import from src/node or src/cli (data flows one way).' },
            { regex: '^node:', message: 'The core runs in a browser: Node-only code goes in src/node or src/cli.' },
          ],
        },
      ],
    },
  },
  {
    // The house style (see the top). Left out, as the tree does otherwise on purpose: space-in-parens (it writes
    // `for (init; test; )`), max-statements-per-line (`case 'json': return ...;`, `if (c) { i++; continue; }`),
    // list-style (it would put each item of a multi-line list on a line of its own, where the tree writes rows of
    // a table), indent-binary-ops (it pulls a `+ '...'` continuation back to the statement's indent), and
    // no-mixed-operators and no-confusing-arrow (taste, not layout). object-curly-spacing and
    // array-bracket-spacing are deprecated in favour of list-style, for that reason kept: ESLint prints a line
    // saying so on each run; replace them when list-style can check spacing alone.
    plugins: { '@stylistic': stylistic },
    rules: {
      '@stylistic/indent': ['error', 2, { SwitchCase: 1, offsetTernaryExpressions: true }],
      '@stylistic/quotes': ['error', 'single', { avoidEscape: true, allowTemplateLiterals: 'always' }],
      '@stylistic/semi': ['error', 'always'],
      '@stylistic/comma-dangle': ['error', 'always-multiline'],
      '@stylistic/brace-style': ['error', '1tbs', { allowSingleLine: true }],
      '@stylistic/eol-last': 'error',
      '@stylistic/no-trailing-spaces': 'error',
      '@stylistic/no-multiple-empty-lines': ['error', { max: 1, maxEOF: 0, maxBOF: 0 }],
      '@stylistic/linebreak-style': ['error', 'unix'],
      '@stylistic/no-tabs': 'error',
      '@stylistic/no-mixed-spaces-and-tabs': 'error',
      '@stylistic/padded-blocks': ['error', 'never'],
      '@stylistic/lines-between-class-members': ['error', 'always', { exceptAfterSingleLine: true }],
      '@stylistic/keyword-spacing': 'error',
      '@stylistic/arrow-spacing': 'error',
      '@stylistic/arrow-parens': ['error', 'always'],
      '@stylistic/comma-spacing': 'error',
      '@stylistic/comma-style': 'error',
      '@stylistic/semi-spacing': 'error',
      '@stylistic/semi-style': 'error',
      '@stylistic/no-extra-semi': 'error',
      '@stylistic/key-spacing': 'error',
      '@stylistic/block-spacing': 'error',
      '@stylistic/space-before-blocks': 'error',
      '@stylistic/space-before-function-paren': ['error', { anonymous: 'always', named: 'never', asyncArrow: 'always' }],
      '@stylistic/space-infix-ops': 'error',
      '@stylistic/space-unary-ops': 'error',
      '@stylistic/object-curly-spacing': ['error', 'always'],
      '@stylistic/array-bracket-spacing': ['error', 'never'],
      '@stylistic/computed-property-spacing': 'error',
      '@stylistic/function-call-spacing': 'error',
      '@stylistic/template-curly-spacing': 'error',
      '@stylistic/template-tag-spacing': 'error',
      '@stylistic/rest-spread-spacing': 'error',
      '@stylistic/switch-colon-spacing': 'error',
      '@stylistic/generator-star-spacing': ['error', { before: false, after: true }],
      '@stylistic/yield-star-spacing': ['error', 'after'],
      '@stylistic/no-whitespace-before-property': 'error',
      '@stylistic/no-multi-spaces': 'error',
      '@stylistic/spaced-comment': ['error', 'always'],
      '@stylistic/type-annotation-spacing': 'error',
      '@stylistic/type-generic-spacing': 'error',
      '@stylistic/type-named-tuple-spacing': 'error',
      '@stylistic/member-delimiter-style': 'error',
      '@stylistic/quote-props': ['error', 'as-needed'],
      '@stylistic/dot-location': ['error', 'property'],
      '@stylistic/new-parens': 'error',
      '@stylistic/no-floating-decimal': 'error',
      '@stylistic/wrap-iife': ['error', 'inside'],
      '@stylistic/one-var-declaration-per-line': 'error',
      '@stylistic/nonblock-statement-body-position': ['error', 'beside'],
      '@stylistic/multiline-ternary': ['error', 'always-multiline'],
      '@stylistic/operator-linebreak': ['error', 'before', { overrides: { '=': 'after' } }],
      // The tree writes long lines on purpose (one rule's meta, one call, a row of a table on one line). Measured
      // without strings, templates, regular expressions and URLs, the longest code line is 266 characters and the
      // longest comment 172: the limits stop a runaway line, they do not wrap the house style.
      '@stylistic/max-len': ['error', { code: 280, comments: 180, ignoreStrings: true, ignoreTemplateLiterals: true, ignoreRegExpLiterals: true, ignoreUrls: true }],
    },
  },
);
