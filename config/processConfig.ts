import path from 'node:path';
import { z } from 'zod';
import { databaseTlsEnvSchema, databaseUrlWithTls } from './databaseTls';
import type { EnvOf } from './envShape';
import { packageRoot } from './packageRoot';

/** Which database every process uses. */
export const databaseEnv = {
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// connection URL')
    .default('postgres://postgres@127.0.0.1:54329/sluice')
    .describe(
      "Postgres connection URL, libpq parameters allowed. Unset: the stack's Postgres (on SLUICE_PG_PORT if set).",
    ),
  DATABASE_POOL_SIZE: z.coerce
    .number()
    .int()
    .min(1)
    .max(100)
    .default(10)
    .describe('Postgres connections one process keeps open.'),
  ...databaseTlsEnvSchema.shape,
};

/** Where a process keeps its files, whom the CLI acts for, how much it logs. */
export const processEnv = {
  SLUICE_DATA_DIR: z
    .string()
    .min(1)
    .default(path.join(packageRoot(), '.sluice'))
    .describe("Where a process keeps its files: the local object store, temporary files, models, the stack's data."),
  SLUICE_OBJECTS_DIR: z
    .string()
    .min(1)
    .optional()
    .describe("The local object store's directory. Unset: `$SLUICE_DATA_DIR/objects`."),
  SLUICE_TMP_DIR: z
    .string()
    .min(1)
    .optional()
    .describe('Temporary files (a source being parsed). Unset: `$SLUICE_DATA_DIR/tmp`.'),
  SLUICE_USER_ID: z.string().min(1).default('local').describe('The user the CLI acts for when `--user` is not given.'),
  SLUICE_LOG_LEVEL: z
    .enum(['DEBUG', 'INFO', 'WARN', 'ERROR'])
    .default('INFO')
    .describe('The least severe log lines written.'),
};

export interface ProcessSettings {
  database: { url: string; poolSize: number };
  dataDir: string;
  objectsDir: string;
  tmpDir: string;
  defaultUserId: string;
  logLevel: 'DEBUG' | 'INFO' | 'WARN' | 'ERROR';
}

export function processSettings(e: EnvOf<typeof databaseEnv & typeof processEnv>, problems: string[]): ProcessSettings {
  return {
    database: { url: databaseUrlWithTls(e, problems), poolSize: e.DATABASE_POOL_SIZE },
    dataDir: e.SLUICE_DATA_DIR,
    objectsDir: e.SLUICE_OBJECTS_DIR ?? path.join(e.SLUICE_DATA_DIR, 'objects'),
    tmpDir: e.SLUICE_TMP_DIR ?? path.join(e.SLUICE_DATA_DIR, 'tmp'),
    defaultUserId: e.SLUICE_USER_ID,
    logLevel: e.SLUICE_LOG_LEVEL,
  };
}
