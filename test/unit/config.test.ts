import os from 'node:os';
import { ConfigError, loadConfig } from '../../config/config';

describe('loadConfig', () => {
  it('gives working defaults for the local stack and freezes the result', () => {
    const config = loadConfig({});
    expect(config.temporal.address).toBe('127.0.0.1:7233');
    expect(config.database.url).toMatch(/^postgres:\/\/.*:54329\/sluice$/);
    expect(config.objectsDir.endsWith('/.sluice/objects')).toBe(true);
    expect(Object.isFrozen(config)).toBe(true);
    expect(Object.isFrozen(config.chunking)).toBe(true);
  });

  it('reaches a stack moved to other ports when no address is given, and an address given wins', () => {
    const moved = loadConfig({
      SLUICE_PG_PORT: '55329',
      SLUICE_TEMPORAL_PORT: '7243',
      SLUICE_TEMPORAL_UI_PORT: '8243',
    });
    expect(moved.database.url).toBe('postgres://postgres@127.0.0.1:55329/sluice');
    expect(moved.temporal.address).toBe('127.0.0.1:7243');
    expect(moved.temporal.uiUrl).toBe('http://127.0.0.1:8243');
    const explicit = loadConfig({ SLUICE_PG_PORT: '55329', DATABASE_URL: 'postgres://db.internal:5432/sluice' });
    expect(explicit.database.url).toBe('postgres://db.internal:5432/sluice');
    expect(() => loadConfig({ SLUICE_TEMPORAL_PORT: '72a3' })).toThrow(/SLUICE_TEMPORAL_PORT/);
  });

  it('names every wrong setting in one message', () => {
    const load = () =>
      loadConfig({ DATABASE_URL: 'mysql://x', SLUICE_EMBED_DIMENSION: 'lots', SLUICE_RETRY_WAIT: 'forever' });
    expect(load).toThrow(ConfigError);
    expect(load).toThrow(
      /DATABASE_URL: must be a postgres:\/\/ connection URL.*SLUICE_EMBED_DIMENSION.*SLUICE_RETRY_WAIT/,
    );
  });

  it('sizes the two workers of a process and caps the embedding queue only when asked', () => {
    expect(loadConfig({}).worker).toEqual({
      queues: 'all',
      healthBind: null,
      activitySlots: 8,
      workflowSlots: 20,
      embedding: { activitySlots: 4, activitiesPerSecond: 20 },
      localStages: { maxSourceBytes: 1024 * 1024, maxChunks: 500 },
      outageBudgetMs: 60 * 60 * 1000,
      fairness: { on: true, weights: {} },
      cpuThreads: Math.max(1, os.availableParallelism()),
    });
    // Tenants' fairness weights, clamped to what Temporal accepts; a malformed list stops the process.
    expect(loadConfig({ SLUICE_FAIRNESS_WEIGHTS: 'acme=3,trial=0.5,big=5000' }).worker.fairness).toEqual({
      on: true,
      weights: { acme: 3, trial: 0.5, big: 1000 },
    });
    expect(() => loadConfig({ SLUICE_FAIRNESS_WEIGHTS: 'acme=lots' })).toThrow(/SLUICE_FAIRNESS_WEIGHTS/);
    expect(loadConfig({ SLUICE_FAIRNESS: 'off' }).worker.fairness.on).toBe(false);
    expect(loadConfig({ SLUICE_CPU_THREADS: '3' }).worker.cpuThreads).toBe(3);
    expect(() => loadConfig({ SLUICE_CPU_THREADS: '0' })).toThrow(/SLUICE_CPU_THREADS/);
    expect(
      loadConfig({ SLUICE_LOCAL_STAGE_MAX_SOURCE_BYTES: '0', SLUICE_LOCAL_STAGE_MAX_CHUNKS: '20' }).worker.localStages,
    ).toEqual({ maxSourceBytes: 0, maxChunks: 20 });
    expect(() => loadConfig({ SLUICE_LOCAL_STAGE_MAX_CHUNKS: '-1' })).toThrow(/SLUICE_LOCAL_STAGE_MAX_CHUNKS/);
    const tuned = loadConfig({
      SLUICE_WORKER_ACTIVITY_SLOTS: '3',
      SLUICE_EMBED_ACTIVITY_SLOTS: '2',
      SLUICE_EMBED_ACTIVITIES_PER_SECOND: '0',
    });
    expect(tuned.worker).toMatchObject({
      activitySlots: 3,
      embedding: { activitySlots: 2, activitiesPerSecond: null },
    });
    expect(() => loadConfig({ SLUICE_WORKER_ACTIVITY_SLOTS: '0' })).toThrow(/SLUICE_WORKER_ACTIVITY_SLOTS/);
    expect(loadConfig({ SLUICE_WORKER_QUEUES: 'embedding' }).worker.queues).toBe('embedding');
    expect(loadConfig({ SLUICE_WORKER_QUEUES: 'enrichment' }).worker.queues).toBe('enrichment');
    expect(() => loadConfig({ SLUICE_WORKER_QUEUES: 'vectorizing' })).toThrow(/SLUICE_WORKER_QUEUES/);
    expect(loadConfig({ SLUICE_WORKER_HEALTH_BIND: '0.0.0.0:9465' }).worker.healthBind).toBe('0.0.0.0:9465');
    expect(() => loadConfig({ SLUICE_WORKER_HEALTH_BIND: '9465' })).toThrow(/SLUICE_WORKER_HEALTH_BIND/);
  });

  it('embeds with the local model by default on the local profile, at its fixed 512 dimensions', () => {
    const local = loadConfig({});
    expect(local.stores.embedder).toEqual({ kind: 'local-model' });
    expect(local.embedding.dimension).toBe(512);
    expect(local.embedding.localModel).toEqual({
      dir: expect.stringMatching(/\/\.sluice\/models$/),
      threads: Math.max(1, os.availableParallelism()),
      maxTokens: 512,
    });
    expect(
      loadConfig({ SLUICE_DATA_DIR: '/srv/sluice', SLUICE_MODEL_THREADS: '3' }).embedding.localModel,
    ).toMatchObject({ dir: '/srv/sluice/models', threads: 3 });
    expect(loadConfig({ SLUICE_EMBED_DIMENSION: '512' }).embedding.dimension).toBe(512);
    expect(() => loadConfig({ SLUICE_EMBED_DIMENSION: '256' })).toThrow(
      /SLUICE_EMBED_DIMENSION: the local model use-multilingual-v3-int8 makes 512-dimensional vectors/,
    );
    // The hashing embedder (tests) and per-user providers take the setting, 256 by default.
    expect(loadConfig({ SLUICE_EMBEDDER: 'local' }).embedding.dimension).toBe(256);
    expect(loadConfig({ SLUICE_EMBEDDER: 'local', SLUICE_EMBED_DIMENSION: '128' }).embedding.dimension).toBe(128);
    expect(
      loadConfig({
        SLUICE_PROFILE: 'production',
        SLUICE_SECRET_KEY: 'a'.repeat(64),
        S3_BUCKET: 'b',
        S3_ACCESS_KEY_ID: 'k',
        S3_SECRET_ACCESS_KEY: 's',
        QDRANT_URL: 'http://q:6333',
        OPENSEARCH_URL: 'http://o:9200',
      }).stores.embedder.kind,
    ).toBe('user-config');
    expect(() => loadConfig({ SLUICE_EMBEDDER: 'bert' })).toThrow(/SLUICE_EMBEDDER/);
  });

  it('refuses an overlap that is not smaller than the chunk size', () => {
    expect(() => loadConfig({ SLUICE_CHUNK_MAX_TOKENS: '100', SLUICE_CHUNK_OVERLAP_TOKENS: '51' })).toThrow(/OVERLAP/);
  });
});
