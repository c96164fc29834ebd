import type { z } from 'zod';
import { apiEnv } from './apiConfig';
import { embeddingEnv } from './embeddingConfig';
import { enrichmentEnv } from './enrichmentConfig';
import { outboundEnv } from './outboundConfig';
import { parserServiceEnv } from './parserServiceConfig';
import { parsingEnv } from './parsingConfig';
import { databaseEnv, processEnv } from './processConfig';
import { runsEnv } from './runsConfig';
import { searchEnv } from './searchConfig';
import { secretsEnv } from './secretsConfig';
import { stackPortsEnv } from './stackPorts';
import { embedderEnv, keywordIndexEnv, objectStoreEnv, profileEnv, secretKeyEnv, vectorStoreEnv } from './storesConfig';
import { temporalEnv } from './temporalConfig';
import { envConfigOnlyVariables } from './temporalConnectionConfig';
import { workerEnv } from './workerConfig';

export interface EnvArea {
  title: string;
  env: z.ZodRawShape;
  /** Read from the environment by a library, not by the schema: name → description. */
  readByLibrary?: Readonly<Record<string, string>>;
}

/**
 * The sections of docs/configuration.md (`npm run docs:config`), in order. The generator fails on a
 * variable of the schema that no section holds, so a new part of the config must be placed here.
 */
export const envAreas: readonly EnvArea[] = [
  { title: 'Temporal', env: temporalEnv, readByLibrary: envConfigOnlyVariables },
  { title: 'Postgres', env: databaseEnv },
  { title: 'Process: profile, files, user, logging', env: { ...profileEnv, ...processEnv } },
  { title: 'Object store', env: objectStoreEnv },
  { title: 'Vector store', env: vectorStoreEnv },
  { title: 'Keyword index', env: keywordIndexEnv },
  { title: 'Embedders', env: { ...embedderEnv, ...embeddingEnv } },
  { title: 'Parsing and chunking limits', env: parsingEnv },
  { title: 'External parsing service', env: parserServiceEnv },
  { title: 'Enrichment', env: enrichmentEnv },
  { title: 'Search', env: searchEnv },
  { title: 'Worker and metrics', env: workerEnv },
  { title: 'Runs and sweeps', env: runsEnv },
  { title: 'HTTP API', env: apiEnv },
  { title: 'Outbound HTTP and webhooks', env: outboundEnv },
  { title: 'Secrets', env: { ...secretKeyEnv, ...secretsEnv } },
  { title: 'Local stack ports', env: stackPortsEnv },
];
