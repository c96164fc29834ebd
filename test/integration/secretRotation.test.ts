import { createCipheriv, randomBytes, randomUUID } from 'node:crypto';
import { secretsRotate } from '../../cli/commands/secrets';
import { showEmbeddingConfig } from '../../client/embeddingConfigs';
import { decryptSecret, encryptSecret, keyId, sealedKeyId } from '../../crypto/secretBox';
import { createDb } from '../../db/connection';
import { findDefaultEmbeddingConfig } from '../../db/repositories/embeddingConfigs';
import { findModelConfig } from '../../db/repositories/modelConfigs';
import { loadModelSettings } from '../../enrichment/storedModel';
import { testConfig, TEST_DATABASE_URL } from '../../testkit/harness/testConfig';

// `sluice secrets rotate` re-seals every stored API key under the new
// SLUICE_SECRET_KEY, reading old ones with SLUICE_SECRET_KEY_PREVIOUS (or, for values sealed
// before key ids, with whichever key opens them); a value neither key opens is left alone.
// Other suites share the table and leave rows sealed under their own keys, which would count as
// unreadable here (model_configs too): each case runs in a transaction that first hides every other row, then rolls back.

const db = createDb(TEST_DATABASE_URL, 2);
afterAll(() => db.destroy());

const oldKey = randomBytes(32);
const newKey = randomBytes(32);
const strayKey = randomBytes(32);
const base = { provider: 'openai', model: 'm', dimension: 4, base_url: 'https://p.example/v1', is_default: true };

/** A stored config with this sealed key (inserted directly: the repository's save opens its own transaction). */
const insertSealed = (trx: typeof db, owner: string, sealed: string) =>
  trx
    .insertInto('embedding_configs')
    .values({ ...base, user_id: owner, api_key_encrypted: sealed })
    .returning('id')
    .executeTakeFirstOrThrow();

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

class Rollback extends Error {}

/** Runs `check` on a table holding only the rows it writes; nothing of it outlives the call. */
async function alone(check: (trx: typeof db) => Promise<void>): Promise<void> {
  await db
    .transaction()
    .execute(async (trx) => {
      await trx.deleteFrom('embedding_configs').execute();
      await trx.deleteFrom('model_configs').execute();
      await check(trx);
      throw new Rollback();
    })
    .catch((error: unknown) => {
      if (!(error instanceof Rollback)) throw error;
    });
}

const io = () => {
  const out: string[] = [];
  const err: string[] = [];
  return { out, err, io: { out: (l: string) => out.push(l), err: (l: string) => err.push(l) } };
};

it('re-seals keys under the new key id, reads old rows meanwhile, and is idempotent', () =>
  alone(async (db) => {
    const owners = Array.from({ length: 3 }, () => `rot-${randomUUID()}`);
    const [a = '', b = '', c = ''] = owners;
    await insertSealed(db, a, encryptSecret(oldKey, 'sk-a-11111111'));
    await insertSealed(db, b, encryptSecret(newKey, 'sk-b-22222222'));
    await insertSealed(db, c, legacySeal(oldKey, 'sk-c-33333333'));

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
  }));

it('leaves a value neither key opens untouched, names it and exits 1', () =>
  alone(async (db) => {
    const owner = `rot-${randomUUID()}`;
    const before = encryptSecret(strayKey, 'sk-stray-9999');
    const stray = await insertSealed(db, owner, before);
    const run = io();
    expect(await secretsRotate({ db, config: configWith(newKey, oldKey) }, run.io)).toBe(1);
    expect(run.err.join('\n')).toContain(String(stray.id));
    expect((await findDefaultEmbeddingConfig(db, owner))?.api_key_encrypted).toBe(before);
  }));

/** A stored CHAT or VISION model config with this sealed key. */
const insertModel = (trx: typeof db, owner: string, purpose: 'chat' | 'vision', sealed: string) =>
  trx
    .insertInto('model_configs')
    .values({ user_id: owner, purpose, base_url: 'https://m.example/v1', model: 'm', api_key_encrypted: sealed })
    .execute();

it('re-seals CHAT and VISION model keys too: they still decrypt, and the old ciphertext is gone', () =>
  alone(async (db) => {
    const owner = `rot-${randomUUID()}`;
    const oldChat = encryptSecret(oldKey, 'sk-chat-44444444');
    const oldVision = legacySeal(oldKey, 'sk-vision-5555');
    await insertModel(db, owner, 'chat', oldChat);
    await insertModel(db, owner, 'vision', oldVision);

    const run = io();
    expect(await secretsRotate({ db, config: configWith(newKey, oldKey) }, run.io)).toBe(0);
    expect(run.out.join('\n')).toMatch(/: 2 re-sealed, 0 already current/);
    const chat = (await findModelConfig(db, owner, 'chat'))?.api_key_encrypted ?? '';
    const vision = (await findModelConfig(db, owner, 'vision'))?.api_key_encrypted ?? '';
    expect([chat, vision]).not.toContain(oldChat);
    expect([chat, vision]).not.toContain(oldVision);
    expect(sealedKeyId(chat)).toBe(keyId(newKey));
    // The new key alone opens them, as enrichment reads them.
    expect((await loadModelSettings(db, [newKey], owner, 'chat'))?.apiKey).toBe('sk-chat-44444444');
    expect((await loadModelSettings(db, [newKey], owner, 'vision'))?.apiKey).toBe('sk-vision-5555');
    expect(() => decryptSecret(oldKey, chat)).toThrow();
  }));

it('leaves a model key neither key opens untouched and names it by user and purpose', () =>
  alone(async (db) => {
    const owner = `rot-${randomUUID()}`;
    const before = encryptSecret(strayKey, 'sk-stray-model-1');
    await insertModel(db, owner, 'vision', before);
    const run = io();
    expect(await secretsRotate({ db, config: configWith(newKey, oldKey) }, run.io)).toBe(1);
    expect(run.err.join('\n')).toContain(`model configs ${owner}/vision`);
    expect((await findModelConfig(db, owner, 'vision'))?.api_key_encrypted).toBe(before);
  }));
