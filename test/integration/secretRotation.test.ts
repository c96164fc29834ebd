import { createCipheriv, randomBytes, randomUUID } from 'node:crypto';
import { secretsRotate } from '../../client/commands/secrets';
import { showEmbeddingConfig } from '../../client/embeddingConfigs';
import { decryptSecret, keyId, sealedKeyId } from '../../crypto/secretBox';
import { createDb } from '../../db/connection';
import { findDefaultEmbeddingConfig, saveEmbeddingConfig } from '../../db/repositories/embeddingConfigs';
import { testConfig, TEST_DATABASE_URL } from '../support/testConfig';

// Issue 21 row 8: `sluice secrets rotate` re-seals every stored API key under the new
// SLUICE_SECRET_KEY, reading old ones with SLUICE_SECRET_KEY_PREVIOUS (or, for values sealed
// before key ids, with whichever key opens them); a value neither key opens is left alone.
// Other suites share the table, so the checks look at this suite's own rows only.

const db = createDb(TEST_DATABASE_URL, 2);
afterAll(() => db.destroy());

const oldKey = randomBytes(32);
const newKey = randomBytes(32);
const strayKey = randomBytes(32);
const base = { provider: 'openai', model: 'm', dimension: 4, baseUrl: 'https://p.example/v1' };

const configWith = (current: Buffer, previous?: Buffer) =>
  testConfig({
    SLUICE_EMBEDDER: 'user-config',
    SLUICE_SECRET_KEY: current.toString('base64'),
    ...(previous ? { SLUICE_SECRET_KEY_PREVIOUS: previous.toString('hex') } : {}),
  });

function legacySeal(key: Buffer, plain: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv, { authTagLength: 16 });
  const ciphertext = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), ciphertext]).toString('base64');
}

const io = () => {
  const out: string[] = [];
  const err: string[] = [];
  return { out, err, io: { out: (l: string) => out.push(l), err: (l: string) => err.push(l) } };
};

it('re-seals keys under the new key id, reads old rows meanwhile, and is idempotent', async () => {
  const owners = Array.from({ length: 3 }, () => `rot-${randomUUID()}`);
  const [a = '', b = '', c = ''] = owners;
  await saveEmbeddingConfig(db, a, { ...base, apiKey: 'sk-a-11111111' }, oldKey);
  await saveEmbeddingConfig(db, b, { ...base, apiKey: 'sk-b-22222222' }, newKey);
  const legacy = await saveEmbeddingConfig(db, c, { ...base, apiKey: null }, oldKey);
  await db
    .updateTable('embedding_configs')
    .set({ api_key_encrypted: legacySeal(oldKey, 'sk-c-33333333') })
    .where('id', '=', legacy.saved.id)
    .execute();

  // During the rotation (new key current, old one previous), every row is still readable.
  const during = configWith(newKey, oldKey);
  expect((await showEmbeddingConfig({ db, config: during }, { userId: a }))?.apiKey).toBe('sk-…1111');

  const first = io();
  expect(await secretsRotate({ db, config: during }, first.io)).toBe(0);
  expect(first.out.join('\n')).toContain(`key id ${keyId(newKey)}`);
  for (const [owner, plain] of [
    [a, 'sk-a-11111111'],
    [b, 'sk-b-22222222'],
    [c, 'sk-c-33333333'],
  ] as const) {
    const sealed = (await findDefaultEmbeddingConfig(db, owner))?.api_key_encrypted ?? '';
    expect(sealedKeyId(sealed)).toBe(keyId(newKey));
    expect(decryptSecret(newKey, sealed)).toBe(plain);
  }
  // After it, the new key alone reads them.
  expect((await showEmbeddingConfig({ db, config: configWith(newKey) }, { userId: c }))?.apiKey).toBe('sk-…3333');

  const again = io();
  expect(await secretsRotate({ db, config: during }, again.io)).toBe(0);
  expect(again.out.join('\n')).toMatch(/: 0 re-sealed/);
});

it('leaves a value neither key opens untouched, names it and exits 1', async () => {
  const owner = `rot-${randomUUID()}`;
  const stray = await saveEmbeddingConfig(db, owner, { ...base, apiKey: 'sk-stray-9999' }, strayKey);
  const before = stray.saved.api_key_encrypted;
  const run = io();
  expect(await secretsRotate({ db, config: configWith(newKey, oldKey) }, run.io)).toBe(1);
  expect(run.err.join('\n')).toContain(String(stray.saved.id));
  expect((await findDefaultEmbeddingConfig(db, owner))?.api_key_encrypted).toBe(before);
  await db.deleteFrom('embedding_configs').where('id', '=', stray.saved.id).execute();
});
