// The layers of docs/design.md §8, as import rules: each block names the folders a layer may not reach.
// Kept apart from eslint.config.mjs so test/unit/lint/layers.test.ts can run them on snippets.
// Relative imports only climb to a top-level folder: `../db/…` from parsers/x.ts, `../../db/…`
// from parsers/pdf/x.ts, so one pattern per folder list covers every depth.
const folders = (names) => `^(\\.\\./)+(${names.join('|')})(/|$)`;

// The three process surfaces: client/ (start, signal, query and wait for runs) under api/ (the HTTP
// server) and cli/ (the commands). cli/ is outermost: it may start the API (`sluice serve`).
const CLIENT = {
  regex: folders(['client']),
  message:
    'Only the surfaces (client/, api/, cli/; tests, benchmarks) import client/: put shared code in a lower layer.',
};
const API = {
  regex: folders(['api']),
  message: 'Only api/ and cli/ (tests, benchmarks) import api/: what both need belongs in client/ or lower.',
};
const CLI = {
  regex: folders(['cli']),
  message: 'Nothing imports cli/ (tests and benchmarks aside): it is the outermost surface.',
};

/** Test and benchmark code: production folders never reach it. */
const TEST_CODE = {
  regex: folders(['test', 'testkit', 'bench', 'eval']),
  message: 'Production code imports nothing from test/, testkit/, bench/ or eval/: they build on it, not the reverse.',
};

/** Content code: pure functions of the bytes it is given, runnable in a CPU-pool thread. */
const pure = {
  files: ['parsers/**/*.ts', 'ocr/**/*.ts', 'chunker/**/*.ts', 'tokenizer/**/*.ts', 'sparse/**/*.ts'],
  rules: {
    'no-restricted-imports': [
      'error',
      {
        patterns: [
          TEST_CODE,
          {
            regex: folders([
              'db',
              'stores',
              'worker',
              'client',
              'api',
              'cli',
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
              'parsers/, ocr/, chunker/, tokenizer/ and sparse/ do no I/O: they take bytes and limits, not databases, stores, Temporal or config.',
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
          TEST_CODE,
          {
            regex: folders([
              'stores',
              'worker',
              'client',
              'api',
              'cli',
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

/** Configuration reads the environment into plain settings: it knows the contracts and nothing it configures. */
const config = {
  files: ['config/**/*.ts'],
  rules: {
    'no-restricted-imports': [
      'error',
      {
        patterns: [
          TEST_CODE,
          {
            regex: folders([
              'db',
              'stores',
              'worker',
              'client',
              'api',
              'cli',
              'activities',
              'composition',
              'registration',
              'search',
              'embedders',
              'outbound',
              'workflows',
              'parsers',
              'chunker',
              'tokenizer',
              'sparse',
              'cpuPool',
            ]),
            message:
              'config/ imports only contracts/ and crypto/: a constant it needs from a component belongs in contracts/.',
          },
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
          TEST_CODE,
          {
            regex: folders(['worker', 'client', 'api', 'cli', 'composition']),
            message:
              'activities/ get their adapters through ActivityDeps: they import no process (worker/, client/, api/, cli/, composition/).',
          },
        ],
      },
    ],
  },
};

/** Everything below the surfaces, except the layers above with rules of their own. */
const belowSurfaces = {
  files: ['**/*.ts'],
  ignores: [
    'client/**',
    'api/**',
    'cli/**',
    'test/**',
    'testkit/**',
    'bench/**',
    'eval/**',
    'scripts/**',
    'workflows/**',
    'parsers/**',
    'chunker/**',
    'tokenizer/**',
    'sparse/**',
    'db/**',
    'activities/**',
    'config/**',
  ],
  rules: { 'no-restricted-imports': ['error', { patterns: [CLIENT, API, CLI, TEST_CODE] }] },
};

/** client/ is what both surfaces share, so it imports neither. */
const client = {
  files: ['client/**/*.ts'],
  rules: { 'no-restricted-imports': ['error', { patterns: [API, CLI, TEST_CODE] }] },
};

const api = {
  files: ['api/**/*.ts'],
  rules: { 'no-restricted-imports': ['error', { patterns: [CLI, TEST_CODE] }] },
};

/** cli/ is the outermost surface: it may import every production folder, and still no test code. */
const cli = {
  files: ['cli/**/*.ts'],
  rules: { 'no-restricted-imports': ['error', { patterns: [TEST_CODE] }] },
};

module.exports = { layerRules: [belowSurfaces, client, api, cli, pure, db, config, activities] };
