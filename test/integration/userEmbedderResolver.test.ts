import { randomBytes, randomUUID } from 'node:crypto';
import { SluiceError } from '../../contracts/sluiceError';
import { createDb } from '../../db/connection';
import { findDefaultEmbeddingConfig, setDefaultEmbeddingConfig } from '../../db/repositories/embeddingConfigs';
import { LOCAL_HASH_MODEL } from '../../embedders/localHashEmbedder';
import { decryptSecret } from '../../crypto/secretBox';
import { createUserEmbedderResolver } from '../../embedders/userEmbedderResolver';
import type { Embedder } from '../../embedders/embedder';
import {
  fakeVector,
  startFakeEmbeddingServer,
  type FakeEmbeddingServer,
} from '../../testkit/fakes/fakeEmbeddingServer';
import { TEST_DATABASE_URL } from '../../testkit/harness/testConfig';

// Per-user embedding configs on the test database, resolved to embedders that call a real local server.

const API_KEY = 'sk-user-SECRET-9d2e77f0';
const DIMENSION = 6;
const db = createDb(TEST_DATABASE_URL, 4);
const encryptionKey = randomBytes(32);
let server: FakeEmbeddingServer;

beforeAll(async () => {
  server = await startFakeEmbeddingServer({ apiKey: API_KEY, dimension: DIMENSION });
});
afterAll(async () => {
  await server.close();
  await db.destroy();
});

// The fake provider listens on loopback, which only an allowing policy may reach.
const LOCAL_OUTBOUND = { allowPrivate: true };
const newUser = () => `u-${randomUUID()}`;
const openAiConfig = () => ({
  provider: 'openai',
  model: 'test-embed',
  dimension: DIMENSION,
  baseUrl: server.baseUrl,
  apiKey: API_KEY,
});

describe('per-user embedding configs', () => {
  it('stores only the encrypted key', async () => {
    const userId = newUser();
    const saved = await setDefaultEmbeddingConfig(db, userId, openAiConfig(), encryptionKey);
    const row = await db
      .selectFrom('embedding_configs')
      .selectAll()
      .where('id', '=', saved.id)
      .executeTakeFirstOrThrow();
    expect(row.is_default).toBe(true);
    expect(row.api_key_encrypted).not.toBeNull();
    expect(row.api_key_encrypted).not.toContain(API_KEY);
    expect(JSON.stringify(row)).not.toContain(API_KEY);
    expect(decryptSecret(encryptionKey, row.api_key_encrypted as string)).toBe(API_KEY);
  });

  it('replaces the user default, leaving one default row', async () => {
    const userId = newUser();
    await setDefaultEmbeddingConfig(db, userId, openAiConfig(), encryptionKey);
    await Promise.all([
      setDefaultEmbeddingConfig(db, userId, { ...openAiConfig(), model: 'second' }, encryptionKey),
      setDefaultEmbeddingConfig(db, userId, { ...openAiConfig(), model: 'third' }, encryptionKey),
    ]);
    const rows = await db.selectFrom('embedding_configs').selectAll().where('user_id', '=', userId).execute();
    expect(rows).toHaveLength(1);
    expect(['second', 'third']).toContain(rows[0]?.model);
    expect((await findDefaultEmbeddingConfig(db, userId))?.id).toBe(rows[0]?.id);
  });

  it('resolves a user to a working embedder with the decrypted key, cached until the config changes', async () => {
    const userId = newUser();
    await setDefaultEmbeddingConfig(db, userId, openAiConfig(), encryptionKey);
    const resolver = createUserEmbedderResolver({
      db,
      encryptionKey,
      options: { maxRetries: 0 },
      outbound: LOCAL_OUTBOUND,
    });
    const embedder = await resolver.forUser(userId);
    expect(embedder.model).toBe('test-embed');
    expect(embedder.dimension).toBe(DIMENSION);
    expect(await embedder.embed(['hello', 'world'])).toEqual([
      fakeVector('hello', DIMENSION),
      fakeVector('world', DIMENSION),
    ]);
    expect(server.requests.at(-1)?.authorization).toBe(`Bearer ${API_KEY}`);
    expect(await resolver.forUser(userId)).toBe(embedder);

    await setDefaultEmbeddingConfig(
      db,
      userId,
      { provider: 'local', model: 'ignored', dimension: 16, baseUrl: null, apiKey: null },
      encryptionKey,
    );
    const local = await resolver.forUser(userId);
    expect(local).not.toBe(embedder);
    expect(local.model).toBe(LOCAL_HASH_MODEL);
    expect(local.dimension).toBe(16);
    expect((await local.embed(['offline']))[0]).toHaveLength(16);
  });

  it('fails with LLM_CONFIG_MISSING for a user without config and no fallback; uses the fallback if given', async () => {
    const userId = newUser();
    const err: unknown = await createUserEmbedderResolver({ db, encryptionKey, outbound: LOCAL_OUTBOUND })
      .forUser(userId)
      .then(
        () => null,
        (e: unknown) => e,
      );
    expect(err).toBeInstanceOf(SluiceError);
    expect((err as SluiceError).code).toBe('LLM_CONFIG_MISSING');
    expect((err as SluiceError).permanent).toBe(true);

    const fallback: Embedder = {
      model: 'fallback',
      dimension: 1,
      embed: (texts) => Promise.resolve(texts.map(() => [1])),
    };
    expect(
      await createUserEmbedderResolver({ db, encryptionKey, fallback, outbound: LOCAL_OUTBOUND }).forUser(userId),
    ).toBe(fallback);
  });

  it('fails with LLM_CONFIG_MISSING when the stored key cannot be decrypted, without revealing it', async () => {
    const userId = newUser();
    await setDefaultEmbeddingConfig(db, userId, openAiConfig(), encryptionKey);
    const err: unknown = await createUserEmbedderResolver({
      db,
      encryptionKey: randomBytes(32),
      outbound: LOCAL_OUTBOUND,
    })
      .forUser(userId)
      .then(
        () => null,
        (e: unknown) => e,
      );
    expect((err as SluiceError).code).toBe('LLM_CONFIG_MISSING');
    expect((err as SluiceError).message).toMatch(/cannot be decrypted/);
    expect((err as SluiceError).message).not.toContain(API_KEY);
  });
});
