import { parseDocumentFilter, type DocumentFilter } from '../contracts/searchFilter';
import type { SearchRequest } from '../search/searchDataset';

export interface SearchOptions {
  dataset: string;
  user?: string;
  limit: string;
  filter?: string;
  also?: string;
  page: string;
  minScore?: string;
  show?: string;
}

const PARTS = ['parent', 'highlights', 'metadata'] as const;

/** `sluice search`'s options as a request; throws with a message that names the option at fault. */
export function searchRequestOf(
  query: string,
  opts: SearchOptions,
): { request: SearchRequest; scope: { moreDatasetIds?: string[]; filter?: DocumentFilter } } {
  const limit = Number(opts.limit);
  const page = Number(opts.page);
  if (!Number.isInteger(limit) || limit < 1 || limit > 50) throw new Error('--limit: a whole number from 1 to 50');
  if (!Number.isInteger(page) || page < 1) throw new Error('--page: a whole number from 1');
  let filter: DocumentFilter | undefined;
  if (opts.filter !== undefined) {
    let json: unknown;
    try {
      json = JSON.parse(opts.filter);
    } catch {
      throw new Error('--filter: not JSON');
    }
    filter = parseDocumentFilter(json);
  }
  const minScore = opts.minScore === undefined ? undefined : Number(opts.minScore);
  if (minScore !== undefined && !(minScore >= 0)) throw new Error('--min-score: a number from 0');
  const shown = (opts.show ?? '').split(',').filter(Boolean);
  const unknown = shown.find((part) => !(PARTS as readonly string[]).includes(part));
  if (unknown) throw new Error(`--show: ${unknown} is not one of ${PARTS.join(', ')}`);
  const more = (opts.also ?? '').split(',').filter(Boolean);
  return {
    request: {
      query,
      limit,
      offset: (page - 1) * limit,
      ...(minScore === undefined ? {} : { minScore }),
      include: Object.fromEntries(shown.map((part) => [part, true])),
    },
    scope: { ...(more.length > 0 ? { moreDatasetIds: more } : {}), ...(filter ? { filter } : {}) },
  };
}
