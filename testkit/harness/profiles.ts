import { randomUUID } from 'node:crypto';

/**
 * The store profiles an end-to-end suite runs on: the embedded defaults, and the production
 * adapters that can run here (S3 on SeaweedFS, OpenSearch, and Qdrant when QDRANT_URL is set,
 * Postgres vectors otherwise), all from the local stack's addresses.
 */
export function storeProfiles(): [string, Record<string, string>][] {
  const qdrant = process.env.QDRANT_URL;
  return [
    ['local profile', {}],
    [
      `production profile (S3 + OpenSearch + ${qdrant ? 'Qdrant' : 'Postgres vectors'})`,
      {
        SLUICE_PROFILE: 'production',
        SLUICE_EMBEDDER: 'local',
        SLUICE_VECTOR_STORE: qdrant ? 'qdrant' : 'postgres',
        ...(qdrant ? { QDRANT_URL: qdrant, QDRANT_COLLECTION: `sluice_test_${randomUUID().slice(0, 8)}` } : {}),
        S3_ENDPOINT: process.env.S3_ENDPOINT ?? 'http://127.0.0.1:8333',
        S3_BUCKET: process.env.S3_BUCKET ?? 'sluice',
        S3_ACCESS_KEY_ID: process.env.S3_ACCESS_KEY_ID ?? 'sluice',
        S3_SECRET_ACCESS_KEY: process.env.S3_SECRET_ACCESS_KEY ?? 'sluice-local-secret',
        OPENSEARCH_URL: process.env.OPENSEARCH_URL ?? 'http://127.0.0.1:9200',
        OPENSEARCH_INDEX: `sluice-test-${randomUUID().slice(0, 8)}`,
      },
    ],
  ];
}
