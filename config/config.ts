import { z } from 'zod';
import { apiEnv, apiSettings, type ApiSettings } from './apiConfig';
import { embeddingEnv, embeddingSettings, type EmbeddingSettings } from './embeddingConfig';
import type { EnvInput } from './envInput';
import { outboundEnv, outboundSettings, type OutboundSettings } from './outboundConfig';
import { parsingEnv, parsingSettings, type ParsingSettings } from './parsingConfig';
import { enrichmentEnv, enrichmentSettings, type EnrichmentSettings } from './enrichmentConfig';
import { parserServiceEnv, parserServiceSettings, type ParserServiceSettings } from './parserServiceConfig';
import { databaseEnv, processEnv, processSettings, type ProcessSettings } from './processConfig';
import { runsEnv, runsSettings, type RunsSettings } from './runsConfig';
import { searchConfigSettings, searchEnv, type SearchConfigSettings } from './searchConfig';
import { secretsEnv, secretsSettings, type SecretsSettings } from './secretsConfig';
import { stackPortsEnv, withStackPortDefaults } from './stackPorts';
import { resolveStores, storesEnvSchema, type StoresConfig } from './storesConfig';
import { packageRoot } from './packageRoot';
import { temporalEnv, temporalSettings, type TemporalSettings } from './temporalConfig';
import { workerEnv, workerSettings, type WorkerSettings } from './workerConfig';

// One frozen config, composed of a part per concern (each file beside this one: its variables,
// its slice of SluiceConfig and how it is built). Only this folder reads the environment.

export type { EnvInput };
export type { EnvironmentEmbeddingDefault, LanguageDenseSetting } from './embeddingConfig';

/** Every variable the config reads; config/envAreas.ts sorts them into docs/configuration.md's sections. */
export const envSchema = z.object({
  ...temporalEnv,
  ...stackPortsEnv,
  ...databaseEnv,
  ...processEnv,
  ...parsingEnv,
  ...parserServiceEnv,
  ...enrichmentEnv,
  ...searchEnv,
  ...embeddingEnv,
  ...runsEnv,
  ...outboundEnv,
  ...secretsEnv,
  ...apiEnv,
  ...workerEnv,
  ...storesEnvSchema.shape,
});

export interface SluiceConfig
  extends
    TemporalSettings,
    ProcessSettings,
    ParsingSettings,
    ParserServiceSettings,
    EnrichmentSettings,
    SearchConfigSettings,
    EmbeddingSettings,
    RunsSettings,
    OutboundSettings,
    SecretsSettings,
    ApiSettings,
    WorkerSettings {
  /** Adapter per port and their settings. Holds secrets: never log the config. */
  stores: StoresConfig;
}

/**
 * A secret the operator names at run time (`sluice embedding set --api-key-env NAME`): read here
 * because only this module reads the environment.
 */
export function secretFromEnvironment(name: string, env: EnvInput = process.env): string | undefined {
  const value = env[name];
  return value === undefined || value === '' ? undefined : value;
}

export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}

function deepFreeze<T extends object>(value: T): Readonly<T> {
  for (const child of Object.values(value)) {
    // Certificates and keys stay Buffers: a typed array with elements cannot be frozen.
    if (child && typeof child === 'object' && !ArrayBuffer.isView(child)) deepFreeze(child as object);
  }
  return Object.freeze(value);
}

/**
 * The process environment with some settings replaced: for tools that need a second view of the
 * same deployment (the retrieval eval measures the production keyword index beside the local one).
 */
export function loadConfigWith(overrides: Readonly<Record<string, string>>): Readonly<SluiceConfig> {
  return loadConfig({ ...process.env, ...overrides });
}

/** Parses the environment once; every wrong setting is named in one message, then we stop. */
export function loadConfig(env: EnvInput = process.env): Readonly<SluiceConfig> {
  const withPorts = withStackPortDefaults(env);
  const parsed = envSchema.safeParse(withPorts);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
    throw new ConfigError(`invalid configuration — ${problems.join('; ')}`);
  }
  const e = parsed.data;
  const problems: string[] = [];
  const parsing = parsingSettings(e, problems);
  const outbound = outboundSettings(e, problems);
  const parserService = parserServiceSettings(e, problems);
  const stores = resolveStores(e, problems);
  const temporal = temporalSettings(e, withPorts, packageRoot(), problems);
  const processPart = processSettings(e, problems);
  const embedding = embeddingSettings(e, stores, processPart.dataDir, problems);
  const secrets = secretsSettings(e, stores, e.SLUICE_SECRET_KEY, problems);
  if (problems.length > 0) throw new ConfigError(`invalid configuration — ${problems.join('; ')}`);
  return deepFreeze({
    ...temporal,
    ...processPart,
    ...parsing,
    ...parserService,
    ...enrichmentSettings(e),
    ...searchConfigSettings(e),
    ...embedding,
    ...runsSettings(e),
    ...outbound,
    ...secrets,
    stores,
    ...apiSettings(e, { maxFileBytes: parsing.maxFileBytes, secretKey: e.SLUICE_SECRET_KEY }),
    ...workerSettings(e),
  });
}
