import type { API } from '@opensearch-project/opensearch';
import { encodedFields } from './fieldEncoding';
import type { KeywordEntry, TenantScope } from './ports';

/** The analyzer of the pretokenized field: split on whitespace, lowercase, nothing else. */
export const TOKENS_ANALYZER = 'sluice_pretokenized';

/**
 * The copy of the document's metadata and system fields on each entry, for filters
 * (stores/fieldEncoding.ts): one keyword field of encoded terms, so tenants' keys never add to
 * the mapping, and the metadata version the copy was made from.
 */
export const DOCUMENT_FIELDS_MAPPING = {
  fields: { type: 'keyword' },
  fields_version: { type: 'long' },
} as const;

/**
 * Settings and mappings of the keyword index. `tokens` holds the terms PRETOKENIZE computed (the
 * same ones that feed the sparse vectors), so its analysis only splits them apart again and
 * lowercases: no stemming or stop words on top, and CJK words stay whole. `text` is the chunk's
 * text under the standard analyzer, as a fallback. The tenant and document fields are keywords,
 * copied into every entry so that filters and deletes need no join. `dynamic: strict` keeps a
 * stray field from growing the mapping.
 */
export const KEYWORD_INDEX_BODY: API.Indices_Create_RequestBody = {
  settings: {
    number_of_shards: 1,
    // Green on a single development node, one replica as soon as a second node joins.
    auto_expand_replicas: '0-1',
    analysis: {
      analyzer: {
        [TOKENS_ANALYZER]: { type: 'custom', tokenizer: 'whitespace', filter: ['lowercase'] },
      },
    },
  },
  mappings: {
    dynamic: 'strict',
    properties: {
      chunk_id: { type: 'keyword' },
      document_id: { type: 'keyword' },
      user_id: { type: 'keyword' },
      dataset_id: { type: 'keyword' },
      file_name: { type: 'keyword' },
      tags: { type: 'keyword' },
      ...DOCUMENT_FIELDS_MAPPING,
      text: { type: 'text', analyzer: 'standard' },
      tokens: { type: 'text', analyzer: TOKENS_ANALYZER },
    },
  },
};

/** One entry as stored: `_id` is the chunk id, so writing a chunk again replaces it. */
export interface KeywordDoc {
  chunk_id: string;
  document_id: string;
  user_id: string;
  dataset_id: string;
  file_name: string;
  tags?: string[];
  text: string;
  tokens: string[];
  fields?: string[];
  fields_version?: number;
}

export function toKeywordDoc(scope: TenantScope, entry: KeywordEntry): KeywordDoc {
  return {
    chunk_id: entry.chunkId,
    document_id: entry.documentId,
    user_id: scope.userId,
    dataset_id: scope.datasetId,
    file_name: entry.fileName,
    text: entry.text,
    tokens: entry.tokens,
    ...(entry.documentFields
      ? { fields: encodedFields(entry.documentFields), fields_version: entry.documentFields.version }
      : {}),
  };
}

/** The tenant filter every search, delete and count of a tenant goes through. */
export function tenantFilter(scope: TenantScope): Array<{ term: Record<string, string> }> {
  return [{ term: { user_id: scope.userId } }, { term: { dataset_id: scope.datasetId } }];
}
