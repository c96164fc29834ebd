import { z } from 'zod';

/**
 * Sources a dataset follows (docs/sources.md): where the documents live, synced on a Temporal
 * Schedule by the `syncSource` workflow. Pure: the workflow imports the types and ids.
 */
export const SOURCE_KINDS = ['folder', 's3', 'git', 'web'] as const;
export type SourceKind = (typeof SOURCE_KINDS)[number];

const relativeGlobs = z.array(z.string().min(1).max(200)).max(20);

/** A folder on the worker's file system, under one of the roots SLUICE_SOURCE_FOLDER_ROOTS allows. */
export const folderSettingsSchema = z.strictObject({
  path: z.string().min(1).max(1024).describe('an absolute path under an allowed root'),
  include: relativeGlobs.optional().describe('only files whose relative path matches one of these globs'),
});

/** A bucket and prefix of any S3-compatible store. */
export const s3SettingsSchema = z.strictObject({
  bucket: z.string().min(3).max(63),
  prefix: z.string().max(1024).default(''),
  endpoint: z.string().url().max(500).optional().describe('left out: AWS S3'),
  region: z.string().min(1).max(50).default('us-east-1'),
  forcePathStyle: z.boolean().default(false),
  accessKeyId: z.string().min(1).max(200).optional().describe('left out: the AWS default credential chain'),
  include: relativeGlobs.optional(),
});

/** A git repository: a branch's files (optionally some globs of them), read from a local mirror the worker fetches. */
export const gitSettingsSchema = z.strictObject({
  url: z
    .string()
    .min(1)
    .max(1000)
    .describe('https://… (through the outbound policy) or file:// under an allowed folder root'),
  branch: z.string().min(1).max(200).default('main'),
  include: relativeGlobs.optional(),
});

/** A website: the pages a sitemap lists, or a crawl from a start URL within a URL prefix, robots.txt respected. */
export const webSettingsSchema = z
  .strictObject({
    sitemap: z.string().url().max(1000).optional(),
    startUrl: z.string().url().max(1000).optional(),
    prefix: z.string().url().max(1000).describe('only URLs under this prefix are read'),
    maxPages: z.number().int().min(1).max(100_000).default(1000),
    maxBytes: z.number().int().min(1).max(1_000_000_000_000).default(1_000_000_000),
  })
  .refine((w) => (w.sitemap === undefined) !== (w.startUrl === undefined), 'give sitemap or startUrl');

export type FolderSettings = z.infer<typeof folderSettingsSchema>;
export type S3Settings = z.infer<typeof s3SettingsSchema>;
export type GitSettings = z.infer<typeof gitSettingsSchema>;
export type WebSettings = z.infer<typeof webSettingsSchema>;
export type SourceSettings = FolderSettings | S3Settings | GitSettings | WebSettings;

/** Each kind's settings schema. */
export const SOURCE_SETTINGS_SCHEMAS = {
  folder: folderSettingsSchema,
  s3: s3SettingsSchema,
  git: gitSettingsSchema,
  web: webSettingsSchema,
} as const;

/** How often a source syncs: every N seconds (at least a minute) or a cron expression. */
export const scheduleSchema = z
  .strictObject({
    everySeconds: z.number().int().min(60).max(31_536_000).optional(),
    cron: z.string().min(9).max(100).optional(),
  })
  .refine((s) => (s.everySeconds === undefined) !== (s.cron === undefined), 'give everySeconds or cron');
export type SourceSchedule = z.infer<typeof scheduleSchema>;

/** What one sync did, kept on the source and shown by `sluice source list` and the API. */
export interface SyncCounts {
  listed: number;
  added: number;
  updated: number;
  deleted: number;
  unchanged: number;
  failed: number;
  /** How many entries failed with each code (a type, a size, a run's failure). */
  failures: Record<string, number>;
}

export interface SyncReport extends SyncCounts {
  syncId: string;
  startedAt: string;
  finishedAt: string;
  durationMs: number;
  /** Set when the listing itself failed (the source was unreachable past the budget). */
  error?: string;
}

export const emptyCounts = (): SyncCounts => ({
  listed: 0,
  added: 0,
  updated: 0,
  deleted: 0,
  unchanged: 0,
  failed: 0,
  failures: {},
});

export const SYNC_SOURCE_WORKFLOW_TYPE = 'syncSource';

/** The Schedule that starts a source's syncs (its runs get `sync:<sourceId>-<time>` ids). */
export function sourceScheduleId(sourceId: string): string {
  return `source:${sourceId}`;
}

export function syncWorkflowId(sourceId: string): string {
  return `sync:${sourceId}`;
}

export interface SyncSourceInput {
  sourceId: string;
  /** The source's owner and dataset: the document runs it starts are theirs. */
  userId: string;
  datasetId: string;
  /** How long a document run that failed waits for a retry (SLUICE_RETRY_WAIT when the source was added). */
  retryWait: string;
  /** Where the deployment requires it: the claim to act for userId (crypto/callerClaim.ts). */
  callerClaim?: string;
  /** After the listing: removing what the source no longer has. */
  phase?: 'list' | 'vanished';
  /** Set by the first run of a sync and carried through continue-as-new. */
  syncId?: string;
  startedAt?: string;
  cursor?: string | null;
  counts?: SyncCounts;
  /** Document runs between start and settlement at once (SLUICE_SOURCE_SYNC_CONCURRENCY). */
  maxOpen?: number;
}

/** What fetching a new or moved entry found (activities/sources/fetchSourceEntry.ts). */
export type FetchedEntry =
  | { kind: 'ingest'; documentId: string; taskId: string }
  | {
      kind: 'replace';
      documentId: string;
      taskId: string;
      replaceOfTaskId: string;
      replacement: { sha256: string; sizeBytes: number; fileName: string };
    }
  | { kind: 'unchanged' }
  | { kind: 'failed'; code: string };
