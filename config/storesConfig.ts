import { z } from 'zod';

export type Profile = 'local' | 'production';

/** Which adapter serves each port (DESIGN.md §6), and the settings of the chosen ones. */
export interface StoresConfig {
  profile: Profile;
  objectStore:
    | { kind: 'local' }
    | {
        kind: 's3';
        endpoint: string | undefined;
        region: string;
        bucket: string;
        accessKeyId: string;
        secretAccessKey: string;
        forcePathStyle: boolean;
      };
  vectorStore: { kind: 'postgres' } | { kind: 'qdrant'; url: string; apiKey: string | undefined; collection: string };
  keywordIndex:
    | { kind: 'postgres' }
    | { kind: 'opensearch'; url: string; index: string; username: string | undefined; password: string | undefined };
  /**
   * For everyone: `local-model` the semantic model on the CPU (embedders/localModelEmbedder.ts),
   * `local` the hashing embedder (fast, lexical: tests); `user-config`: each user's default in embedding_configs.
   */
  embedder: { kind: 'local' } | { kind: 'local-model' } | { kind: 'user-config'; secretKey: string };
}

const optional = z.string().min(1).optional();

export const storesEnvSchema = z.object({
  SLUICE_PROFILE: z.enum(['local', 'production']).default('local'),
  SLUICE_OBJECT_STORE: z.enum(['local', 's3']).optional(),
  SLUICE_VECTOR_STORE: z.enum(['postgres', 'qdrant']).optional(),
  SLUICE_KEYWORD_INDEX: z.enum(['postgres', 'opensearch']).optional(),
  SLUICE_EMBEDDER: z.enum(['local', 'local-model', 'user-config']).optional(),
  S3_ENDPOINT: z.url().optional(),
  S3_REGION: z.string().min(1).default('us-east-1'),
  S3_BUCKET: optional,
  S3_ACCESS_KEY_ID: optional,
  S3_SECRET_ACCESS_KEY: optional,
  S3_FORCE_PATH_STYLE: z.enum(['true', 'false']).optional(),
  QDRANT_URL: z.url().optional(),
  QDRANT_API_KEY: optional,
  QDRANT_COLLECTION: z.string().min(1).default('sluice_chunks'),
  OPENSEARCH_URL: z.url().optional(),
  OPENSEARCH_INDEX: z
    .string()
    .regex(/^[a-z0-9][a-z0-9_-]*$/, 'must be a lower-case OpenSearch index name')
    .default('sluice-chunks'),
  OPENSEARCH_USERNAME: optional,
  OPENSEARCH_PASSWORD: optional,
  SLUICE_SECRET_KEY: optional,
});

type StoresEnv = z.infer<typeof storesEnvSchema>;

/**
 * The production profile defaults every port to its production adapter; each port can still be
 * chosen on its own (e.g. S3 + OpenSearch with Postgres vectors where no Qdrant runs). Every
 * setting the chosen adapters need and lack is reported, not just the first.
 */
export function resolveStores(e: StoresEnv, problems: string[]): StoresConfig {
  const production = e.SLUICE_PROFILE === 'production';
  const need = (name: keyof StoresEnv, why: string): string => {
    const value = e[name];
    if (typeof value !== 'string' || value === '') problems.push(`${name}: required ${why}`);
    return typeof value === 'string' ? value : '';
  };

  const objectKind = e.SLUICE_OBJECT_STORE ?? (production ? 's3' : 'local');
  const vectorKind = e.SLUICE_VECTOR_STORE ?? (production ? 'qdrant' : 'postgres');
  const keywordKind = e.SLUICE_KEYWORD_INDEX ?? (production ? 'opensearch' : 'postgres');
  const embedderKind = e.SLUICE_EMBEDDER ?? (production ? 'user-config' : 'local-model');

  return {
    profile: e.SLUICE_PROFILE,
    objectStore:
      objectKind === 's3'
        ? {
            kind: 's3',
            endpoint: e.S3_ENDPOINT,
            region: e.S3_REGION,
            bucket: need('S3_BUCKET', 'for the S3 object store'),
            accessKeyId: need('S3_ACCESS_KEY_ID', 'for the S3 object store'),
            secretAccessKey: need('S3_SECRET_ACCESS_KEY', 'for the S3 object store'),
            // Self-hosted S3 servers rarely have virtual-host DNS; AWS itself wants virtual hosts.
            forcePathStyle: e.S3_FORCE_PATH_STYLE ? e.S3_FORCE_PATH_STYLE === 'true' : e.S3_ENDPOINT !== undefined,
          }
        : { kind: 'local' },
    vectorStore:
      vectorKind === 'qdrant'
        ? {
            kind: 'qdrant',
            url: need('QDRANT_URL', 'for the Qdrant vector store'),
            apiKey: e.QDRANT_API_KEY,
            collection: e.QDRANT_COLLECTION,
          }
        : { kind: 'postgres' },
    keywordIndex:
      keywordKind === 'opensearch'
        ? {
            kind: 'opensearch',
            url: need('OPENSEARCH_URL', 'for the OpenSearch keyword index'),
            index: e.OPENSEARCH_INDEX,
            username: e.OPENSEARCH_USERNAME,
            password: e.OPENSEARCH_PASSWORD,
          }
        : { kind: 'postgres' },
    embedder:
      embedderKind === 'user-config'
        ? {
            kind: 'user-config',
            secretKey: need(
              'SLUICE_SECRET_KEY',
              'to decrypt the API keys of per-user embedding configs (32 bytes, base64 or hex)',
            ),
          }
        : { kind: embedderKind },
  };
}
