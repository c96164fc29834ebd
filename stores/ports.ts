import type { Readable } from 'node:stream';
import type { SparseVector } from '../contracts/chunk';
import type { DocumentFieldValues } from '../contracts/documentFields';
import type { DocumentFilter } from '../contracts/searchFilter';

/** Every write and every search is scoped by user and dataset (docs/design.md §6). */
export interface TenantScope {
  userId: string;
  datasetId: string;
}

/**
 * What a search list covers: the user's datasets (datasetId, and moreDatasetIds when a search spans
 * several) and, with a filter, only the documents that pass it. Each store applies both inside its
 * own query (docs/search.md, "Filters").
 */
export interface SearchScope extends TenantScope {
  moreDatasetIds?: readonly string[];
  filter?: DocumentFilter;
}

export interface ObjectStore {
  /** Streams the body to the key; returns what was stored. Overwrites. */
  putStream(key: string, body: Readable): Promise<{ sizeBytes: number }>;
  putText(key: string, text: string): Promise<void>;
  /** Throws ObjectNotFoundError when the key does not exist. */
  getStream(key: string): Promise<Readable>;
  getText(key: string): Promise<string>;
  exists(key: string): Promise<boolean>;
  /** Deletes every object under the prefix; returns how many were deleted. */
  deletePrefix(prefix: string): Promise<number>;
  /**
   * Keys under the prefix last written before `before`, a page (at most 1000) at a time, so a
   * sweep over a large store holds one page. Unfinished writes are not objects: not listed.
   */
  listOlderThan(prefix: string, before: Date): AsyncIterable<string[]>;
  /**
   * Writes of keys under the prefix that were started and never finished, idle since before
   * `before`, a page at a time. Only under the prefix: a bucket may hold other writers' uploads.
   */
  listPartialWrites(prefix: string, before: Date): AsyncIterable<PartialWrite[]>;
  /** Drops what a partial write has stored so far; its putStream, if still running, fails. */
  abortPartialWrite(write: PartialWrite): Promise<void>;
  /**
   * A URL that reads the object without credentials until it expires, for a service that fetches
   * the source itself (the external parser). Only stores with an HTTP face have it (S3); it is a
   * bearer secret: never log it or put it in history or a failure reason.
   */
  presignGet?(key: string, expiresInSeconds: number): Promise<string>;
}

/** A write in progress or abandoned: a temp file of the local store, an S3 multipart upload. */
export interface PartialWrite {
  /** The key it writes. */
  key: string;
  /** The adapter's handle on it: temp file, upload id. */
  id: string;
  /** When it was last written to (local directory) or started (S3, which keeps no later time). */
  since: Date;
}

export class ObjectNotFoundError extends Error {
  override readonly name = 'ObjectNotFoundError';
  constructor(readonly key: string) {
    super(`object not found: ${key}`);
  }
}

export interface EmbeddingModelRef {
  model: string;
  dimension: number;
}

export interface DenseRecord {
  chunkId: string;
  documentId: string;
  vector: number[];
}

/** Every passage window vector of one chunk (chunker/passageWindows.ts), in window order. */
export interface PassageWindowRecord {
  chunkId: string;
  documentId: string;
  vectors: number[][];
}

export interface DenseCopy {
  fromChunkId: string;
  toChunkId: string;
  /** The target's document (the source's, for a rebuild). */
  documentId: string;
}

export interface SparseRecord {
  chunkId: string;
  documentId: string;
  sparse: SparseVector;
}

export interface SearchHit {
  chunkId: string;
  score: number;
}

/**
 * Dense vectors are kept per embedding model (model name and dimension): tenants' models differ
 * and change, and a vector is only comparable with vectors of the model that made it.
 */
