import type { Migration, MigrationProvider } from 'kysely';
import * as initialSchema from './20261130T1400_initial_schema';
import * as chunkEmbeddingModel from './20261130T1500_chunk_embedding_model';
import * as apiKeys from './20261201T0900_api_keys';
import * as chunkChildRange from './20261202T1000_chunk_child_range';
import * as documentProducedBytes from './20261202T2100_document_produced_bytes';
import * as denseVectorsModelIdx from './20261202T2200_dense_vectors_model_idx';
import * as adminSessionRevocations from './20261203T2100_admin_session_revocations';
import * as datasetSettings from './20261204T0900_dataset_settings';
import * as ocrProvenance from './20261205T0100_ocr_provenance';
import * as languageDenseVectors from './20261205T0400_language_dense_vectors';
import * as chunkingPlans from './20261205T0200_chunking_plans';
import * as chunkGenerations from './20261205T0300_chunk_generations';
import * as parserBackendsAndEnrichment from './20261205T0500_parser_backends_and_enrichment';
import * as cleaningEnrichments from './20261206T0100_cleaning_enrichments';
import * as denseQuantizedRerank from './20261207T0100_dense_quantized_rerank';
import * as searchTablesSerialScans from './20261207T0200_search_tables_serial_scans';
import * as denseCells from './20261208T0100_dense_cells';
import * as passageWindows from './20261209T0100_passage_windows';
import * as documentWindowBytes from './20261210T0100_document_window_bytes';
import * as pgvector from './20261211T0100_pgvector';
import * as documentMetadata from './20261213T0100_document_metadata';
import * as chunkPages from './20261213T0200_chunk_pages';
import * as contentVersions from './20261214T0100_content_versions';
import * as sources from './20261214T0200_sources';
import * as rerankModelConfigs from './20261212T0100_rerank_model_configs';

/**
 * Migrations are listed statically rather than discovered on disk, so they run the same way
 * under tsx, Jest and a compiled build. Names sort by their timestamp prefix.
 */
const migrations: Record<string, Migration> = {
  '20261130T1400_initial_schema': initialSchema,
  '20261130T1500_chunk_embedding_model': chunkEmbeddingModel,
  '20261201T0900_api_keys': apiKeys,
  '20261202T1000_chunk_child_range': chunkChildRange,
  '20261202T2100_document_produced_bytes': documentProducedBytes,
  '20261202T2200_dense_vectors_model_idx': denseVectorsModelIdx,
  '20261203T2100_admin_session_revocations': adminSessionRevocations,
  '20261204T0900_dataset_settings': datasetSettings,
  '20261205T0100_ocr_provenance': ocrProvenance,
  '20261205T0400_language_dense_vectors': languageDenseVectors,
  '20261205T0200_chunking_plans': chunkingPlans,
  '20261205T0300_chunk_generations': chunkGenerations,
  '20261205T0500_parser_backends_and_enrichment': parserBackendsAndEnrichment,
  '20261206T0100_cleaning_enrichments': cleaningEnrichments,
  '20261207T0100_dense_quantized_rerank': denseQuantizedRerank,
  '20261207T0200_search_tables_serial_scans': searchTablesSerialScans,
  '20261208T0100_dense_cells': denseCells,
  '20261209T0100_passage_windows': passageWindows,
  '20261210T0100_document_window_bytes': documentWindowBytes,
  '20261211T0100_pgvector': pgvector,
  '20261212T0100_rerank_model_configs': rerankModelConfigs,
  '20261213T0100_document_metadata': documentMetadata,
  '20261213T0200_chunk_pages': chunkPages,
  '20261214T0100_content_versions': contentVersions,
  '20261214T0200_sources': sources,
};

export const migrationProvider: MigrationProvider = {
  getMigrations: () => Promise.resolve(migrations),
};
