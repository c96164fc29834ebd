import { z } from 'zod';
import type { EnvOf } from './envShape';

/** Search's reranker call (docs/search.md, "Reranker"): how long it may take and how many candidates it sees. */
export const searchEnv = {
  SLUICE_RERANK_TIMEOUT_MS: z.coerce
    .number()
    .int()
    .min(100)
    .max(60_000)
    .default(2_000)
    .describe('How long a search waits for its reranker; past it the fused order is kept and the response says so.'),
  SLUICE_RERANK_CANDIDATES: z.coerce
    .number()
    .int()
    .min(1)
    .max(200)
    .default(50)
    .describe(
      "Fused candidates sent to the reranker, at least a search's limit; a dataset's `search.rerankCandidates` overrides it.",
    ),
};

export interface SearchConfigSettings {
  search: { rerankTimeoutMs: number; rerankCandidates: number };
}

export function searchConfigSettings(e: EnvOf<typeof searchEnv>): SearchConfigSettings {
  return { search: { rerankTimeoutMs: e.SLUICE_RERANK_TIMEOUT_MS, rerankCandidates: e.SLUICE_RERANK_CANDIDATES } };
}
