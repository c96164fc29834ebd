import type { Kysely } from 'kysely';
import type { SluiceConfig } from '../config/config';
import type { Database } from '../db/database';
import { listDatasets } from '../db/repositories/documentCatalog';
import {
  DEPLOYMENT_DEFAULT_OWNER,
  deleteDefaultEmbeddingConfig,
  findDefaultEmbeddingConfig,
  KeyBoundToHostError,
  saveEmbeddingConfig,
  type EmbeddingConfigRow,
} from '../db/repositories/embeddingConfigs';
import { probeEmbedding, type ProbeResult } from '../embedders/embeddingProbe';
import {
  maskApiKey,
  settingsOfEnvironment,
  settingsOfRow,
  type EmbeddingSettings,
} from '../embedders/embeddingSettings';
import { parseEncryptionKey } from '../crypto/secretBox';
import { sealingSecretOf } from '../crypto/sealingSecret';
import { pickEmbeddingSource, storedCandidates, type EmbeddingSource } from '../embedders/userEmbedderResolver';

/**
 * Embedding configuration as users and operators manage it (`sluice embedding`, the
 * /v1/embedding-config routes): read with the key masked, replace with the key write-only,
 * delete, and test one sentence through the provider.
 */

export interface EmbeddingConfigDeps {
  db: Kysely<Database>;
  config: Readonly<SluiceConfig>;
}

/** A user's own config, or the deployment-wide default. */
export type ConfigTarget = { userId: string } | 'deployment';

/** A refusal meant for the caller (the CLI prints it, the API answers 4xx with it). */
export class EmbeddingConfigError extends Error {
  override readonly name = 'EmbeddingConfigError';
}

export interface EmbeddingConfigView {
  source: 'user' | 'deployment' | 'environment';
  provider: string;
  baseUrl: string | null;
  model: string;
  dimension: number;
  /** Masked (maskApiKey); null when none is stored. */
  apiKey: string | null;
  updatedAt: string | null;
}

export interface EmbeddingConfigInputView {
  baseUrl: string | null;
  model: string;
  dimension: number;
  /** Undefined keeps the stored key. */
  apiKey?: string | null;
}

/** Whose API keys a missing SLUICE_SECRET_KEY leaves unsealable: named in the refusal. */
export type SealedKeyOwner = 'embedding configs' | 'model configs' | 'stored configs' | 'sources';

/** Sealed keys use SLUICE_SECRET_KEY, the key the user-config embedder decrypts with. */
export function encryptionKeyOf(config: Readonly<SluiceConfig>, owner: SealedKeyOwner = 'embedding configs'): Buffer {
  const secret = sealingSecretOf(config);
  if (!secret)
    throw new EmbeddingConfigError(`SLUICE_SECRET_KEY is not set: API keys of ${owner} cannot be sealed or read`);
  return parseEncryptionKey(secret);
}

/** The keys stored secrets are read with: SLUICE_SECRET_KEY, then SLUICE_SECRET_KEY_PREVIOUS during a rotation. */
export function decryptionKeysOf(
  config: Readonly<SluiceConfig>,
  owner: SealedKeyOwner = 'embedding configs',
): Buffer[] {
  const previous = config.secrets.previousKey;
  return [encryptionKeyOf(config, owner), ...(previous ? [parseEncryptionKey(previous)] : [])];
}

/** True when stored configs decide how documents are embedded (SLUICE_EMBEDDER=user-config). */
export const configsApply = (config: Readonly<SluiceConfig>): boolean => config.stores.embedder.kind === 'user-config';

function ownerOf(target: ConfigTarget): string {
  if (target === 'deployment') return DEPLOYMENT_DEFAULT_OWNER;
  if (target.userId === DEPLOYMENT_DEFAULT_OWNER)
    throw new EmbeddingConfigError(`"${DEPLOYMENT_DEFAULT_OWNER}" is reserved: use --default`);
  return target.userId;
}

