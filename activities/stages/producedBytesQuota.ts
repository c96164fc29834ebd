import type { StageInput } from '../../contracts/ingest';
import { permanentError } from '../../contracts/sluiceError';
import { recordProducedBytes } from '../../db/repositories/producedBytes';
import type { ActivityDeps } from '../deps';

/**
 * What the document produced so far (`bytes`: its whole output, not an increment, so a retried
 * attempt charges the same total again) counts against its user's quota, checked before the
 * next object is stored. `what` names the output in the refusal.
 */
export async function chargeProducedBytes(
  deps: ActivityDeps,
  input: StageInput,
  bytes: number,
  what = 'markdown',
): Promise<void> {
  const recorded = await recordProducedBytes(
    deps.db,
    { userId: input.userId, documentId: input.documentId },
    bytes,
    deps.settings.quota,
  );
  if (recorded.outcome === 'over-quota') {
    throw permanentError(
      'QUOTA_EXCEEDED',
      `the document's ${bytes} bytes of ${what} exceed what is left of the per-user quota (${Math.max(0, deps.settings.quota.maxBytes - recorded.usedBytes)} bytes)`,
    );
  }
}
