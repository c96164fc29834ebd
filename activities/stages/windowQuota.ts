import type { StageInput } from '../../contracts/ingest';
import { permanentError } from '../../contracts/sluiceError';
import { recordChargedBytes } from '../../db/repositories/producedBytes';
import type { ActivityDeps } from '../deps';

/** A window's vector as stored: the second dense models' 384 dimensions of 4-byte floats. */
export const WINDOW_VECTOR_BYTES = 384 * 4;

/**
 * The passage windows a document may store count against its user's quota like its upload and
 * its markdown do: charged at their cap (each chunk's share of SLUICE_MAX_PASSAGE_WINDOWS_PER_DOCUMENT)
 * before the first window is embedded, so a user past the quota is refused before the cost, not
 * after. A retried VECTORIZING charges the same total again (recordChargedBytes replaces it).
 */
export async function chargePassageWindows(
  deps: ActivityDeps,
  input: StageInput,
  chunks: number,
  windowsPerChunk: number,
): Promise<void> {
  const bytes = chunks * windowsPerChunk * WINDOW_VECTOR_BYTES;
  const scope = { userId: input.userId, documentId: input.documentId };
  const recorded = await recordChargedBytes(deps.db, scope, 'window_bytes', bytes, deps.settings.quota);
  if (recorded.outcome === 'over-quota') {
    throw permanentError(
      'QUOTA_EXCEEDED',
      `the document's passage windows (${chunks * windowsPerChunk} vectors, ${bytes} bytes) exceed what is left of the per-user quota (${Math.max(0, deps.settings.quota.maxBytes - recorded.usedBytes)} bytes)`,
    );
  }
}
