import type { Kysely } from 'kysely';
import { decryptSecret } from '../crypto/secretBox';
import type { Database } from '../db/database';
import { findModelConfig } from '../db/repositories/modelConfigs';
import { UnreadableModelKeyError } from '../enrichment/storedModel';
import type { RerankerSettings } from './rerankClient';

/**
 * A user's reranker with its key unsealed, for the one call that needs it; null when the user has
 * none. Search and `sluice model test rerank` read it the same way.
 */
export async function loadRerankerSettings(
  db: Kysely<Database>,
  keys: () => readonly Buffer[],
  userId: string,
): Promise<RerankerSettings | null> {
  const row = await findModelConfig(db, userId, 'rerank');
  if (!row || row.api_shape === null) return null;
  let apiKey: string | null = null;
  if (row.api_key_encrypted !== null) {
    try {
      apiKey = decryptSecret(keys(), row.api_key_encrypted);
    } catch {
      throw new UnreadableModelKeyError('rerank');
    }
  }
  return { baseUrl: row.base_url, model: row.model, shape: row.api_shape, apiKey };
}
