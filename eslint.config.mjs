import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import prettierOff from 'eslint-config-prettier';
import { importX, createNodeResolver } from 'eslint-plugin-import-x';
import layers from './eslint.layers.js';

export default tseslint.config(
  {
    ignores: [
      'node_modules/**',
      'dist/**',
      '.sluice/**',
      'bench-results/**',
      'test-artifacts/**',
      '*.config.js',
      'eslint.config.mjs',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts'],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', ignoreRestSiblings: true },
      ],
      'no-restricted-syntax': [
        'error',
        {
          selector: "MemberExpression[object.name='process'][property.name='env']",
          message: 'Read configuration through config/config.ts only.',
        },
      ],
    },
  },
  {
    // The few CommonJS files (a Jest reporter) run in Node, not in a browser.
    files: ['**/*.js'],
    languageOptions: {
      sourceType: 'commonjs',
      globals: { module: 'writable', require: 'readonly', process: 'readonly' },
    },
  },
  {
    files: ['config/config.ts', 'test/**/*.ts', 'testkit/**/*.ts', 'bench/**/*.ts'],
    rules: { 'no-restricted-syntax': 'off' },
  },
  {
    // A cycle makes load order decide what a module sees at import time, and blurs which of two
    // files is the lower layer. Type-only imports count too: they are the first step to a real one.
    files: ['**/*.ts'],
    plugins: { 'import-x': importX },
    settings: { 'import-x/resolver-next': [createNodeResolver({ extensions: ['.ts', '.js', '.json'] })] },
    rules: { 'import-x/no-cycle': ['error', { ignoreExternal: true }] },
  },
  // The layers (docs/design.md §8): which folder may import which.
  ...layers.layerRules,
  {
    // Workflow code runs in Temporal's deterministic sandbox: it may import only the workflow
    // SDK, activity *types* and the pure contracts. Anything else could do I/O or be
    // non-deterministic and break replay.
    files: ['workflows/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^(?!@temporalio/workflow$|\\.\\./contracts/|\\./|\\.\\./activities(/|$))',
              message: 'workflows/ may import only @temporalio/workflow, ../contracts/* and activity types.',
            },
            {
              group: ['../activities', '../activities/*'],
              allowTypeImports: true,
              message: 'Import activities as types only (import type).',
            },
          ],
        },
      ],
    },
  },
  // Layout is prettier's (`npm run format`, checked by `npm run lint`): no ESLint rule argues with it.
  prettierOff,
);
