const shared = {
  testEnvironment: 'node',
  transform: { '^.+\\.ts$': ['@swc/jest', { jsc: { target: 'es2022' } }] },
  testPathIgnorePatterns: ['/node_modules/', '/.sluice/'],
  testTimeout: 120000,
  modulePathIgnorePatterns: ['<rootDir>/.sluice/', '<rootDir>/dist/'],
};

/** @type {import('jest').Config} */
module.exports = {
  projects: [
    // Pure units: no servers needed.
    { ...shared, displayName: 'unit', testMatch: ['<rootDir>/test/unit/**/*.test.ts'] },
    // Everything that talks to the real dev server and Postgres shares one clean test database
    // and one workflow bundle, prepared once per run.
    {
      ...shared,
      displayName: 'integration',
      testMatch: ['<rootDir>/test/{integration,workflow,e2e}/**/*.test.ts'],
      globalSetup: '<rootDir>/test/support/globalSetup.ts',
    },
  ],
};
