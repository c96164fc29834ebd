import { FilterInvalid, parseDocumentFilter } from '../contracts/searchFilter';
import { searchSettingsFor } from '../search/hybridSearch';
import { CursorInvalid, decodeSearchCursor, encodeSearchCursor, type SearchIdentity } from '../search/searchCursor';
import { searchDataset, type RankedResult } from '../search/searchDataset';
import type { ApiContext } from './context';
import { ApiError } from './errors';

export interface SearchCall {
  query: string;
  datasets: string[];
  filter: unknown;
  limit: number;
  cursor: string | undefined;
  minScore: number | undefined;
  include: ('parent' | 'highlights' | 'metadata')[];
}

function hitOf(h: RankedResult) {
  return {
    chunkId: h.chunkId,
    documentId: h.documentId,
    datasetId: h.datasetId,
    fileName: h.fileName,
    sectionPath: h.sectionPath,
    pages: h.pages,
    text: h.text,
    textTruncated: h.textTruncated,
    score: h.score,
    fusedScore: h.fusedScore,
    ...(h.rerankScore === undefined ? {} : { rerankScore: h.rerankScore }),
    ranks: h.ranks,
    languageFactor: h.languageFactor,
    ...(h.metadata === undefined ? {} : { metadata: h.metadata }),
    ...(h.highlights === undefined ? {} : { highlights: h.highlights }),
    ...(h.parent === undefined ? {} : { parent: h.parent }),
  };
}

/**
 * One search request of the API, GET or POST: the filter and cursor checked (400 FILTER_INVALID,
 * CURSOR_INVALID), the search run under the caller's concurrency limit with the first dataset's
 * settings, and the page answered with the cursor of the next one.
 */
export async function runSearch(ctx: ApiContext, userId: string, call: SearchCall) {
  let filter;
  try {
    filter = call.filter === undefined ? undefined : parseDocumentFilter(call.filter);
  } catch (error) {
    if (error instanceof FilterInvalid) throw new ApiError(400, 'FILTER_INVALID', error.message);
    throw error;
  }
  const [first, ...more] = call.datasets;
  if (first === undefined) throw new ApiError(400, 'VALIDATION_FAILED', 'name at least one dataset');
  const identity: SearchIdentity = { query: call.query, datasets: call.datasets, filter, minScore: call.minScore };
  let offset = 0;
  try {
    offset = call.cursor === undefined ? 0 : decodeSearchCursor(identity, call.cursor);
  } catch (error) {
    if (error instanceof CursorInvalid) throw new ApiError(400, 'CURSOR_INVALID', error.message);
    throw error;
  }
  const scope = { userId, datasetId: first, moreDatasetIds: more, ...(filter ? { filter } : {}) };
  const { hits, rerank, nextOffset } = await ctx.limiters.searches.run(userId, async () =>
    searchDataset(
      ctx.adapters,
      scope,
      {
        query: call.query,
        limit: call.limit,
        offset,
        ...(call.minScore === undefined ? {} : { minScore: call.minScore }),
        include: Object.fromEntries(call.include.map((name) => [name, true])),
      },
      await searchSettingsFor(ctx.adapters.db, { userId, datasetId: first }),
    ),
  );
  return {
    hits: hits.map(hitOf),
    rerank,
    nextCursor: nextOffset === null ? null : encodeSearchCursor(identity, nextOffset),
  };
}
