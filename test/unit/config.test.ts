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

  it('names every wrong setting in one message', () => {
    const load = () => loadConfig({ DATABASE_URL: 'mysql://x', SLUICE_EMBED_DIMENSION: 'lots', SLUICE_RETRY_WAIT: 'forever' });
    expect(load).toThrow(ConfigError);
    expect(load).toThrow(/DATABASE_URL: must be a postgres:\/\/ connection URL.*SLUICE_EMBED_DIMENSION.*SLUICE_RETRY_WAIT/);
  });

  it('sizes the two workers of a process and caps the embedding queue only when asked', () => {
    expect(loadConfig({}).worker).toEqual({
      activitySlots: 8,
      workflowSlots: 20,
      embedding: { activitySlots: 4, activitiesPerSecond: 20 },
      localStages: { maxSourceBytes: 1024 * 1024, maxChunks: 500 },
    });
    expect(loadConfig({ SLUICE_LOCAL_STAGE_MAX_SOURCE_BYTES: '0', SLUICE_LOCAL_STAGE_MAX_CHUNKS: '20' }).worker.localStages).toEqual({ maxSourceBytes: 0, maxChunks: 20 });
    expect(() => loadConfig({ SLUICE_LOCAL_STAGE_MAX_CHUNKS: '-1' })).toThrow(/SLUICE_LOCAL_STAGE_MAX_CHUNKS/);
    const tuned = loadConfig({ SLUICE_WORKER_ACTIVITY_SLOTS: '3', SLUICE_EMBED_ACTIVITY_SLOTS: '2', SLUICE_EMBED_ACTIVITIES_PER_SECOND: '0' });
    expect(tuned.worker).toMatchObject({ activitySlots: 3, embedding: { activitySlots: 2, activitiesPerSecond: null } });
    expect(() => loadConfig({ SLUICE_WORKER_ACTIVITY_SLOTS: '0' })).toThrow(/SLUICE_WORKER_ACTIVITY_SLOTS/);
  });

  it('refuses an overlap that is not smaller than the chunk size', () => {
    expect(() => loadConfig({ SLUICE_CHUNK_MAX_TOKENS: '100', SLUICE_CHUNK_OVERLAP_TOKENS: '51' })).toThrow(/OVERLAP/);
  });
});
