import { randomBytes, randomUUID } from 'node:crypto';
import type { Browser, Page } from 'playwright-core';
import {
  call,
  fileForm,
  newUser,
  startApi,
  waitForDocument,
  type ApiHarness,
  type TestUser,
} from '../../testkit/harness/apiHarness';
import { launchAdminBrowser } from '../../testkit/harness/adminBrowser';
import { startFakeEmbeddingServer, type FakeEmbeddingServer } from '../../testkit/fakes/fakeEmbeddingServer';

// The admin page's embedding form in a real browser: save a provider (the key typed once, never
// shown again), test it, change the model and re-embed a dataset with the offered button.
const API_KEY = 'sk-page-SECRET-0c4b2e9fwxyz';
const DIMENSION = 4;

let h: ApiHarness;
let server: FakeEmbeddingServer;
let user: TestUser;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  server = await startFakeEmbeddingServer({ apiKey: API_KEY, dimension: DIMENSION });
  h = await startApi({
    SLUICE_EMBEDDER: 'user-config',
    SLUICE_SECRET_KEY: randomBytes(32).toString('base64'),
    SLUICE_OUTBOUND_ALLOW_HOSTS: '127.0.0.1',
  });
  user = await newUser(h, 'page');
  ({ browser, page } = await launchAdminBrowser());
});
afterAll(async () => {
  await browser?.close();
  await h?.close();
  await server?.close();
});

it('saves, tests and re-embeds from the form; the key is never sent back to the page', async () => {
  await page.goto(`${h.baseUrl}/admin`);
  await page.fill('#api-key', user.apiKey);
  await page.click('#login-form button');
  await page.locator('#embedding-current', { hasText: 'No embedding configuration' }).waitFor();

  const responses: string[] = [];
  page.on('response', (response) => {
    if (response.url().includes('/v1/embedding-config'))
      void response.text().then(
        (t) => responses.push(t),
        () => undefined,
      );
  });
  await page.fill('#embedding-form input[name="baseUrl"]', server.baseUrl);
  await page.fill('#embedding-form input[name="model"]', 'page-embed');
  await page.fill('#embedding-form input[name="dimension"]', String(DIMENSION));
  await page.fill('#embedding-form input[name="apiKey"]', API_KEY);
  await page.click('#embedding-form button[type="submit"]');
  await page.locator('#embedding-current', { hasText: 'your own: page-embed (4 dimensions)' }).waitFor();
  expect(await page.inputValue('#embedding-form input[name="apiKey"]')).toBe('');
  expect(await page.textContent('#embedding-current')).toContain('API key sk-…wxyz');

  await page.click('#embedding-test');
  await page
    .locator('#embedding-status', { hasText: 'OK: model page-embed returned a 4-dimensional vector' })
    .waitFor();

  const upload = await call<{ documentId: string }>(h.baseUrl, 'POST', '/v1/datasets/page-docs/documents', {
    user,
    body: fileForm([{ name: 'page.md', content: `# Page\n\nEmbedded from the form ${randomUUID()}.\n` }]),
  });
  h.tw.track(upload.body.documentId);
  expect((await waitForDocument(h, user, upload.body.documentId)).pipelineStatus).toBe('SUCCESS');

  // A new model, the stored key kept (the field left empty): the page offers re-embedding.
  await page.fill('#embedding-form input[name="model"]', 'page-embed-2');
  await page.click('#embedding-form button[type="submit"]');
  await page.locator('#embedding-reembed button', { hasText: 'Re-embed page-docs' }).click();
  await page
    .locator('#embedding-reembed li', { hasText: 'page-docs: 1 documents re-embedding with page-embed-2' })
    .waitFor();
  await page.click('#embedding-test');
  await page.locator('#embedding-status', { hasText: 'OK: model page-embed-2' }).waitFor();

  expect(responses.length).toBeGreaterThan(0);
  for (const body of responses) expect(body).not.toContain(API_KEY);
});
