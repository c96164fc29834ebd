import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { DEFAULT_SEARCH_SETTINGS } from '../../search/searchSettings';
import { launchAdminBrowser } from '../../testkit/harness/adminBrowser';
import { call, newUser, startApi, type ApiHarness, type TestUser } from '../../testkit/harness/apiHarness';
import { eventually } from '../../testkit/harness/ingestHelpers';

// The admin page in a real browser (Debian's Chromium driven by playwright-core): sign in,
// upload, watch SUCCESS arrive over SSE, make one fail, retry it, delete it, search, and review a
// waiting chunking plan.
const ARTIFACTS = path.resolve(__dirname, '..', '..', 'test-artifacts', 'api-browser');
const FIXTURES = path.resolve(__dirname, '..', 'fixtures');
const DATASET = 'browser-manuals';
// A folder the page adds as a source (SLUICE_SOURCE_FOLDER_ROOTS allows it).
const SOURCE_ROOT = fs.mkdtempSync(path.join(os.tmpdir(), 'sluice-browser-source-'));

let h: ApiHarness;
let user: TestUser;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  fs.mkdirSync(ARTIFACTS, { recursive: true });
  h = await startApi({ SLUICE_API_SSE_POLL: '200ms', SLUICE_SOURCE_FOLDER_ROOTS: SOURCE_ROOT });
  user = await newUser(h, 'browser');
  ({ browser, page } = await launchAdminBrowser());
  page.on('dialog', (dialog) => void dialog.accept());
});

afterAll(async () => {
  // Workflows started through the page are closed with the suite.
  const ids = await h?.tw.adapters.db
    .selectFrom('documents')
    .select('id')
    .where('user_id', '=', user?.userId ?? '')
    .execute();
  for (const { id } of ids ?? []) h.tw.track(id);
  await browser?.close();
  await h?.close();
});

const shot = (name: string) => page.screenshot({ path: path.join(ARTIFACTS, `${name}.png`), fullPage: true });
const documentRow = (fileName: string) =>
  page.locator('#documents tbody tr', { has: page.locator('.file-name', { hasText: fileName }) });

async function uploadThroughPage(fileName: string, content: Buffer | string, dataset = DATASET): Promise<void> {
  await page.fill('#upload-form input[name="dataset"]', dataset);
  await page.setInputFiles('#upload-form input[name="files"]', {
    name: fileName,
    mimeType: 'application/octet-stream',
    buffer: Buffer.from(content),
  });
  const navigated = page.waitForURL(`**/admin?dataset=${dataset}`);
  await page.click('#upload-form button[type="submit"]');
  await page.locator('#upload-results li', { hasText: fileName }).waitFor();
  await navigated;
}

it('signs in with an API key', async () => {
  await page.goto(`${h.baseUrl}/admin`);
  await page.fill('#api-key', 'sk_wrong');
  await page.click('#login-form button');
  await page.locator('#login-error', { hasText: 'UNAUTHENTICATED' }).waitFor();
  await page.fill('#api-key', user.apiKey);
  await page.click('#login-form button');
  await page.locator('#user-id', { hasText: user.userId }).waitFor();
  await shot('01-signed-in');
});

it('uploads a file through the page and watches it reach SUCCESS', async () => {
  await uploadThroughPage('checkpoints.md', fs.readFileSync(path.join(FIXTURES, 'checkpoints.md')));
  const row = documentRow('checkpoints.md');
  await row.and(page.locator('[data-status="SUCCESS"]')).waitFor({ timeout: 60_000 });
  await row.locator('.stage.st-SUCCESS').nth(5).waitFor();
  await row.locator('.chunks progress').waitFor();
  const id = await row.getAttribute('data-document-id');
  expect(await row.locator('a.workflow-link').getAttribute('href')).toBe(
    `${h.tw.config.temporal.uiUrl}/namespaces/default/workflows/ingest:${id}`,
  );
  await shot('02-uploaded-success');
});

