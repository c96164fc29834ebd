import { randomBytes, randomUUID } from 'node:crypto';
import { embeddingSet, type EmbeddingIo } from '../../cli/commands/embedding';
import { createDb } from '../../db/connection';
import { decryptSecret } from '../../crypto/secretBox';
import {
  findDefaultEmbeddingConfig,
  KeyBoundToHostError,
  saveEmbeddingConfig,
} from '../../db/repositories/embeddingConfigs';
import { testConfig, TEST_DATABASE_URL } from '../../testkit/harness/testConfig';

// A stored provider key stays with the host it was given for, so that a changed URL cannot send it
// elsewhere. Changing the base
// URL's host without giving the key again is refused, on the one write path every caller uses
// (CLI, HTTP API, admin page: client/embeddingConfigs.ts → db/repositories/embeddingConfigs.ts).

const secretKey = randomBytes(32);
const config = testConfig({ SLUICE_EMBEDDER: 'user-config', SLUICE_SECRET_KEY: secretKey.toString('base64') });
const db = createDb(TEST_DATABASE_URL, 2);
afterAll(() => db.destroy());

const API_KEY = 'sk-bound-SECRET-1a2b3c4d';
const base = { provider: 'openai', model: 'm', dimension: 4 };

function io(env: Record<string, string> = {}): EmbeddingIo & { lines: string[] } {
  const lines: string[] = [];
  return { lines, out: (l) => lines.push(l), err: (l) => lines.push(l), readStdin: async () => '', env };
}

it('refuses a new host that would inherit the stored key, and keeps the old config whole', async () => {
  const owner = `u-${randomUUID()}`;
  await saveEmbeddingConfig(db, owner, { ...base, baseUrl: 'https://good.example/v1', apiKey: API_KEY }, secretKey);
  await expect(
    saveEmbeddingConfig(db, owner, { ...base, baseUrl: 'https://evil.example/v1' }, secretKey),
  ).rejects.toBeInstanceOf(KeyBoundToHostError);
  const kept = await findDefaultEmbeddingConfig(db, owner);
  expect(kept?.base_url).toBe('https://good.example/v1');
  expect(decryptSecret(secretKey, kept?.api_key_encrypted ?? '')).toBe(API_KEY);
  // Another port or scheme is another host too; so is going back to the provider's default.
  for (const baseUrl of ['https://good.example:8443/v1', 'http://good.example/v1', null])
    await expect(saveEmbeddingConfig(db, owner, { ...base, baseUrl }, secretKey)).rejects.toBeInstanceOf(
      KeyBoundToHostError,
    );
});

it('keeps the key for the same host (another path or model), and takes a new host with a new key or none', async () => {
  const owner = `u-${randomUUID()}`;
  await saveEmbeddingConfig(db, owner, { ...base, baseUrl: 'https://good.example/v1', apiKey: API_KEY }, secretKey);
  const samehost = await saveEmbeddingConfig(
    db,
    owner,
    { ...base, model: 'n', baseUrl: 'https://good.example/v2' },
    secretKey,
  );
  expect(decryptSecret(secretKey, samehost.saved.api_key_encrypted ?? '')).toBe(API_KEY);
  const rekeyed = await saveEmbeddingConfig(
    db,
    owner,
    { ...base, baseUrl: 'https://other.example/v1', apiKey: 'sk-other-2222' },
    secretKey,
  );
  expect(decryptSecret(secretKey, rekeyed.saved.api_key_encrypted ?? '')).toBe('sk-other-2222');
  const keyless = await saveEmbeddingConfig(
    db,
    owner,
    { ...base, baseUrl: 'http://third.example/v1', apiKey: null },
    secretKey,
  );
  expect(keyless.saved.api_key_encrypted).toBeNull();
});

it('`sluice embedding set --base-url` to another host without a key exits 1 with the reason', async () => {
  const user = `u-${randomUUID()}`;
  const deps = { db, config };
  const first = io({ PROVIDER_KEY: API_KEY });
  const opts = { user, model: 'm', dimension: '4', baseUrl: 'https://good.example/v1', apiKeyEnv: 'PROVIDER_KEY' };
  expect(await embeddingSet(deps, opts, first)).toBe(0);
  const moved = io();
  expect(
    await embeddingSet(deps, { user, model: 'm', dimension: '4', baseUrl: 'https://evil.example/v1' }, moved),
  ).toBe(1);
  expect(moved.lines.join('\n')).toMatch(/give the API key again/);
  expect((await findDefaultEmbeddingConfig(db, user))?.base_url).toBe('https://good.example/v1');
});
