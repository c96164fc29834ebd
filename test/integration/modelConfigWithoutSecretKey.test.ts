import { randomBytes, randomUUID } from 'node:crypto';
import { saveModelSettings, testModelSettings } from '../../client/modelConfigs';
import { createDb } from '../../db/connection';
import { startFakeChatServer, type FakeChatServer } from '../../testkit/fakes/fakeChatServer';
import { TEST_DATABASE_URL, testConfig } from '../../testkit/harness/testConfig';

// A model config needs SLUICE_SECRET_KEY only to seal or open its API key: a deployment without one
// can still keep and test a keyless model (a local OpenAI-compatible server), and one that needs
// the key says it is the model configs' key that cannot be read.

const db = createDb(TEST_DATABASE_URL, 2);
let chat: FakeChatServer;
beforeAll(async () => {
  chat = await startFakeChatServer();
});
afterAll(async () => {
  await chat.close();
  await db.destroy();
});

// Whatever the environment running the tests holds: the deployment has no SLUICE_SECRET_KEY.
const withoutKey = () => {
  const base = testConfig();
  return { db, config: { ...base, api: { ...base.api, sessionSecret: null } } };
};
const withKey = () => ({ db, config: testConfig({ SLUICE_SECRET_KEY: randomBytes(32).toString('base64') }) });

it('tests a keyless model without SLUICE_SECRET_KEY', async () => {
  const userId = `u-${randomUUID()}`;
  await saveModelSettings(withoutKey(), userId, 'chat', { baseUrl: chat.baseUrl, model: 'local-chat' });
  const result = await testModelSettings(withoutKey(), userId, 'chat');
  expect(result).toMatchObject({ ok: true, model: 'local-chat' });
});

it('names the model configs when a stored key cannot be read without SLUICE_SECRET_KEY', async () => {
  const userId = `u-${randomUUID()}`;
  await saveModelSettings(withKey(), userId, 'vision', { baseUrl: chat.baseUrl, model: 'eye', apiKey: 'sk-9999' });
  await expect(testModelSettings(withoutKey(), userId, 'vision')).rejects.toThrow(
    'SLUICE_SECRET_KEY is not set: API keys of model configs cannot be sealed or read',
  );
  await expect(
    saveModelSettings(withoutKey(), userId, 'chat', { baseUrl: chat.baseUrl, model: 'm', apiKey: 'sk-1' }),
  ).rejects.toThrow('API keys of model configs');
});
