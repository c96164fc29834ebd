import { loadConfig } from '../../config/config';
import type { EmbeddingConfigRow } from '../../db/repositories/embeddingConfigs';
import type { Embedder } from '../../embedders/embedder';
import { maskApiKey } from '../../embedders/embeddingSettings';
import { pickEmbeddingSource } from '../../embedders/userEmbedderResolver';

const row = (userId: string, model: string): EmbeddingConfigRow => ({
  id: 1,
  user_id: userId,
  is_default: true,
  provider: 'openai',
  model,
  dimension: 8,
  base_url: 'https://example.com/v1',
  api_key_encrypted: null,
  created_at: new Date(),
});
const environment = { baseUrl: 'https://env.example/v1', model: 'env-model', dimension: 8, apiKey: null };
const fallback: Embedder = { model: 'fallback', dimension: 1, embed: (texts) => Promise.resolve(texts.map(() => [0])) };

describe('maskApiKey', () => {
  it('shows only the last four characters (and a well-known sk- prefix)', () => {
    const key = 'sk-proj-SECRET-0123456789abcd';
    expect(maskApiKey(key)).toBe('sk-…abcd');
    expect(maskApiKey('tok-SECRET-0123456789wxyz')).toBe('…wxyz');
    expect(maskApiKey(key)).not.toContain('SECRET');
  });

  it('shows nothing of a short key, and null for none', () => {
    expect(maskApiKey('sk-abc12345')).toBe('set');
    expect(maskApiKey(null)).toBeNull();
  });
});

describe('pickEmbeddingSource: own → deployment (stored) → environment → fallback → missing', () => {
  const own = row('alice', 'own-model');
  const deployment = row(':deployment:', 'deployment-model');

  it.each([
    ['user', 'all four', { own, deployment, environment, fallback }],
    ['deployment', 'no own config', { deployment, environment, fallback }],
    ['environment', 'no stored config', { environment, fallback }],
    ['fallback', 'only the fallback', { fallback }],
    ['missing', 'nothing', {}],
    ['missing', 'null environment and fallback', { environment: null, fallback: null }],
  ] as const)('picks %s given %s', (kind, _label, candidates) => {
    expect(pickEmbeddingSource(candidates).kind).toBe(kind);
  });

  it('hands over the chosen config', () => {
    const picked = pickEmbeddingSource({ deployment, environment });
    expect(picked.kind === 'deployment' && picked.config.model).toBe('deployment-model');
  });
});

describe('SLUICE_DEFAULT_EMBEDDING_*', () => {
  const base = { SLUICE_EMBEDDER: 'local' };
  it('becomes the environment default when base URL, model and dimension are all set', () => {
    const config = loadConfig({
      ...base,
      SLUICE_DEFAULT_EMBEDDING_BASE_URL: 'https://env.example/v1',
      SLUICE_DEFAULT_EMBEDDING_MODEL: 'm',
      SLUICE_DEFAULT_EMBEDDING_DIMENSION: '12',
      SLUICE_DEFAULT_EMBEDDING_API_KEY: 'sk-env',
    });
    expect(config.embedding.environmentDefault).toEqual({
      baseUrl: 'https://env.example/v1',
      model: 'm',
      dimension: 12,
      apiKey: 'sk-env',
    });
    expect(loadConfig(base).embedding.environmentDefault).toBeNull();
  });

  it('refuses a partial one, without echoing the key', () => {
    expect(() => loadConfig({ ...base, SLUICE_DEFAULT_EMBEDDING_MODEL: 'm' })).toThrow(/set all three, or none/);
    expect(() => loadConfig({ ...base, SLUICE_DEFAULT_EMBEDDING_API_KEY: 'sk-env-SECRET' })).toThrow(
      /SLUICE_DEFAULT_EMBEDDING_API_KEY: set/,
    );
    expect(() => loadConfig({ ...base, SLUICE_DEFAULT_EMBEDDING_API_KEY: 'sk-env-SECRET' })).not.toThrow(/SECRET/);
  });
});