it('shows a bad file failing with its code and reason, retries it, then deletes it', async () => {
  await uploadThroughPage('blank.md', '\n\n   \n\t\n');
  const row = documentRow('blank.md');
  await row.and(page.locator('[data-status="FAILED"]')).waitFor({ timeout: 60_000 });
  await row.locator('.failure-code', { hasText: 'EMPTY_DOCUMENT' }).waitFor();
  await page
    .locator('#failed tbody tr', { has: page.locator('.failure-code', { hasText: 'EMPTY_DOCUMENT' }) })
    .waitFor();
  const firstTask = await row.getAttribute('data-task-id');
  await shot('03-failed');

  // Retry: a new task runs (the file is still blank, so it fails again with a new task id).
  await row.locator('button[data-action="retry"]').click();
  await eventually(
    async () => ({ status: await row.getAttribute('data-status'), taskId: await row.getAttribute('data-task-id') }),
    (r) => r.status === 'FAILED' && r.taskId !== firstTask && r.taskId !== '',
    60_000,
    200,
  );
  await shot('04-retried');

  await documentRow('blank.md').locator('button[data-action="delete"]').click();
  await documentRow('blank.md').waitFor({ state: 'detached', timeout: 60_000 });
  await page.reload();
  expect(await documentRow('blank.md').count()).toBe(0);
  expect(await documentRow('checkpoints.md').count()).toBe(1);
  await shot('05-deleted');
});

it('refuses a wrong-type file in the upload form without creating a document', async () => {
  await page.fill('#upload-form input[name="dataset"]', DATASET);
  // GIF: an image type OCR does not read (PNG, JPEG, TIFF and WebP it does).
  const gif = Buffer.concat([Buffer.from('GIF89a', 'latin1'), Buffer.alloc(64, 1)]);
  await page.setInputFiles('#upload-form input[name="files"]', {
    name: 'slides.pdf',
    mimeType: 'application/pdf',
    buffer: gif,
  });
  await page.click('#upload-form button[type="submit"]');
  await page.locator('#upload-results li.error', { hasText: 'UNSUPPORTED_FILE_TYPE' }).waitFor();
  expect(await documentRow('slides.pdf').count()).toBe(0);
});

it('searches the dataset', async () => {
  await page.fill('#search-form input[name="q"]', 'marmalade heron');
  await page.click('#search-form button');
  const hit = page.locator('#search-results li.hit').first();
  await hit.waitFor();
  expect(await hit.locator('.hit-head').textContent()).toContain('checkpoints.md');
  expect(await hit.locator('.hit-text').textContent()).toContain('marmalade heron');
  await shot('06-search');
});

it("adds a folder source to the dataset, sees its sync's report, syncs it again and pauses it", async () => {
  fs.writeFileSync(path.join(SOURCE_ROOT, 'lantern.md'), '# Lantern\n\nThe brass lantern burns whale oil.\n');
  await page.selectOption('#source-form select[name="kind"]', 'folder');
  await page.fill('#source-form input[name="settings"]', JSON.stringify({ path: SOURCE_ROOT }));
  await page.click('#source-form button[type="submit"]');
  await page.locator('#source-status', { hasText: 'Added' }).waitFor();
  const row = page.locator('#source-list li.source').first();
  // The list shows the report once the first sync has recorded it (reloaded by Sync now).
  await eventually(
    async () => {
      await row.locator('button', { hasText: 'Sync now' }).click();
      return (await row.textContent()) ?? '';
    },
    (text) => text.includes('1 added') || text.includes('1 unchanged'),
    60_000,
    1000,
  );
  await row.locator('button', { hasText: 'Pause' }).click();
  await page.locator('#source-list li.source', { hasText: 'paused' }).waitFor();
  await shot('07-sources');
});

