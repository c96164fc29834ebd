import type { DocumentMetadata } from './documentMetadata';
import type { SystemField } from './searchFilter';

/**
 * What a filter can test of one document (contracts/searchFilter.ts): its metadata and system
 * fields, as stores that cannot join Postgres keep a copy of them (OpenSearch entries, Qdrant
 * payloads). `version` is the document's metadata_version: a copy only replaces an older one, so
 * copies written concurrently (an indexing batch and a metadata change) end at the newest.
 */
export interface DocumentFieldValues {
  version: number;
  metadata: DocumentMetadata;
  system: Record<SystemField, string | number | null>;
}
