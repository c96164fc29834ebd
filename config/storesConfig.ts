import { z } from 'zod';
import { DEFAULT_EF_SEARCH } from '../contracts/pgvectorSearch';

export type Profile = 'local' | 'production';

/** Which adapter serves each port (docs/design.md §6), and the settings of the chosen ones. */
export interface StoresConfig {
  profile: Profile;
  objectStore:
    | { kind: 'local' }
    | {
        kind: 's3';
        endpoint: string | undefined;
        region: string;
        bucket: string;
        /** null: the AWS SDK's default credential chain (env, profile, web identity, instance role). */
        credentials: { accessKeyId: string; secretAccessKey: string } | null;
        forcePathStyle: boolean;
      };
  vectorStore:
    /** Postgres with pgvector (stores/postgresVectorStore.ts): the local profile's, or a managed Postgres's. */
    | { kind: 'postgres'; efSearch: number }
    | { kind: 'qdrant'; url: string; apiKey: string | undefined; collection: string };
  keywordIndex:
    | { kind: 'postgres' }
    | {
        kind: 'opensearch';
        url: string;
        index: string;
        username: string | undefined;
        password: string | undefined;
        /** PEM bundle of the CAs that sign the server's certificate (a path), instead of Node's built-in list. */
        caFile: string | undefined;
        /** Amazon OpenSearch Service: requests signed with SigV4 from the default credential chain. */
        awsSigv4: { region: string; service: 'es' | 'aoss' } | null;
      };
  /**
   * For everyone: `local-model` the semantic model on the CPU (embedders/localModelEmbedder.ts),
   * `local` the hashing embedder (fast, lexical: tests); `user-config`: each user's default in embedding_configs.
   */
  embedder: { kind: 'local' } | { kind: 'local-model' } | { kind: 'user-config'; secretKey: string };
}

const optional = z.string().min(1).optional();

export const profileEnv = {
  SLUICE_PROFILE: z
    .enum(['local', 'production'])
    .default('local')
    .describe(
      '`production` defaults every port to its production adapter (S3, Qdrant, OpenSearch, per-user embedding configs); `local` to the embedded ones.',
    ),
};

export const objectStoreEnv = {
  SLUICE_OBJECT_STORE: z
    .enum(['local', 's3'])
    .optional()
    .describe('Object store adapter. Unset: `s3` on the production profile, else `local` (a directory).'),
  S3_ENDPOINT: z.url().optional().describe('An S3-compatible server (self-hosted). Unset: AWS.'),
  S3_REGION: z.string().min(1).default('us-east-1').describe('S3 region.'),
  S3_BUCKET: optional.describe('Bucket of sources, markdown and token plans; required for the S3 store.'),
  S3_ACCESS_KEY_ID: optional.describe(
    'Static S3 access key id, set with S3_SECRET_ACCESS_KEY. Unset: the AWS default credential chain.',
  ),
  S3_SECRET_ACCESS_KEY: optional.describe('Static S3 secret key, set with S3_ACCESS_KEY_ID.'),
  S3_FORCE_PATH_STYLE: z
    .enum(['true', 'false'])
    .optional()
    .describe('Path-style bucket addressing. Unset: on with S3_ENDPOINT, off for AWS (which wants virtual hosts).'),
};

export const vectorStoreEnv = {
  SLUICE_VECTOR_STORE: z
    .enum(['postgres', 'qdrant'])
    .optional()
    .describe(
      'Vector store adapter (dense and sparse): `postgres` (pgvector; a managed Postgres in production) or `qdrant`. Unset: `qdrant` on the production profile, else `postgres`.',
    ),
  SLUICE_PGVECTOR_EF_SEARCH: z.coerce
    .number()
    .int()
    .min(10)
    .max(1000)
    .default(DEFAULT_EF_SEARCH)
    .describe(
      "Postgres vectors: pgvector's hnsw.ef_search, the candidates a dense search's graph walk keeps (more: recall up, latency up; docs/search.md).",
    ),
  QDRANT_URL: z.url().optional().describe('Qdrant server; required for the Qdrant store.'),
  QDRANT_API_KEY: optional.describe('Qdrant API key.'),
  QDRANT_COLLECTION: z
    .string()
    .min(1)
    .default('sluice_chunks')
    .describe('Base collection (sparse vectors); the dense ones get a collection per model named after it.'),
};

