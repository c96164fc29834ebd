import { datasetSet, datasetShow } from '../../cli/commands/datasetSettings';
import { findDatasetSettings } from '../../db/repositories/datasetSettings';
import { call, newUser, startApi, type ApiHarness } from '../../testkit/harness/apiHarness';

// A dataset's settings through the HTTP API and the CLI's command functions, on the real Postgres:
// section-wise replacement, reset by null, validation naming the field, and tenancy.

let h: ApiHarness;
beforeAll(async () => {
  h = await startApi();
});
afterAll(async () => {
  await h.close();
});

type SettingsBody = { datasetId: string; settings: Record<string, unknown> };

test('a section is stored, read back, and reset by null; another user sees the defaults', async () => {
  const [alice, bob] = [await newUser(h, 'alice'), await newUser(h, 'bob')];
  const path = '/v1/datasets/manuals/settings';
  expect((await call<SettingsBody>(h.baseUrl, 'GET', path, { user: alice })).body.settings).toEqual({});

  const chunking = { strategy: 'table', parameters: { childTokens: 300, overlapTokens: 30 }, review: 'required' };
  const put = await call<SettingsBody>(h.baseUrl, 'PUT', path, { user: alice, body: { chunking } });
  expect(put.status).toBe(200);
  expect(put.body.settings).toEqual({ chunking });
  expect((await call<SettingsBody>(h.baseUrl, 'GET', path, { user: alice })).body.settings).toEqual({ chunking });
  expect((await call<SettingsBody>(h.baseUrl, 'GET', path, { user: bob })).body.settings).toEqual({});

  const kept = await call<SettingsBody>(h.baseUrl, 'PUT', path, { user: alice, body: {} });
  expect(kept.body.settings).toEqual({ chunking });
  const reset = await call<SettingsBody>(h.baseUrl, 'PUT', path, { user: alice, body: { chunking: null } });
  expect(reset.body.settings).toEqual({});
});

test('invalid settings are refused with 400 and nothing is stored', async () => {
  const user = await newUser(h);
  const path = '/v1/datasets/faq/settings';
  for (const body of [
    { chunking: { strategy: 'sentences' } },
    { chunking: { parameters: { childTokens: 100, overlapTokens: 80 } } },
    { chunking: { strategy: 'qa', colour: 'red' } },
    { ranking: {} },
  ]) {
    const res = await call<{ error: { code: string } }>(h.baseUrl, 'PUT', path, { user, body });
    expect(res.status).toBe(400);
  }
  expect(await findDatasetSettings(h.tw.adapters.db, { userId: user.userId, datasetId: 'faq' })).toEqual({});
});

test('the CLI commands store and show the same document, and explain bad JSON', async () => {
  const user = await newUser(h, 'cli');
  const ref = { userId: user.userId, datasetId: 'decks' };
  const out: string[] = [];
  const err: string[] = [];
  const io = { out: (l: string) => out.push(l), err: (l: string) => err.push(l) };
  expect(await datasetSet(h.tw.adapters.db, ref, '{"chunking":{"strategy":"page"}}', io)).toBe(0);
  expect(await datasetSet(h.tw.adapters.db, ref, '{chunking', io)).toBe(1);
  expect(await datasetSet(h.tw.adapters.db, ref, '{"chunking":{"review":"sometimes"}}', io)).toBe(1);
  expect(err.join('\n')).toMatch(/not valid JSON/);
  expect(err.join('\n')).toMatch(/chunking\.review/);
  out.length = 0;
  expect(await datasetShow(h.tw.adapters.db, ref, io)).toBe(0);
  expect(out.join('\n')).toContain('"strategy":"page"');
  const res = await call<SettingsBody>(h.baseUrl, 'GET', '/v1/datasets/decks/settings', { user });
  expect(res.body.settings).toEqual({ chunking: { strategy: 'page' } });
});
