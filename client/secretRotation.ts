import type { Kysely } from 'kysely';
import { decryptSecret, encryptSecret, keyId, sealedKeyId } from '../crypto/secretBox';
import type { Database } from '../db/database';
import { listSealedApiKeys, resealApiKey } from '../db/repositories/embeddingConfigs';

/**
 * `sluice secrets rotate`: re-seals every stored secret (today: the API keys of embedding
 * configs) under the current SLUICE_SECRET_KEY. A value is read with the key its key id names —
 * the current key or SLUICE_SECRET_KEY_PREVIOUS — or, sealed before key ids, with whichever of
 * the two opens it. Running it again is harmless: values already under the current key are left
 * alone. A value neither key opens is counted and left as it is, never overwritten, so a
 * wrongly given previous key loses nothing.
 */
export interface RotationReport {
  /** The current key's id, which every re-sealed value now names. */
  keyId: string;
  resealed: number;
  alreadyCurrent: number;
  /** Rows whose value changed while we worked (a config saved meanwhile, already under the current key). */
  changedMeanwhile: number;
  /** Config ids whose value neither key opens. */
  unreadable: number[];
}

export async function rotateSecrets(
  db: Kysely<Database>,
  current: Buffer,
  previous: Buffer | null,
): Promise<RotationReport> {
  const currentId = keyId(current);
  const keys = previous ? [current, previous] : [current];
  const report: RotationReport = {
    keyId: currentId,
    resealed: 0,
    alreadyCurrent: 0,
    changedMeanwhile: 0,
    unreadable: [],
  };
  for (const { id, sealed } of await listSealedApiKeys(db)) {
    if (sealedKeyId(sealed) === currentId) {
      report.alreadyCurrent++;
      continue;
    }
    let plain: string;
    try {
      plain = decryptSecret(keys, sealed);
    } catch {
      report.unreadable.push(id);
      continue;
    }
    if (await resealApiKey(db, id, sealed, encryptSecret(current, plain))) report.resealed++;
    else report.changedMeanwhile++;
  }
  return report;
}
