// The layers of DESIGN.md §8, as import rules: each block names the folders a layer may not reach.
// Kept apart from eslint.config.mjs so test/unit/lint/layers.test.ts can run them on snippets.
// Relative imports only climb to a top-level folder: `../db/…` from parsers/x.ts, `../../db/…`
// from parsers/pdf/x.ts, so one pattern per folder list covers every depth.
const folders = (names) => `^(\\.\\./)+(${names.join('|')})(/|$)`;

const CLIENT = {
  regex: folders(['client']),
  message: 'Only client/ (and tests, benchmarks, bin/) import client/: put shared code in a lower layer.',
};

/** Content code: pure functions of the bytes it is given, runnable in a CPU-pool thread. */
const pure = {
  files: ['parsers/**/*.ts', 'chunker/**/*.ts', 'tokenizer/**/*.ts', 'sparse/**/*.ts'],
  rules: {
    'no-restricted-imports': [
      'error',
      {
        patterns: [
          {
            regex: folders([
              'db',
              'stores',
              'worker',
              'client',
              'activities',
              'composition',
              'registration',
              'search',
              'embedders',
              'outbound',
              'workflows',
              'config',
            ]),
            message:
              'parsers/, chunker/, tokenizer/ and sparse/ do no I/O: they take bytes and limits, not databases, stores, Temporal or config.',
          },
          {
            regex: '^(@temporalio/|kysely$|pg$|@aws-sdk/|@qdrant/|@opensearch-project/|undici$)',
            message:
              'parsers/, chunker/, tokenizer/ and sparse/ do no I/O: no database, store, HTTP or Temporal client.',
          },
        ],
      },
    ],
  },
};

/** Rows and SQL only: the adapters and the processes build on db/, never the other way round. */
const db = {
  files: ['db/**/*.ts'],
  rules: {
    'no-restricted-imports': [
      'error',
      {
        patterns: [
          {
            regex: folders([
              'stores',
              'worker',
              'client',
              'activities',
              'composition',
              'registration',
              'search',
              'embedders',
              'workflows',
            ]),
            message: 'db/ imports no adapter or process: stores/, worker/ and the rest build on it.',
          },
          { regex: '^@temporalio/', message: 'db/ knows nothing of Temporal.' },
        ],
      },
    ],
  },
};

/** Activities reach ports (stores/ports, embedders, db/repositories); the processes wire them. */
const activities = {
  files: ['activities/**/*.ts'],
  rules: {
    'no-restricted-imports': [
      'error',
      {
        patterns: [
          {
            regex: folders(['worker', 'client', 'composition']),
            message:
              'activities/ get their adapters through ActivityDeps: they import no process (worker/, client/, composition/).',
          },
        ],
      },
    ],
  },
};

/** Everything else except client/ itself, tests, benchmarks and scripts. */
const notClient = {
  files: ['**/*.ts'],
  ignores: [
    'client/**',
    'test/**',
    'bench/**',
    'scripts/**',
    'workflows/**',
    'parsers/**',
    'chunker/**',
    'tokenizer/**',
    'sparse/**',
    'db/**',
    'activities/**',
  ],
  rules: { 'no-restricted-imports': ['error', { patterns: [CLIENT] }] },
};

module.exports = { layerRules: [notClient, pure, db, activities] };