/** A key sealed under another SLUICE_SECRET_KEY still shows as set: replacing it must stay possible. */
function viewOfRow(row: EmbeddingConfigRow, encryptionKey: readonly Buffer[]): EmbeddingConfigView {
  let apiKey: string | null;
  try {
    apiKey = maskApiKey(settingsOfRow(row, encryptionKey).apiKey);
  } catch {
    apiKey = 'set, but SLUICE_SECRET_KEY cannot decrypt it';
  }
  return {
    source: row.user_id === DEPLOYMENT_DEFAULT_OWNER ? 'deployment' : 'user',
    provider: row.provider,
    baseUrl: row.base_url,
    model: row.model,
    dimension: row.dimension,
    apiKey,
    updatedAt: new Date(row.created_at).toISOString(),
  };
}

/** The config that embeds the target's documents, by the resolver's order (no fallback here). */
async function effectiveSource(deps: EmbeddingConfigDeps, target: ConfigTarget): Promise<EmbeddingSource> {
  const owner = ownerOf(target);
  const stored =
    target === 'deployment'
      ? { deployment: await findDefaultEmbeddingConfig(deps.db, owner) }
      : await storedCandidates(deps.db, owner);
  return pickEmbeddingSource({ ...stored, environment: deps.config.embedding.environmentDefault });
}

/** The effective config with its key masked; null when none reaches the target. */
export async function showEmbeddingConfig(
  deps: EmbeddingConfigDeps,
  target: ConfigTarget,
): Promise<EmbeddingConfigView | null> {
  const source = await effectiveSource(deps, target);
  if (source.kind === 'user' || source.kind === 'deployment')
    return viewOfRow(source.config, decryptionKeysOf(deps.config));
  if (source.kind === 'environment') {
    const settings = settingsOfEnvironment(source.config);
    return { source: 'environment', ...settings, apiKey: maskApiKey(settings.apiKey), updatedAt: null };
  }
  return null;
}

/** The effective config with its key unsealed (LLM_CONFIG_MISSING when it cannot be). */
async function effectiveSettings(
  deps: EmbeddingConfigDeps,
  target: ConfigTarget,
): Promise<{ source: EmbeddingConfigView['source']; settings: EmbeddingSettings } | null> {
  const source = await effectiveSource(deps, target);
  if (source.kind === 'user' || source.kind === 'deployment')
    return { source: source.kind, settings: settingsOfRow(source.config, decryptionKeysOf(deps.config)) };
  if (source.kind === 'environment') return { source: 'environment', settings: settingsOfEnvironment(source.config) };
  return null;
}

export interface SaveOutcome {
  view: EmbeddingConfigView;
  /** The model or dimension that embedded the target's documents changed: their vectors are stale. */
  reembedSuggested: boolean;
  /** The user's datasets to re-embed (`sluice reembed -d`); empty for the deployment default. */
  datasets: string[];
}

export async function saveEmbeddingSettings(
  deps: EmbeddingConfigDeps,
  target: ConfigTarget,
  input: EmbeddingConfigInputView,
): Promise<SaveOutcome> {
  const owner = ownerOf(target);
  if (input.baseUrl !== null && !/^https?:\/\//i.test(input.baseUrl))
    throw new EmbeddingConfigError('the base URL must be an http:// or https:// URL');
  const key = encryptionKeyOf(deps.config);
  const before = await effectiveSource(deps, target);
  const { saved } = await saveEmbeddingConfig(deps.db, owner, { provider: 'openai', ...input }, key).catch(
    (error: unknown) => {
      throw error instanceof KeyBoundToHostError ? new EmbeddingConfigError(error.message) : error;
    },
  );
  const reembedSuggested =
    'config' in before && (before.config.model !== saved.model || before.config.dimension !== saved.dimension);
  const datasets =
    reembedSuggested && target !== 'deployment' ? (await listDatasets(deps.db, owner)).map((d) => d.datasetId) : [];
  return { view: viewOfRow(saved, decryptionKeysOf(deps.config)), reembedSuggested, datasets };
}

export async function deleteEmbeddingSettings(deps: EmbeddingConfigDeps, target: ConfigTarget): Promise<boolean> {
  return deleteDefaultEmbeddingConfig(deps.db, ownerOf(target));
}

/** Tests the target's effective config; null when none reaches it. */
export async function testEmbeddingSettings(
  deps: EmbeddingConfigDeps,
  target: ConfigTarget,
): Promise<(ProbeResult & { source: EmbeddingConfigView['source'] }) | null> {
  const effective = await effectiveSettings(deps, target);
  if (!effective) return null;
  return { ...(await probeEmbedding(effective.settings, deps.config.outbound)), source: effective.source };
}
