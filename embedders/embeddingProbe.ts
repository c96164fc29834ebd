import { SluiceError } from '../contracts/sluiceError';
import type { OutboundPolicy } from '../outbound/outboundHttp';
import { embedderOf, type EmbeddingSettings } from './embeddingSettings';

export interface ProbeResult {
  ok: boolean;
  model: string;
  configuredDimension: number;
  /** Length of the vector the provider returned; null when it returned none. */
  returnedDimension: number | null;
  /** Safe to show a tenant: statuses and hints, never the provider's body, a host or the key. */
  message: string;
}

const PROBE_SENTENCE = 'sluice checks its embedding provider with this one sentence.';
const RETURNED = /returned (\d+)-dimensional/;

/**
 * Embeds one sentence through the configured provider, under the outbound policy like every
 * VECTORIZING call, and checks the vector has the configured dimension.
 */
export async function probeEmbedding(settings: EmbeddingSettings, outbound: OutboundPolicy): Promise<ProbeResult> {
  const base = { model: settings.model, configuredDimension: settings.dimension };
  try {
    const embedder = embedderOf(settings, outbound, { maxRetries: 1, timeoutMs: 20_000, batchSize: 1, concurrency: 1 });
    const [vector] = await embedder.embed([PROBE_SENTENCE]);
    const returned = vector?.length ?? 0;
    return {
      ...base,
      ok: true,
      returnedDimension: returned,
      message: `model ${settings.model} returned a ${returned}-dimensional vector, as configured`,
    };
  } catch (err) {
    if (!(err instanceof SluiceError)) throw err;
    if (err.code === 'EMBEDDING_DIMENSION_UNSUPPORTED') {
      const returned = Number(RETURNED.exec(err.message)?.[1] ?? Number.NaN);
      const got = Number.isFinite(returned) ? `${returned}-dimensional vectors` : 'vectors of another length';
      return {
        ...base,
        ok: false,
        returnedDimension: Number.isFinite(returned) ? returned : null,
        message: `dimension mismatch: model ${settings.model} returned ${got}, but the configuration says ${settings.dimension}`,
      };
    }
    return { ...base, ok: false, returnedDimension: null, message: err.message };
  }
}
