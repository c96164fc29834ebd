const shared = {
  testEnvironment: 'node',
  transform: { '^.+\\.ts$': ['@swc/jest', { jsc: { target: 'es2022' } }] },
  testPathIgnorePatterns: ['/node_modules/', '/.sluice/'],
  modulePathIgnorePatterns: ['<rootDir>/.sluice/', '<rootDir>/dist/'],
};

/** @type {import('jest').Config} */
module.exports = {
  // A global option: projects do not carry their own. End-to-end tests wait for real pipelines.
  testTimeout: 120000,
  reporters: ['default', '<rootDir>/testkit/harness/summaryReporter.js'],
  projects: [
    // Pure units: no servers needed.
    { ...shared, displayName: 'unit', testMatch: ['<rootDir>/test/unit/**/*.test.ts'] },
    // Saved histories (test/replay/histories) replayed against the current workflow code, offline:
    // a non-deterministic change fails here. No server; `npm run replay:record` re-records them.
    { ...shared, displayName: 'replay', testMatch: ['<rootDir>/test/replay/**/*.test.ts'] },
    // Activities run attempt by attempt in MockActivityEnvironment against the stack's Postgres:
    // no Temporal server and no workflow bundle, only the test database at the latest schema.
    {
      ...shared,
      displayName: 'activity',
      testMatch: ['<rootDir>/test/activity/**/*.test.ts'],
      globalSetup: '<rootDir>/test/activity/globalSetup.ts',
    },
    // Everything that talks to the real dev server and Postgres shares one clean test database
    // and one workflow bundle, prepared once per run.
    {
      ...shared,
      displayName: 'integration',
      testMatch: ['<rootDir>/test/{integration,workflow,e2e}/**/*.test.ts'],
      globalSetup: '<rootDir>/testkit/harness/globalSetup.ts',
    },
  ],
};
