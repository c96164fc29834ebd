import type { Kysely } from 'kysely';
import { decryptSecret } from '../crypto/secretBox';
import type { Database, ModelPurpose } from '../db/database';
import { findModelConfig } from '../db/repositories/modelConfigs';
import type { ChatModelSettings } from './chatModel';

/** The stored key could not be opened with SLUICE_SECRET_KEY (or SLUICE_SECRET_KEY_PREVIOUS). */
export class UnreadableModelKeyError extends Error {
  override readonly name = 'UnreadableModelKeyError';
  constructor(purpose: ModelPurpose) {
    super(`the ${purpose.toUpperCase()} model's API key cannot be decrypted with SLUICE_SECRET_KEY`);
  }
}

/**
 * A user's CHAT or VISION model with its key unsealed, for the one call that needs it; null when
 * the user has none. The activities and `sluice model test` read it the same way.
 */
export async function loadModelSettings(
  db: Kysely<Database>,
  keys: readonly Buffer[] | (() => readonly Buffer[]),
  userId: string,
  purpose: ModelPurpose,
): Promise<ChatModelSettings | null> {
  const row = await findModelConfig(db, userId, purpose);
  if (!row) return null;
  let apiKey: string | null = null;
  if (row.api_key_encrypted !== null) {
    // Asked for here, with a key to open: a caller without SLUICE_SECRET_KEY can still use a keyless model.
    const openWith = typeof keys === 'function' ? keys() : keys;
    try {
      apiKey = decryptSecret(openWith, row.api_key_encrypted);
    } catch {
      throw new UnreadableModelKeyError(purpose);
    }
  }
  return { baseUrl: row.base_url, model: row.model, apiKey };
}
