import type { MarkdownLimits } from '../parsers/parseLimits';
import type { Kysely } from 'kysely';
import type { CpuPool } from '../cpuPool/pool';
import type { Database } from '../db/database';
import type { BgeEmbedders } from '../embedders/bgeEmbedder';
import type { EmbedderResolver } from '../embedders/embedderResolver';
import type { KeywordIndex, ObjectStore, VectorStore } from '../stores/ports';
import type { Notifier } from '../stores/notifier';
import type { ParserServiceClient } from '../parserService/parserServiceClient';
import type { OutboundPolicy } from '../outbound/outboundHttp';
import type { IngestionRuns } from './ingestionRuns';
import type { CallerClaims } from '../crypto/callerClaim';
import type { SourceRow } from '../db/repositories/sources';
import type { SourceReader } from '../stores/sources/sourceReader';

/** The external parsing service (config/parserServiceConfig.ts) and how long to wait on it. */
export interface ParserServiceDeps {
  client: ParserServiceClient;
  timeoutMs: number;
  pollMs: number;
  outageMs: number;
  sourceUrlTtlSeconds: number;
}

/** Everything the activities touch, handed in by the worker (the only composition root). */
export interface ActivityDeps {
  db: Kysely<Database>;
  objects: ObjectStore;
  vectors: VectorStore;
  keywords: KeywordIndex;
  embedders: EmbedderResolver;
  /** The second dense vector's models, by language; null when it is off (SLUICE_LANGUAGE_DENSE). */
  languageEmbedders: BgeEmbedders | null;
  notifier: Notifier;
  runs: IngestionRuns;
  /** SLUICE_REQUIRE_CALLER_CLAIM and the keys a claim may be signed with (crypto/callerClaim.ts). */
  callerClaims: CallerClaims;
  /** Warm threads for the CPU work over user content (parse, chunk, tokenize, sparse), under its limits. */
  cpu: CpuPool;
  /** Null when no SLUICE_PARSER_SERVICE_URL is set: datasets asking for it fail PARSE_ENGINE_FAILED. */
  parserService: ParserServiceDeps | null;
  /** Chat and vision calls (activities/stages/enrichChunks.ts): their limits, policy and the keys that unseal model keys. */
  enrichment: {
    batchSize: number;
    maxResponseBytes: number;
    /** SLUICE_VISION_MAX_IMAGE_BYTES: a larger image is not sent. */
    maxImageBytes: number;
    outbound: OutboundPolicy;
    /** SLUICE_SECRET_KEY, then SLUICE_SECRET_KEY_PREVIOUS; empty when none is set (a stored key then cannot be read). */
    secretKeys: Buffer[];
  };
  /** The readers of synced sources (docs/sources.md): a row's folder or S3 prefix, its credentials opened. */
  sources: { readerOf(row: SourceRow): SourceReader };
  settings: {
    tmpDir: string;
    maxFileBytes: number;
    /** SLUICE_MAX_UNCOMPRESSED_BYTES: the zip-bomb guard, also when CLEANING copies a package's pictures. */
    maxUncompressedBytes: number;
    /**
     * What a document may produce (SLUICE_MAX_MARKDOWN_BYTES, SLUICE_MARKDOWN_BYTES_PER_SOURCE_BYTE):
     * a parsing service's answer, markdown and images together, is held to it as the built-in parsers are.
     */
    markdown: MarkdownLimits;
    embedBatchSize: number;
    /** SLUICE_PASSAGE_WINDOWS: the second dense vector's VECTORIZING also embeds each chunk's passage windows. */
    passageWindows: boolean;
    /** SLUICE_MAX_PASSAGE_WINDOWS_PER_DOCUMENT: the windows one document may have in all. */
    maxWindowsPerDocument: number;
    chunking: { maxTokens: number; overlapTokens: number; maxChunks?: number };
    localStages: { maxSourceBytes: number; maxChunks: number };
    /** SLUICE_OUTAGE_BUDGET: handed to the run by prepareTask, which sets its stages' retry bound with it. */
    outageBudgetMs: number;
    /** SLUICE_FAIRNESS and SLUICE_FAIRNESS_WEIGHTS: handed to the run by prepareTask, which its stages' activities carry. */
    fairness: { on: boolean; weights: Readonly<Record<string, number>> };
    /** Per-user limits a run started from a named source is registered under, as an upload is. */
    quota: { maxBytes: number; maxDocuments: number };
    /** The S3 bucket of the object store (the one `s3://` sources may name); null for the local store. */
    objectBucket: string | null;
  };
}