export const keywordIndexEnv = {
  SLUICE_KEYWORD_INDEX: z
    .enum(['postgres', 'opensearch'])
    .optional()
    .describe('Keyword index adapter. Unset: `opensearch` on the production profile, else `postgres` (full text).'),
  OPENSEARCH_URL: z.url().optional().describe('OpenSearch server; required for the OpenSearch index.'),
  OPENSEARCH_INDEX: z
    .string()
    .regex(/^[a-z0-9][a-z0-9_-]*$/, 'must be a lower-case OpenSearch index name')
    .default('sluice-chunks')
    .describe('The OpenSearch index holding an entry per chunk.'),
  OPENSEARCH_USERNAME: optional.describe('OpenSearch basic-auth user.'),
  OPENSEARCH_PASSWORD: optional.describe('OpenSearch basic-auth password.'),
  OPENSEARCH_CA_FILE: optional.describe(
    "PEM bundle of the CAs that sign OpenSearch's certificate, instead of Node's built-in list.",
  ),
  OPENSEARCH_AWS_SIGV4: z
    .enum(['es', 'aoss'])
    .optional()
    .describe('Amazon OpenSearch Service: sign requests with SigV4 from the AWS default chain (`aoss`: Serverless).'),
  OPENSEARCH_AWS_REGION: optional.describe("The domain's AWS region; required with OPENSEARCH_AWS_SIGV4."),
};

export const embedderEnv = {
  SLUICE_EMBEDDER: z
    .enum(['local', 'local-model', 'user-config'])
    .optional()
    .describe(
      "`local-model`: the semantic model on the CPU; `local`: the hashing embedder (lexical, for tests); `user-config`: each user's provider. Unset: `user-config` on the production profile, else `local-model`.",
    ),
};

export const secretKeyEnv = {
  SLUICE_SECRET_KEY: optional.describe(
    'Key (32 bytes, base64 or hex) sealing the API keys of embedding and model configs; signs admin sessions. Required with `user-config`.',
  ),
};

export const storesEnvSchema = z.object({
  ...profileEnv,
  ...objectStoreEnv,
  ...vectorStoreEnv,
  ...keywordIndexEnv,
  ...embedderEnv,
  ...secretKeyEnv,
});

type StoresEnv = z.infer<typeof storesEnvSchema>;

/** Static keys when both are set; neither: the SDK's default chain; one alone is a mistake. */
function s3Credentials(e: StoresEnv, problems: string[]): { accessKeyId: string; secretAccessKey: string } | null {
  const { S3_ACCESS_KEY_ID: accessKeyId, S3_SECRET_ACCESS_KEY: secretAccessKey } = e;
  if (accessKeyId !== undefined && secretAccessKey !== undefined) return { accessKeyId, secretAccessKey };
  if (accessKeyId !== undefined || secretAccessKey !== undefined)
    problems.push(
      'S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY: set both, or neither to use the AWS default credential chain',
    );
  return null;
}

/** SigV4 signs every request itself: basic-auth credentials beside it would be a second, ignored login. */
function openSearchSigv4(e: StoresEnv, problems: string[]): { region: string; service: 'es' | 'aoss' } | null {
  if (e.OPENSEARCH_AWS_SIGV4 === undefined) {
    if (e.OPENSEARCH_AWS_REGION !== undefined)
      problems.push('OPENSEARCH_AWS_REGION: only used with OPENSEARCH_AWS_SIGV4');
    return null;
  }
  if (e.OPENSEARCH_USERNAME !== undefined || e.OPENSEARCH_PASSWORD !== undefined)
    problems.push('OPENSEARCH_AWS_SIGV4: signs requests itself; unset OPENSEARCH_USERNAME and OPENSEARCH_PASSWORD');
  if (e.OPENSEARCH_AWS_REGION === undefined)
    problems.push("OPENSEARCH_AWS_REGION: required with OPENSEARCH_AWS_SIGV4 (the domain's region, e.g. eu-west-1)");
  return { region: e.OPENSEARCH_AWS_REGION ?? '', service: e.OPENSEARCH_AWS_SIGV4 };
}

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
            credentials: s3Credentials(e, problems),
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
        : { kind: 'postgres', efSearch: e.SLUICE_PGVECTOR_EF_SEARCH },
    keywordIndex:
      keywordKind === 'opensearch'
        ? {
            kind: 'opensearch',
            url: need('OPENSEARCH_URL', 'for the OpenSearch keyword index'),
            index: e.OPENSEARCH_INDEX,
            username: e.OPENSEARCH_USERNAME,
            password: e.OPENSEARCH_PASSWORD,
            caFile: e.OPENSEARCH_CA_FILE,
            awsSigv4: openSearchSigv4(e, problems),
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
