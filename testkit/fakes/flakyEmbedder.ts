import { permanentError } from '../../contracts/sluiceError';
import type { EmbedderResolver } from '../../embedders/embedderResolver';

/** Records every text embedded; once `failAfter` texts were embedded, the next call fails once. */
export interface FlakyProviderState {
  failAfter: number | null;
  embedded: string[];
}

/** Wraps the real embedders as a provider that goes away mid-document (injected, non-retryable). */
export function flakyEmbedders(real: EmbedderResolver, state: FlakyProviderState): EmbedderResolver {
  return {
    async forUser(userId) {
      const embedder = await real.forUser(userId);
      return {
        model: embedder.model,
        dimension: embedder.dimension,
        async embed(texts) {
          if (state.failAfter !== null && state.embedded.length >= state.failAfter) {
            state.failAfter = null;
            throw permanentError('VECTORIZING_FAILED', 'provider went away (injected)');
          }
          state.embedded.push(...texts);
          return embedder.embed(texts);
        },
      };
    },
  };
}
