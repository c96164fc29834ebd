import { Client, errors, type ClientOptions } from '@opensearch-project/opensearch';
import { AwsSigv4Signer } from '@opensearch-project/opensearch/aws-v3';
import { defaultProvider } from '@aws-sdk/credential-provider-node';
import { transientError } from '../contracts/sluiceError';
import { copyFieldsToEntries } from './openSearchFieldsCopy';
import {
  DOCUMENT_FIELDS_MAPPING,
  KEYWORD_INDEX_BODY,
  TOKENS_ANALYZER,
  tenantFilter,
  toKeywordDoc,
} from './openSearchIndexMapping';
import { searchFilterClauses } from './openSearchFilter';
import type { KeywordEntry, KeywordIndex, SearchHit, TenantScope } from './ports';

type CredentialProvider = ReturnType<typeof defaultProvider>;

export interface OpenSearchKeywordIndexOptions {
  /** e.g. http://127.0.0.1:9200 */
  node: string;
  index: string;
  username?: string;
  password?: string;
  /** PEM CA bundle that signs the server's certificate (https nodes); Node's built-in CAs otherwise. */
  ca?: string;
  /**
   * Amazon OpenSearch Service (`es`) or Serverless (`aoss`): every request SigV4-signed.
   * `credentials` defaults to the AWS SDK's default chain (env, profile, web identity, instance role).
   */
  awsSigv4?: { region: string; service: 'es' | 'aoss'; credentials?: CredentialProvider };
}

/** A KeywordIndex that also owns an HTTP client, to be closed when the process shuts down. */
export interface OpenSearchKeywordIndex extends KeywordIndex {
  close(): Promise<void>;
}

/** Entries per bulk request: a few hundred chunks keep a request well under the size limits. */
const WRITE_BATCH = 200;
/** Long queries add little ranking signal but cost a clause each (as in the Postgres adapter). */
const MAX_QUERY_TERMS = 32;
/** OpenSearch refuses from + size beyond index.max_result_window (10,000 by default). */
const MAX_RESULT_WINDOW = 10_000;

const errorType = (err: unknown): string | undefined =>
  err instanceof errors.ResponseError
    ? (err.body as { error?: { type?: string } } | undefined)?.error?.type
    : undefined;

const isIndexMissing = (err: unknown): boolean => errorType(err) === 'index_not_found_exception';

const describe = (err: unknown): string => (err instanceof Error ? err.message : String(err));

function clientOptions(options: OpenSearchKeywordIndexOptions): ClientOptions {
  const { awsSigv4 } = options;
  return {
    node: options.node,
    ...(options.username !== undefined
      ? { auth: { username: options.username, password: options.password ?? '' } }
      : {}),
    // Certificate checks stay on: the CA only replaces the trust roots.
    ...(options.ca !== undefined ? { ssl: { ca: options.ca, rejectUnauthorized: true } } : {}),
    // The signer's Connection signs each request; its Transport refetches credentials before they expire.
    ...(awsSigv4
      ? AwsSigv4Signer({
          region: awsSigv4.region,
          service: awsSigv4.service,
          getCredentials: awsSigv4.credentials ?? defaultProvider(),
        })
      : {}),
  };
}

/**
 * The production keyword index (docs/design.md §6): one OpenSearch index holding an entry per chunk,
 * keyed by chunk id, with the tenant and document fields on every entry.
 */
