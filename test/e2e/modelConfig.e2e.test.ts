import { randomBytes } from 'node:crypto';
import { modelDelete, modelSet, modelShow, modelTest } from '../../cli/commands/model';
import type { EmbeddingIo } from '../../cli/commands/embedding';
import { decryptSecret, parseEncryptionKey } from '../../crypto/secretBox';
import { findModelConfig } from '../../db/repositories/modelConfigs';
import { launchAdminBrowser, signInThroughPage } from '../../testkit/harness/adminBrowser';
import { call, newUser, startApi, type ApiHarness } from '../../testkit/harness/apiHarness';
import { startFakeChatServer, type FakeChatServer } from '../../testkit/fakes/fakeChatServer';

// CHAT and VISION model configs as a user manages them: `sluice model set|show|test|
// delete` (the functions cli/main.ts runs), the /v1/model-configs routes and the admin page's
// forms in a real browser, with the key sealed, write-only and masked, and calls under the outbound policy.

const API_KEY = 'sk-model-SECRET-7c1d0e55wxyz';
const SECRET_KEY = randomBytes(32).toString('base64');
let h: ApiHarness;
let chat: FakeChatServer;

beforeAll(async () => {
  chat = await startFakeChatServer();
  h = await startApi({ SLUICE_SECRET_KEY: SECRET_KEY });
});
afterAll(async () => {
  await h.close();
  await chat.close();
});

function capture(env: Record<string, string> = {}, stdin = ''): EmbeddingIo & { lines: string[] } {
  const lines: string[] = [];
  return {
    lines,
    out: (l) => lines.push(l),
    err: (l) => lines.push(`ERR ${l}`),
    readStdin: () => Promise.resolve(stdin),
    env,
  };
}
const deps = () => ({ db: h.tw.adapters.db, config: h.tw.config });

it('CLI: set seals the key (from the environment), show masks it, test calls the model, delete removes it', async () => {
  const { userId } = await newUser(h, 'cli-model');
  const set = capture({ CHAT_KEY: API_KEY });
  const code = await modelSet(
    deps(),
    'chat',
    { user: userId, baseUrl: chat.baseUrl, model: 'tiny-chat', apiKeyEnv: 'CHAT_KEY' },
    set,
  );
  expect(set.lines).not.toContainEqual(expect.stringContaining(API_KEY));
  expect(code).toBe(0);
  const stored = await findModelConfig(h.tw.adapters.db, userId, 'chat');
  expect(stored?.api_key_encrypted).not.toContain(API_KEY);
  expect(decryptSecret(parseEncryptionKey(SECRET_KEY), stored?.api_key_encrypted ?? '')).toBe(API_KEY);

  const shown = capture();
  expect(await modelShow(deps(), 'chat', { user: userId }, shown)).toBe(0);
  expect(shown.lines.join('\n')).toMatch(/API key: +sk-…wxyz/);

  const before = chat.requests.length;
  const tested = capture();
  expect(await modelTest(deps(), 'chat', { user: userId }, tested)).toBe(0);
  expect(tested.lines[0]).toMatch(/^OK: model tiny-chat answered/);
  expect(chat.requests.slice(before).map((r) => r.authorization)).toEqual([`Bearer ${API_KEY}`]);

  // The VISION model is its own row: the user has none yet.
  const noVision = capture();
  expect(await modelShow(deps(), 'vision', { user: userId }, noVision)).toBe(1);
  expect(noVision.lines[0]).toMatch(/has no VISION model/);

  const wrong = capture();
  expect(await modelShow(deps(), 'embedding', { user: userId }, wrong)).toBe(1);
  expect(wrong.lines[0]).toMatch(/^ERR the model is chat, vision or rerank/);

  const deleted = capture();
  expect(await modelDelete(deps(), 'chat', { user: userId }, deleted)).toBe(0);
  expect(await findModelConfig(h.tw.adapters.db, userId, 'chat')).toBeUndefined();
});

it('CLI: a kept key stays with its host, and the outbound policy refuses a private address', async () => {
  const { userId } = await newUser(h, 'cli-host');
  expect(
    await modelSet(
      deps(),
      'vision',
      { user: userId, baseUrl: chat.baseUrl, model: 'eye', apiKeyStdin: true },
      capture({}, `${API_KEY}\n`),
    ),
  ).toBe(0);
  const moved = capture();
  expect(
    await modelSet(deps(), 'vision', { user: userId, baseUrl: 'https://elsewhere.example/v1', model: 'eye' }, moved),
  ).toBe(1);
  expect(moved.lines[0]).toMatch(/^ERR the stored API key was given for another host/);

  // 127.0.0.2 is private and not in SLUICE_OUTBOUND_ALLOW_HOSTS: refused before any request.
  expect(
    await modelSet(
      deps(),
      'vision',
      { user: userId, baseUrl: 'http://127.0.0.2:9/v1', model: 'eye', apiKeyStdin: true },
      capture({}, 'sk-other-key-0000\n'),
    ),
  ).toBe(0);
  const refused = capture();
  expect(await modelTest(deps(), 'vision', { user: userId }, refused)).toBe(1);
  expect(refused.lines[0]).toMatch(/^ERR FAILED: .*(private|not allowed)/i);
});

