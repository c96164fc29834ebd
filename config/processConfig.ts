import path from 'node:path';
import { z } from 'zod';
import { databaseTlsEnvSchema, databaseUrlWithTls } from './databaseTls';
import type { EnvOf } from './envShape';
import { packageRoot } from './packageRoot';

/** Where a process keeps its files, which database it uses, whom the CLI acts for, how much it logs. */
export const processEnv = {
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// connection URL')
    .default('postgres://postgres@127.0.0.1:54329/sluice'),
  DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(100).default(10),
  ...databaseTlsEnvSchema.shape,
  SLUICE_DATA_DIR: z.string().min(1).default(path.join(packageRoot(), '.sluice')),
  SLUICE_OBJECTS_DIR: z.string().min(1).optional(),
  SLUICE_TMP_DIR: z.string().min(1).optional(),
  SLUICE_USER_ID: z.string().min(1).default('local'),
  SLUICE_LOG_LEVEL: z.enum(['DEBUG', 'INFO', 'WARN', 'ERROR']).default('INFO'),
};

export interface ProcessSettings {
  database: { url: string; poolSize: number };
  dataDir: string;
  objectsDir: string;
  tmpDir: string;
  defaultUserId: string;
  logLevel: 'DEBUG' | 'INFO' | 'WARN' | 'ERROR';
}

export function processSettings(e: EnvOf<typeof processEnv>, problems: string[]): ProcessSettings {
  return {
    database: { url: databaseUrlWithTls(e, problems), poolSize: e.DATABASE_POOL_SIZE },
    dataDir: e.SLUICE_DATA_DIR,
    objectsDir: e.SLUICE_OBJECTS_DIR ?? path.join(e.SLUICE_DATA_DIR, 'objects'),
    tmpDir: e.SLUICE_TMP_DIR ?? path.join(e.SLUICE_DATA_DIR, 'tmp'),
    defaultUserId: e.SLUICE_USER_ID,
    logLevel: e.SLUICE_LOG_LEVEL,
  };
}
