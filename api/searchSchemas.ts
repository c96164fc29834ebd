import { z } from 'zod';
import { documentMetadataSchema } from '../contracts/documentMetadata';
import { documentFilterSchema } from '../contracts/searchFilter';
import { SEARCH_RETRIEVERS } from '../contracts/searchSettings';

/** At most this many datasets in one search. */
export const SEARCH_MAX_DATASETS = 20;

const INCLUDES = ['parent', 'highlights', 'metadata'] as const;

const cursor = z.string().max(400).describe('nextCursor of the previous page: the next page of the same search');
const minScore = z
  .number()
  .min(0)
  .optional()
  .describe(
    "leave out hits scored below this: the reranker's 0..1 score where it scored the hit, else the fused score",
  );

export const searchQuery = z.object({
  q: z.string().min(1).max(1000).describe('search text'),
  limit: z.number().int().min(1).max(50).default(10),
  cursor: cursor.optional(),
  minScore,
  include: z
    .string()
    .max(100)
    .optional()
    .describe(`what each hit carries beyond its text, comma-separated: ${INCLUDES.join(', ')}`),
  filter: z
    .string()
    .max(65_536)
    .optional()
    .describe('a filter as JSON (docs/search.md, "Filters"); POST /v1/search takes it as an object'),
});

export const searchBody = z.strictObject({
  query: z.string().min(1).max(1000).describe('search text'),
  datasets: z
    .array(z.string().min(1).max(200))
    .min(1)
    .max(SEARCH_MAX_DATASETS)
    .describe("the caller's datasets to search together, fused into one list"),
  filter: documentFilterSchema
    .optional()
    .describe('conditions on metadata and system fields with and/or/not (docs/search.md, "Filters")'),
  limit: z.number().int().min(1).max(50).default(10),
  cursor: cursor.optional(),
  minScore,
  include: z.array(z.enum(INCLUDES)).max(INCLUDES.length).optional().describe('what each hit carries beyond its text'),
});

/** The include list of a query string: comma-separated names, unknown ones refused by the caller. */
export function includesOf(text: string | undefined): (typeof INCLUDES)[number][] {
  if (!text) return [];
  return text.split(',').map((name) => {
    const trimmed = name.trim();
    if (!(INCLUDES as readonly string[]).includes(trimmed))
      throw new Error(`include: ${trimmed} is not one of ${INCLUDES.join(', ')}`);
    return trimmed as (typeof INCLUDES)[number];
  });
}

/** What the search response says of the user's reranker (search/rerankHits.ts). */
export const rerankReportSchema = z
  .union([
    z.object({ applied: z.literal(false), reason: z.enum(['none configured', 'off for the dataset']) }),
    z.object({ applied: z.literal(true), model: z.string(), candidates: z.number().int(), ms: z.number() }),
    z.object({
      applied: z.literal(false),
      model: z.string(),
      candidates: z.number().int(),
      ms: z.number(),
      reason: z
        .string()
        .describe('why the fused order was kept: a timeout, an error status, an answer of another shape'),
    }),
  ])
  .describe("whether the hits are in the reranker's order; a reranker that fails never fails the search");

export const searchHitSchema = z.object({
  chunkId: z.string(),
  documentId: z.string(),
  datasetId: z.string(),
  fileName: z.string(),
  sectionPath: z.array(z.string()),
  pages: z
    .object({ first: z.number().int(), last: z.number().int() })
    .nullable()
    .describe('the first and last PDF page the chunk spans; null where the document has no pages'),
  text: z.string().describe('the chunk text, at most 65,536 characters'),
  textTruncated: z.boolean().describe('the chunk holds more than 65,536 characters and `text` is their start'),
  score: z.number().describe("the reranker's score (0..1) where it scored the hit, else the fused score"),
  fusedScore: z.number().describe('the weighted reciprocal-rank fusion score of the lists that found the chunk'),
  rerankScore: z.number().optional().describe("the reranker's score, 0..1; absent when it did not score the hit"),
  ranks: z
    .partialRecord(z.enum(SEARCH_RETRIEVERS), z.number().int())
    .describe('the 1-based rank of the chunk in each list that found it'),
  languageFactor: z.number().describe('what language routing multiplied the fused score by (1, or less)'),
  metadata: documentMetadataSchema.optional().describe("the document's metadata (include=metadata)"),
  highlights: z
    .array(z.object({ start: z.number().int(), end: z.number().int() }))
    .optional()
    .describe("the query's terms in `text`: [start, end) in UTF-16 code units (include=highlights)"),
  parent: z
    .object({ chunkId: z.string(), text: z.string(), textTruncated: z.boolean() })
    .nullable()
    .optional()
    .describe('the passage the chunk was cut from, stored as answer context; null when it has none (include=parent)'),
});

export const searchResponseSchema = z.object({
  hits: z.array(searchHitSchema),
  rerank: rerankReportSchema,
  nextCursor: z.string().nullable().describe('the next page of the same search; null after the last'),
});