export interface VectorStore {
  /** What an error message names: the adapter and where it keeps vectors (no address, no credential). */
  readonly name: string;
  /**
   * Upsert keyed by chunk id: writing the same chunk twice leaves one vector. A chunk has dense
   * vectors of one model at a time: writing it with a model removes its vectors of every other
   * (a re-embedding moves it). A vector not of the model's dimension is EMBEDDING_DIMENSION_UNSUPPORTED.
   */
  upsertDense(scope: TenantScope, model: EmbeddingModelRef, records: DenseRecord[]): Promise<void>;
  /**
   * The second dense vector: the chunk's vector from the model of its language (bge-small en or
   * zh), kept apart from the first so that neither write moves the other. Within it the same rules
   * hold: keyed by chunk id, one model at a time per chunk, dimension checked.
   */
  upsertLanguageDense(scope: TenantScope, model: EmbeddingModelRef, records: DenseRecord[]): Promise<void>;
  /**
   * The passage windows of chunks, embedded by the second dense vector's models: a record's windows
   * replace every window the chunk had (of any model), so a chunk holds one model's windows at a
   * time; dimensions are checked as for the other dense vectors.
   */
  upsertPassageWindows(scope: TenantScope, model: EmbeddingModelRef, records: PassageWindowRecord[]): Promise<void>;
  upsertSparse(scope: TenantScope, records: SparseRecord[]): Promise<void>;
  /**
   * Gives each `toChunkId` the dense vector `model` made for its `fromChunkId` (a rebuild's chunk
   * whose text an old chunk had: docs/rebuild.md). Upserts like upsertDense. Returns the target ids
   * that got a vector; a source without one of this model is skipped, and its target is embedded.
   */
  copyDense(scope: TenantScope, model: EmbeddingModelRef, copies: DenseCopy[]): Promise<string[]>;
  /**
   * The same for the second dense vector that `model` made, with the source chunk's passage
   * windows (in place of any the target had). Returns the target ids that got a vector.
   */
  copyLanguageDense(scope: TenantScope, model: EmbeddingModelRef, copies: DenseCopy[]): Promise<string[]>;
  /** Removes the document's dense vectors of every model (both dense vectors and the windows) and its sparse vectors. */
  deleteDocument(scope: TenantScope, documentId: string): Promise<void>;
  /** Removes the vectors (of every model) of chunks that a rebuild dropped. */
  deleteChunks(scope: TenantScope, chunkIds: string[]): Promise<void>;
  /**
   * Compares only vectors `model` made (a re-embedding may be half done). A query vector not of
   * the model's dimension is EMBEDDING_DIMENSION_UNSUPPORTED.
   */
  searchDense(scope: SearchScope, model: EmbeddingModelRef, vector: number[], limit: number): Promise<SearchHit[]>;
  /** searchDense over the second dense vectors: only those `model` made. */
  searchLanguageDense(
    scope: SearchScope,
    model: EmbeddingModelRef,
    vector: number[],
    limit: number,
  ): Promise<SearchHit[]>;
  /**
   * Scores the given chunks by their passage windows of `model`: each chunk that has windows gets
   * its best window's cosine with `vector`, best first (a chunk without windows is left out). The
   * chunks are a search's candidates from its other lists, so only their windows are read.
   */
  scorePassageWindows(
    scope: SearchScope,
    model: EmbeddingModelRef,
    vector: number[],
    chunkIds: string[],
  ): Promise<SearchHit[]>;
  searchSparse(scope: SearchScope, sparse: SparseVector, limit: number): Promise<SearchHit[]>;
  /**
   * Replaces the copy of the document's fields on its points where the copy is older than
   * `fields.version` (a store that filters by joining Postgres keeps none).
   */
  setDocumentFields(scope: TenantScope, documentId: string, fields: DocumentFieldValues): Promise<void>;
  /** `dense` counts the document's dense vectors of every model, the second dense vectors and windows included. */
  countForDocument(documentId: string): Promise<{ dense: number; sparse: number }>;
}

export interface KeywordEntry {
  chunkId: string;
  documentId: string;
  fileName: string;
  /** The chunk's text, for a standard analysed field. */
  text: string;
  /** The pretokenized terms of the chunk (the same ones that feed the sparse vectors). */
  tokens: string[];
  /** The document's metadata and system fields, for an index that keeps a copy to filter by. */
  documentFields?: DocumentFieldValues;
}

export interface KeywordIndex {
  ensureIndex(): Promise<void>;
  deleteDocument(scope: TenantScope, documentId: string): Promise<void>;
  /** Removes the document's entries of every chunk not in `keepChunkIds` (chunks a rebuild dropped). */
  deleteDocumentExcept(scope: TenantScope, documentId: string, keepChunkIds: string[]): Promise<void>;
  /**
   * Upserts keyed by chunk id: writing a chunk again replaces its entry, never adds one. Returns
   * the chunk ids the index refused; every other entry is written and searchable when this
   * returns. Throws when the call as a whole failed (then any of the entries may or may not be written).
   */
  bulkIndex(scope: TenantScope, entries: KeywordEntry[]): Promise<{ failedChunkIds: string[] }>;
  /** The entries of the scope's datasets and documents that match the tokens, best first. */
  search(scope: SearchScope, queryTokens: string[], limit: number): Promise<SearchHit[]>;
  /**
   * Replaces the copy of the document's fields on its entries where the copy is older than
   * `fields.version`; an index that filters by joining Postgres keeps none.
   */
  setDocumentFields(scope: TenantScope, documentId: string, fields: DocumentFieldValues): Promise<void>;
  countForDocument(documentId: string): Promise<number>;
}
