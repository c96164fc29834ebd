import { randomBytes, randomUUID } from 'node:crypto';
import { SluiceError } from '../../contracts/sluiceError';
import { createDb } from '../../db/connection';
import {
  deleteDefaultEmbeddingConfig,
  DEPLOYMENT_DEFAULT_OWNER,
  findEffectiveEmbeddingConfig,
  saveEmbeddingConfig,
} from '../../db/repositories/embeddingConfigs';
import { decryptSecret, encryptSecret } from '../../crypto/secretBox';
import { createUserEmbedderResolver } from '../../embedders/userEmbedderResolver';
import {
  fakeVector,
  startFakeEmbeddingServer,
  type FakeEmbeddingServer,
} from '../../testkit/fakes/fakeEmbeddingServer';
import { TEST_DATABASE_URL } from '../../testkit/harness/testConfig';

// The resolution order on the test database: the user's own config → the deployment default
// stored under DEPLOYMENT_DEFAULT_OWNER → SLUICE_DEFAULT_EMBEDDING_* → LLM_CONFIG_MISSING.
// The deployment default is written inside a transaction that is rolled back, so suites running
// at the same time never see it.

const API_KEY = 'sk-deploy-SECRET-77aa01ff';
const DIMENSION = 5;
const db = createDb(TEST_DATABASE_URL, 4);
const encryptionKey = randomBytes(32);
const outbound = { allowPrivate: true };
let server: FakeEmbeddingServer;

beforeAll(async () => {
  server = await startFakeEmbeddingServer({ apiKey: API_KEY, dimension: DIMENSION });
});
afterAll(async () => {
  await server.close();
  await db.destroy();
});

class Rollback extends Error {}

/** Runs `check` with a deployment default in place, then undoes it. */
async function withDeploymentDefault(check: (trx: typeof db) => Promise<void>): Promise<void> {
  await db
    .transaction()
    .execute(async (trx) => {
      await trx
        .insertInto('embedding_configs')
        .values({
          user_id: DEPLOYMENT_DEFAULT_OWNER,
          is_default: true,
          provider: 'openai',
          model: 'deployment-model',
          dimension: DIMENSION,
          base_url: server.baseUrl,
          api_key_encrypted: encryptSecret(encryptionKey, API_KEY),
        })
        .execute();
      await check(trx);
      throw new Rollback();
    })
    .catch((err: unknown) => {
      if (!(err instanceof Rollback)) throw err;
    });
}

// Only resolved, never called: its model name shows which source won.
const environmentDefault = {
  baseUrl: 'http://127.0.0.1:9/v1',
  model: 'environment-model',
  dimension: DIMENSION,
  apiKey: API_KEY,
};

it("uses the user's own config over the deployment default, and the deployment default for others", async () => {
  const alice = `alice-${randomUUID()}`;
  const bob = `bob-${randomUUID()}`;
  await saveEmbeddingConfig(
    db,
    alice,
    { provider: 'local', model: 'own', dimension: 16, baseUrl: null, apiKey: null },
    encryptionKey,
  );
  await withDeploymentDefault(async (trx) => {
    expect((await findEffectiveEmbeddingConfig(trx, alice))?.user_id).toBe(alice);
    expect((await findEffectiveEmbeddingConfig(trx, bob))?.user_id).toBe(DEPLOYMENT_DEFAULT_OWNER);
    const resolver = createUserEmbedderResolver({
      db: trx,
      encryptionKey,
      environmentDefault,
      outbound,
      options: { maxRetries: 0 },
    });
    expect((await resolver.forUser(alice)).dimension).toBe(16);
    const forBob = await resolver.forUser(bob);
    expect(forBob.model).toBe('deployment-model');
    expect(await forBob.embed(['deployment'])).toEqual([fakeVector('deployment', DIMENSION)]);
    expect(server.requests.at(-1)?.authorization).toBe(`Bearer ${API_KEY}`);
  });
});

it('falls back to the environment default, then to LLM_CONFIG_MISSING', async () => {
  const carol = `carol-${randomUUID()}`;
  const fromEnv = await createUserEmbedderResolver({ db, encryptionKey, environmentDefault, outbound }).forUser(carol);
  expect(fromEnv.model).toBe('environment-model');
  const err: unknown = await createUserEmbedderResolver({ db, encryptionKey, environmentDefault: null, outbound })
    .forUser(carol)
    .then(
      () => null,
      (e: unknown) => e,
    );
  expect(err).toBeInstanceOf(SluiceError);
  expect((err as SluiceError).code).toBe('LLM_CONFIG_MISSING');
});

it('keeps the stored key when a replacement gives none, and deletes', async () => {
  const dave = `dave-${randomUUID()}`;
  const first = await saveEmbeddingConfig(
    db,
    dave,
    { provider: 'openai', model: 'a', dimension: DIMENSION, baseUrl: server.baseUrl, apiKey: API_KEY },
    encryptionKey,
  );
  const { saved, previous } = await saveEmbeddingConfig(
    db,
    dave,
    { provider: 'openai', model: 'b', dimension: DIMENSION, baseUrl: server.baseUrl },
    encryptionKey,
  );
  expect(previous?.id).toBe(first.saved.id);
  expect(saved.model).toBe('b');
  expect(decryptSecret(encryptionKey, saved.api_key_encrypted as string)).toBe(API_KEY);
  const cleared = await saveEmbeddingConfig(
    db,
    dave,
    { provider: 'openai', model: 'b', dimension: DIMENSION, baseUrl: server.baseUrl, apiKey: null },
    encryptionKey,
  );
  expect(cleared.saved.api_key_encrypted).toBeNull();
  expect(await deleteDefaultEmbeddingConfig(db, dave)).toBe(true);
  expect(await deleteDefaultEmbeddingConfig(db, dave)).toBe(false);
  expect(await findEffectiveEmbeddingConfig(db, dave)).toBeUndefined();
});
