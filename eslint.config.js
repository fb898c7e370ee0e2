// Lint: ESLint's and typescript-eslint's recommended rules, type-aware for TypeScript.
// Why each rule that differs from the recommended set does: docs/decisions.md, "Lint and format".
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['**/node_modules/', '**/dist/', 'results/', 'bench/results/', 'test-artifacts/', '.gym/'] },
  { linterOptions: { reportUnusedDisableDirectives: 'error' } },
  {
    files: ['**/*.ts'],
    extends: [js.configs.recommended, ...tseslint.configs.recommendedTypeChecked],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      // node:test's test/describe/it return promises that the runner itself awaits
      '@typescript-eslint/no-floating-promises': ['error', { allowForKnownSafeCalls: [{ from: 'package', package: 'node:test', name: ['test', 'describe', 'it', 'suite'] }] }],
      // a leading underscore marks a binding kept on purpose (an omitted rest sibling, a required parameter)
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrorsIgnorePattern: '^_', ignoreRestSiblings: true }],
      // type-only imports stay separate lines, as the code writes them
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'separate-type-imports', disallowTypeAnnotations: false }],
      eqeqeq: ['error', 'always', { null: 'ignore' }],
      'no-restricted-syntax': ['error', { selector: 'ExportAllDeclaration', message: 'Name what a module re-exports: no export *.' }],
      // String(unknown) is how this code turns a JSON value into text on purpose
      '@typescript-eslint/no-base-to-string': 'off',
      // a binding a closure reads before its one assignment stays `let`
      'prefer-const': ['error', { ignoreReadBeforeAssign: true }],
      // passing on a caught value as the rejection keeps what was thrown
      '@typescript-eslint/prefer-promise-reject-errors': ['error', { allowThrowingAny: true, allowThrowingUnknown: true }],
      // ANSI escapes and Python's whitespace set are matched on purpose
      'no-control-regex': 'off',
      // rendered trees are matched with their literal runs of spaces
      'no-regex-spaces': 'off',
    },
  },
  {
    // tests read JSON replies as `any` and assert on them: a wrong guess fails the assertion
    files: ['**/test/**/*.ts', 'bench/**/*.ts'],
    rules: {
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      // async stubs keep the shape of the API they stand in for
      '@typescript-eslint/require-await': 'off',
    },
  },
  {
    files: ['**/*.mjs', '**/*.js'],
    extends: [js.configs.recommended],
    languageOptions: { globals: { process: 'readonly', console: 'readonly', URL: 'readonly', setTimeout: 'readonly' } },
  },
);
