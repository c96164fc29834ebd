import { z } from 'zod';

/** The ranked lists hybrid search fuses (search/hybridSearch.ts). */
export const SEARCH_RETRIEVERS = ['dense', 'languageDense', 'passage', 'sparse', 'keyword', 'identifier'] as const;
export type SearchRetriever = (typeof SEARCH_RETRIEVERS)[number];

/**
 * The dense models a search may ask: `user` (the user's embedding model: the local profile's USE,
 * which also matches across languages) and `language` (the bge-small model of the query's language,
 * over the chunks of that language and, as the `passage` list, over their passage windows; only
 * where the second dense vector is on, which writes both).
 */
export const DENSE_MODEL_CHOICES = ['user', 'language'] as const;
export type DenseModelChoice = (typeof DENSE_MODEL_CHOICES)[number];

const weight = z.number().min(0).max(100);

/**
 * A dataset's `search` section, or a hit test's adjustment of it: every field optional, a missing
 * one takes the deployment's default (search/searchSettings.ts). A weight of 0 leaves that list out.
 */
export const searchSettingsSchema = z
  .object({
    /** Reciprocal-rank fusion's constant k: each list adds weight / (k + rank). */
    rrfK: z.number().min(0).max(1000).optional(),
    weights: z
      .object(Object.fromEntries(SEARCH_RETRIEVERS.map((r) => [r, weight])) as Record<SearchRetriever, typeof weight>)
      .partial()
      .strict()
      .optional(),
    denseModels: z
      .array(z.enum(DENSE_MODEL_CHOICES))
      .max(DENSE_MODEL_CHOICES.length)
      .refine((models) => new Set(models).size === models.length, { message: 'denseModels names a model twice' })
      .optional(),
    /** false: the user's reranker (`sluice model set rerank`) is not called for this dataset. */
    rerank: z.boolean().optional(),
    /** Fused candidates sent to the reranker (at least a search's limit); unset: SLUICE_RERANK_CANDIDATES. */
    rerankCandidates: z.number().int().min(1).max(200).optional(),
  })
  .strict();

export type SearchSettingsInput = z.infer<typeof searchSettingsSchema>;
