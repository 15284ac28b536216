// ESLint flat config (npm run lint). Starts from rules the tree passes, so that nobody's landing is blocked by a
// wall of old warnings; tighten it one rule at a time. The core (everything outside src/node and src/cli) runs in
// a browser: a Node import there is an error here, and tsconfig.core.json compiles it without Node's types.
import { builtinModules } from 'node:module';
import js from '@eslint/js';
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
);