it('HTTP: PUT seals the key, GET masks it, test answers, DELETE removes it; another purpose is refused', async () => {
  const user = await newUser(h, 'http-model');
  const initial = await call(h.baseUrl, 'GET', '/v1/model-configs/vision', { user });
  expect(initial).toMatchObject({ status: 200, body: { config: null } });

  const put = await call(h.baseUrl, 'PUT', '/v1/model-configs/vision', {
    user,
    body: { baseUrl: chat.baseUrl, model: 'eye-1', apiKey: API_KEY },
  });
  expect(put).toMatchObject({
    status: 200,
    body: { config: { purpose: 'vision', model: 'eye-1', apiKey: 'sk-…wxyz' } },
  });
  expect(JSON.stringify(put.body)).not.toContain(API_KEY);

  const keep = await call(h.baseUrl, 'PUT', '/v1/model-configs/vision', {
    user,
    body: { baseUrl: chat.baseUrl, model: 'eye-2' },
  });
  expect(keep.body).toMatchObject({ config: { model: 'eye-2', apiKey: 'sk-…wxyz' } });

  const tested = await call(h.baseUrl, 'POST', '/v1/model-configs/vision/test', { user });
  expect(tested).toMatchObject({ status: 200, body: { ok: true, model: 'eye-2' } });
  expect(chat.requests[chat.requests.length - 1]?.authorization).toBe(`Bearer ${API_KEY}`);

  const badUrl = await call(h.baseUrl, 'PUT', '/v1/model-configs/chat', {
    user,
    body: { baseUrl: 'ftp://x.example', model: 'm' },
  });
  expect(badUrl.status).toBe(400);
  expect((await call(h.baseUrl, 'GET', '/v1/model-configs/embedding', { user })).status).toBe(400);
  expect((await call(h.baseUrl, 'POST', '/v1/model-configs/chat/test', { user })).status).toBe(404);

  const deleted = await call(h.baseUrl, 'DELETE', '/v1/model-configs/vision', { user });
  expect(deleted.body).toEqual({ deleted: true });
  expect((await call(h.baseUrl, 'GET', '/v1/model-configs/vision', { user })).body).toEqual({ config: null });
});

it('the admin page: a person saves, tests and deletes each model in its form; the key never comes back', async () => {
  const user = await newUser(h, 'admin-model');
  const { browser, page } = await launchAdminBrowser();
  try {
    const seen: string[] = [];
    page.on('response', (response) => {
      if (response.url().includes('/v1/model-configs/'))
        void response.text().then(
          (t) => seen.push(t),
          () => undefined,
        );
    });
    await signInThroughPage(page, h.baseUrl, user.apiKey, user.userId);
    const form = (purpose: string) => page.locator(`form.model-form[data-purpose="${purpose}"]`);
    for (const purpose of ['chat', 'vision'])
      await form(purpose).locator('.model-current', { hasText: 'Not configured.' }).waitFor();

    const chatForm = form('chat');
    await chatForm.locator('input[name="baseUrl"]').fill(chat.baseUrl);
    await chatForm.locator('input[name="model"]').fill('page-chat');
    await chatForm.locator('input[name="apiKey"]').fill(API_KEY);
    await chatForm.locator('button[type="submit"]').click();
    await chatForm.locator('.model-status', { hasText: 'Saved.' }).waitFor();
    await chatForm.locator('.model-current', { hasText: `page-chat at ${chat.baseUrl}, API key sk-…wxyz` }).waitFor();
    expect(await chatForm.locator('input[name="apiKey"]').inputValue()).toBe('');
    const stored = await findModelConfig(h.tw.adapters.db, user.userId, 'chat');
    expect(decryptSecret(parseEncryptionKey(SECRET_KEY), stored?.api_key_encrypted ?? '')).toBe(API_KEY);

    const before = chat.requests.length;
    await chatForm.locator('.model-test').click();
    await chatForm.locator('.model-status', { hasText: /^OK: model page-chat answered/ }).waitFor();
    expect(chat.requests.slice(before).map((r) => r.authorization)).toEqual([`Bearer ${API_KEY}`]);
    // The other purpose is its own row, untouched.
    await form('vision').locator('.model-current', { hasText: 'Not configured.' }).waitFor();

    // A VISION endpoint the outbound policy refuses is saved, and its test says why it fails.
    const visionForm = form('vision');
    await visionForm.locator('input[name="baseUrl"]').fill('http://127.0.0.2:9/v1');
    await visionForm.locator('input[name="model"]').fill('page-eye');
    await visionForm.locator('button[type="submit"]').click();
    await visionForm
      .locator('.model-current', { hasText: 'page-eye at http://127.0.0.2:9/v1, API key none' })
      .waitFor();
    await visionForm.locator('.model-test').click();
    await visionForm.locator('.model-status', { hasText: /^FAILED: .*(private|not allowed)/i }).waitFor();

    await chatForm.locator('.model-delete').click();
    await chatForm.locator('.model-status', { hasText: 'Deleted.' }).waitFor();
    await chatForm.locator('.model-current', { hasText: 'Not configured.' }).waitFor();
    expect(await findModelConfig(h.tw.adapters.db, user.userId, 'chat')).toBeUndefined();
    expect(await findModelConfig(h.tw.adapters.db, user.userId, 'vision')).toMatchObject({ model: 'page-eye' });

    expect(seen.length).toBeGreaterThan(4);
    expect(seen.join('\n')).not.toContain(API_KEY);
    expect(await page.content()).not.toContain(API_KEY);
  } finally {
    await browser.close();
  }
});