it("hit-tests the dataset: each retriever's rank, the fused score and the section path, weights for this test only", async () => {
  await page.fill('#hit-test-form input[name="query"]', 'marmalade heron');
  await page.click('#hit-test-form button');
  const row = page.locator('#hit-test-results tbody tr.hit').first();
  await row.waitFor();
  expect(await row.locator('.section-path').textContent()).toContain('checkpoints.md');
  expect(await row.locator('.rank-keyword').textContent()).toMatch(/^\d+$/);
  expect(await page.locator('#hit-test-settings').textContent()).toContain(`k ${DEFAULT_SEARCH_SETTINGS.rrfK}`);
  await page.fill('#hit-test-form input[name="weight-keyword"]', '0');
  await page.fill('#hit-test-form input[name="rrfK"]', '40');
  await page.click('#hit-test-form button');
  await page.locator('#hit-test-settings', { hasText: 'k 40' }).waitFor();
  expect(await page.locator('#hit-test-results tbody tr.hit .rank-keyword').first().textContent()).toBe('–');
  await shot('06b-hit-test');
  // A filter no document passes leaves no hit; one that is not valid says why.
  await page.fill('#hit-test-form input[name="filter"]', '{"field": "meta.team", "eq": "nobody"}');
  await page.click('#hit-test-form button');
  await page.locator('#hit-test-settings', { hasText: '· 0 hits' }).waitFor();
  expect(await page.locator('#hit-test-results tbody tr.hit').count()).toBe(0);
  await page.fill('#hit-test-form input[name="filter"]', '{"field": "pageCount", "eq": "ten"}');
  await page.click('#hit-test-form button');
  await page.locator('#hit-test-settings.error', { hasText: 'FILTER_INVALID' }).waitFor();
  await page.fill('#hit-test-form input[name="filter"]', '');
});

it('reviews a waiting plan: sees its preview, changes the strategy, confirms, and the document is chunked by it', async () => {
  const dataset = 'browser-review';
  const settings = await call(h.baseUrl, 'PUT', `/v1/datasets/${dataset}/settings`, {
    user,
    body: { chunking: { review: 'required' } },
  });
  expect(settings.status).toBe(200);
  const faq = Array.from(
    { length: 4 },
    (_, i) => `## How do I set the lantern option ${i}?\n\nWrite lantern option ${i} into the settings file.`,
  ).join('\n\n');
  await uploadThroughPage('lantern-faq.md', faq, dataset);
  const row = documentRow('lantern-faq.md');
  const review = row.locator('button[data-plan-review]');
  await review.waitFor({ timeout: 60_000 });
  expect(await row.locator('.plan-waiting').textContent()).toBe('AWAITING CONFIRMATION');

  await review.click();
  const dialog = page.locator('#plan-dialog');
  await dialog.waitFor({ state: 'visible' });
  expect(await dialog.locator('#plan-strategy').textContent()).toBe('qa');
  expect(await dialog.locator('#plan-reason').textContent()).not.toBe('');
  await dialog.locator('#plan-preview li').first().waitFor();
  expect(await dialog.locator('#plan-preview li pre').first().textContent()).toContain('lantern option 0');
  await shot('07-plan-review');

  await dialog.locator('select[name="strategy"]').selectOption('one');
  await dialog.locator('#plan-change').click();
  // Either the confirmation went through (the dialog closes, the page reloads) or it says why not.
  // (A locator, not waitForFunction: the page's CSP forbids evaluating strings.)
  await page.locator('#plan-dialog:not([open]), #plan-error:not(:empty)').first().waitFor({ state: 'attached' });
  expect(await page.locator('#plan-error').textContent()).toBe('');
  await row.and(page.locator('[data-status="SUCCESS"]')).waitFor({ timeout: 60_000 });
  expect(await row.locator('button[data-plan-review]').count()).toBe(0);
  const id = (await row.getAttribute('data-document-id')) ?? '';
  const plan = await call<{ state: string; plan: { strategy: string }; confirmedBy: string }>(
    h.baseUrl,
    'GET',
    `/v1/documents/${id}/plan`,
    { user },
  );
  expect(plan.body).toMatchObject({ state: 'EXECUTED', plan: { strategy: 'one' }, confirmedBy: user.userId });
  const parents = await h.tw.adapters.db
    .selectFrom('chunks')
    .innerJoin('documents', 'documents.id', 'chunks.document_id')
    .select('chunks.chunk_id')
    .where('chunks.document_id', '=', id)
    .whereRef('chunks.generation', '=', 'documents.index_generation')
    .where('chunks.kind', '=', 'parent')
    .execute();
  expect(parents).toHaveLength(1);
  await shot('08-plan-confirmed');
});
