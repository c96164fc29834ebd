import type { Client, API } from '@opensearch-project/opensearch';
import type { DocumentFieldValues } from '../contracts/documentFields';
import { transientError } from '../contracts/sluiceError';
import { encodedFields } from './fieldEncoding';
import { tenantFilter } from './openSearchIndexMapping';
import type { TenantScope } from './ports';

const PAGE = 1000;
/** Rounds of re-reading after entries changed under the copy; each round only sees newer writes. */
const MAX_ROUNDS = 10;

/**
 * Sets the document's fields on its entries whose copy is older than `fields.version` (or that
 * have none), without a script: the entries are read a page at a time and each is updated only if
 * it is still the one read (`if_seq_no`). An entry rewritten meanwhile (an indexing batch) is read
 * again in the next round, so the copy ends at the newest version whatever the order of writers,
 * and a slower, older copy never undoes a newer one.
 */
export async function copyFieldsToEntries(
  client: Client,
  index: string,
  scope: TenantScope,
  documentId: string,
  fields: DocumentFieldValues,
): Promise<void> {
  const terms = encodedFields(fields);
  const stale = {
    bool: {
      filter: [...tenantFilter(scope), { term: { document_id: documentId } }],
      must_not: [{ range: { fields_version: { gte: fields.version } } }],
    },
  };
  for (let round = 0; round < MAX_ROUNDS; round += 1) {
    let conflicts = 0;
    let after: API.Search_RequestBody['search_after'];
    for (;;) {
      const { body } = await client.search({
        index,
        body: {
          size: PAGE,
          _source: false,
          seq_no_primary_term: true,
          query: stale,
          sort: [{ chunk_id: 'asc' }],
          ...(after ? { search_after: after } : {}),
        },
      });
      const hits = body.hits.hits;
      if (hits.length === 0) break;
      const operations = hits.flatMap((hit) => [
        { update: { _index: index, _id: hit._id, if_seq_no: hit._seq_no, if_primary_term: hit._primary_term } },
        { doc: { fields: terms, fields_version: fields.version } },
      ]);
      const { body: result } = await client.bulk({ body: operations, refresh: 'wait_for' });
      for (const item of result.items) {
        const status = item.update?.status ?? 200;
        if (status === 409) conflicts += 1;
        else if (status >= 300 && status !== 404)
          throw transientError('KEYWORD_INDEXING_FAILED', `updating an entry's fields answered ${status}`);
      }
      if (hits.length < PAGE) break;
      after = hits[hits.length - 1]?.sort;
    }
    if (conflicts === 0) return;
  }
  throw transientError(
    'KEYWORD_INDEXING_FAILED',
    `the entries of document ${documentId} kept changing while their fields were copied`,
  );
}
