/** The environment as configuration reads it: `process.env`, or a test's own record. */
export type EnvInput = Record<string, string | undefined>;
