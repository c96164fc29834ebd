import type { Kysely } from 'kysely';
import type { Database } from '../db/database';
import { UnreadableModelKeyError } from '../enrichment/storedModel';
import { callReranker, RerankFailedError, type RerankCallOptions } from './rerankClient';
import { loadRerankerSettings } from './storedReranker';

/** Scores texts against a query, 0..1 by index (null: left out); rejects with RerankFailedError. */
export interface Reranker {
  model: string;
  rerank(query: string, texts: string[]): Promise<(number | null)[]>;
}

/** The reranker of the user who searches, or null when they have none (search keeps the fused order). */
export interface RerankerResolver {
  /** Fused candidates a reranker is sent unless a dataset says otherwise (SLUICE_RERANK_CANDIDATES). */
  candidates: number;
  forUser(userId: string): Promise<Reranker | null>;
}

/**
 * The user's RERANK model config (`sluice model set rerank`), read at each search so a change applies
 * at once. A key that SLUICE_SECRET_KEY cannot open gives a reranker that fails, so the search says
 * why it kept the fused order instead of failing.
 */
export function createRerankerResolver(deps: {
  db: Kysely<Database>;
  keys: () => readonly Buffer[];
  call: RerankCallOptions;
  candidates: number;
}): RerankerResolver {
  return {
    candidates: deps.candidates,
    async forUser(userId) {
      let settings;
      try {
        settings = await loadRerankerSettings(deps.db, deps.keys, userId);
      } catch (error) {
        if (!(error instanceof UnreadableModelKeyError)) throw error;
        return {
          model: 'unknown',
          rerank: () => Promise.reject(new RerankFailedError(error.message)),
        };
      }
      if (!settings) return null;
      const found = settings;
      return { model: found.model, rerank: (query, texts) => callReranker(found, query, texts, deps.call) };
    },
  };
}