export function createOpenSearchKeywordIndex(options: OpenSearchKeywordIndexOptions): OpenSearchKeywordIndex {
  const { index } = options;
  const client = new Client(clientOptions(options));

  async function bulkBatch(scope: TenantScope, batch: KeywordEntry[]): Promise<string[]> {
    const body = batch.flatMap((entry) => [
      { index: { _index: index, _id: entry.chunkId } },
      toKeywordDoc(scope, entry),
    ]);
    let items;
    try {
      // wait_for: the entries are searchable when this returns, without forcing a refresh per call.
      ({
        body: { items },
      } = await client.bulk({ body, refresh: 'wait_for' }));
    } catch (err) {
      throw transientError(
        'KEYWORD_INDEXING_FAILED',
        `bulk write to OpenSearch index ${index} failed: ${describe(err)}`,
        err,
      );
    }
    // Every item is checked, not just the top-level `errors` flag; items come back in request order.
    return batch
      .filter((entry, i) => {
        const result = items[i]?.index;
        return (
          result === undefined || result.error !== undefined || result.status >= 300 || result._id !== entry.chunkId
        );
      })
      .map((entry) => entry.chunkId);
  }

  async function deleteEntries(scope: TenantScope, documentId: string, mustNot: object[]): Promise<void> {
    try {
      const { body } = await client.deleteByQuery({
        index,
        refresh: true,
        // A concurrent write to one of these entries must not abort the rest of the delete.
        conflicts: 'proceed',
        body: {
          query: {
            bool: { filter: [...tenantFilter(scope), { term: { document_id: documentId } }], must_not: mustNot },
          },
        },
      });
      const failures = 'failures' in body ? (body.failures ?? []) : [];
      if (failures.length > 0) {
        throw new Error(
          `${failures.length} entries could not be deleted: ${JSON.stringify(failures[0]).slice(0, 300)}`,
        );
      }
    } catch (err) {
      if (isIndexMissing(err)) return; // nothing was ever indexed
      throw transientError(
        'KEYWORD_DELETE_FAILED',
        `cannot delete entries of document ${documentId} from OpenSearch index ${index}: ${describe(err)}`,
        err,
      );
    }
  }

  return {
    async ensureIndex() {
      try {
        const { body: exists } = await client.indices.exists({ index });
        // An index made before the document fields existed gets them: adding fields to a mapping is allowed.
        if (exists) await client.indices.putMapping({ index, body: { properties: DOCUMENT_FIELDS_MAPPING } });
        else await client.indices.create({ index, body: KEYWORD_INDEX_BODY });
      } catch (err) {
        // Another worker created it between our check and our create: that is what we wanted.
        if (errorType(err) === 'resource_already_exists_exception') return;
        throw transientError('ENSURE_INDEX_FAILED', `cannot create OpenSearch index ${index}: ${describe(err)}`, err);
      }
    },

    deleteDocument: (scope, documentId) => deleteEntries(scope, documentId, []),

    // The kept ids go in one `ids` clause, which has no cap like a `terms` query's 65,536 values.
    deleteDocumentExcept: (scope, documentId, keepChunkIds) =>
      deleteEntries(scope, documentId, keepChunkIds.length > 0 ? [{ ids: { values: keepChunkIds } }] : []),

    async bulkIndex(scope, entries) {
      const failedChunkIds: string[] = [];
      for (let i = 0; i < entries.length; i += WRITE_BATCH) {
        for (const id of await bulkBatch(scope, entries.slice(i, i + WRITE_BATCH))) failedChunkIds.push(id);
      }
      return { failedChunkIds };
    },

    async search(scope, queryTokens, limit): Promise<SearchHit[]> {
      const terms = [...new Set(queryTokens)].slice(0, MAX_QUERY_TERMS);
      const size = Math.min(Math.max(0, Math.floor(limit)), MAX_RESULT_WINDOW);
      if (terms.length === 0 || size === 0) return [];
      const query = terms.join(' ');
      try {
        const { body } = await client.search({
          index,
          body: {
            size,
            _source: false,
            query: {
              bool: {
                should: [
                  // The pretokenized terms are the precise signal; the analysed text is a fallback.
                  { match: { tokens: { query, operator: 'or', analyzer: TOKENS_ANALYZER, boost: 2 } } },
                  { match: { text: { query } } },
                ],
                // With a filter present, should clauses are optional unless required explicitly.
                minimum_should_match: 1,
                filter: searchFilterClauses(scope),
              },
            },
          },
        });
        return body.hits.hits.map((hit) => ({ chunkId: hit._id ?? '', score: hit._score ?? 0 }));
      } catch (err) {
        if (isIndexMissing(err)) return [];
        throw err;
      }
    },

    async setDocumentFields(scope, documentId, fields) {
      try {
        await copyFieldsToEntries(client, index, scope, documentId, fields);
      } catch (err) {
        if (isIndexMissing(err)) return;
        throw transientError(
          'KEYWORD_INDEXING_FAILED',
          `cannot copy the fields of document ${documentId} to OpenSearch index ${index}: ${describe(err)}`,
          err,
        );
      }
    },

    async countForDocument(documentId) {
      try {
        const { body } = await client.count({ index, body: { query: { term: { document_id: documentId } } } });
        return body.count;
      } catch (err) {
        if (isIndexMissing(err)) return 0;
        throw err;
      }
    },

    async close() {
      await client.close();
    },
  };
}
