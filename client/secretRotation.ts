import type { Kysely } from 'kysely';
import { decryptSecret, encryptSecret, keyId, sealedKeyId } from '../crypto/secretBox';
import type { Database } from '../db/database';
import { listSealedApiKeys, resealApiKey } from '../db/repositories/embeddingConfigs';
import { listSealedModelKeys, resealModelKey } from '../db/repositories/modelConfigs';
import { listSealedSourceSecrets, resealSourceSecret } from '../db/repositories/sources';

/**
 * `sluice secrets rotate`: re-seals every stored secret (the API keys of embedding configs and of
 * CHAT and VISION model configs, and S3 sources' secret keys) under the current SLUICE_SECRET_KEY. A value is read with the key its key id names —
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
  /** Embedding config ids whose value neither key opens. */
  unreadable: number[];
  /** Model configs (`<user>/<purpose>`) whose value neither key opens. */
  unreadableModels: string[];
  /** Sources (their ids) whose S3 secret neither key opens. */
  unreadableSources: string[];
}

/** What happened to one sealed value. */
type Outcome = 'resealed' | 'alreadyCurrent' | 'changedMeanwhile' | 'unreadable';

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
    unreadableModels: [],
    unreadableSources: [],
  };
  /** One value: left alone when current or unreadable, else re-sealed by `write` (false: changed meanwhile). */
  const rotate = async (sealed: string, write: (resealed: string) => Promise<boolean>): Promise<Outcome> => {
    if (sealedKeyId(sealed) === currentId) return 'alreadyCurrent';
    let plain: string;
    try {
      plain = decryptSecret(keys, sealed);
    } catch {
      return 'unreadable';
    }
    return (await write(encryptSecret(current, plain))) ? 'resealed' : 'changedMeanwhile';
  };
  const count = (outcome: Exclude<Outcome, 'unreadable'>) => report[outcome]++;
  for (const { id, sealed } of await listSealedApiKeys(db)) {
    const outcome = await rotate(sealed, (resealed) => resealApiKey(db, id, sealed, resealed));
    if (outcome === 'unreadable') report.unreadable.push(id);
    else count(outcome);
  }
  for (const row of await listSealedModelKeys(db)) {
    const outcome = await rotate(row.sealed, (resealed) => resealModelKey(db, row, row.sealed, resealed));
    if (outcome === 'unreadable') report.unreadableModels.push(`${row.userId}/${row.purpose}`);
    else count(outcome);
  }
  for (const { id, sealed } of await listSealedSourceSecrets(db)) {
    const outcome = await rotate(sealed, (resealed) => resealSourceSecret(db, id, sealed, resealed));
    if (outcome === 'unreadable') report.unreadableSources.push(id);
    else count(outcome);
  }
  return report;
}
