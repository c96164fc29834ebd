import { execFile } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import path from 'node:path';
import { promisify } from 'node:util';
import {
  embeddingDelete,
  embeddingSet,
  embeddingShow,
  embeddingTest,
  type EmbeddingIo,
} from '../../cli/commands/embedding';
import { createUserWithKey } from '../../api/apiKeys';
import { findDefaultEmbeddingConfig } from '../../db/repositories/embeddingConfigs';
import { parseEncryptionKey, decryptSecret } from '../../crypto/secretBox';
import { call, fileForm, newUser, startApi, waitForDocument, type ApiHarness } from '../../testkit/harness/apiHarness';
import { startFakeEmbeddingServer, type FakeEmbeddingServer } from '../../testkit/fakes/fakeEmbeddingServer';

// Embedding configuration as a user manages it, with no SQL: `sluice embedding set|show|test|delete`
// (the command functions cli/main.ts runs, and the real CLI once), then an ingestion on a worker
// with SLUICE_EMBEDDER=user-config that embeds through the fake OpenAI-compatible provider; and the
// HTTP routes with the key write-only.

const API_KEY = 'sk-live-SECRET-5f1e9c27abcd';
const DIMENSION = 6;
const SECRET_KEY = randomBytes(32).toString('base64');
const ENV = { SLUICE_EMBEDDER: 'user-config', SLUICE_SECRET_KEY: SECRET_KEY, SLUICE_OUTBOUND_ALLOW_HOSTS: '127.0.0.1' };
let h: ApiHarness;
let server: FakeEmbeddingServer;

beforeAll(async () => {
  server = await startFakeEmbeddingServer({ apiKey: API_KEY, dimension: DIMENSION });
  h = await startApi(ENV);
});
afterAll(async () => {
  await h.close();
  await server.close();
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

const execFileAsync = promisify(execFile);
/** The real CLI, as a user runs it, on the suite's database. */
async function cli(args: string[], env: Record<string, string> = {}): Promise<{ code: number; output: string }> {
  const root = path.resolve(__dirname, '..', '..');
  const result = await execFileAsync(
    path.join(root, 'node_modules', '.bin', 'tsx'),
    [path.join(root, 'cli', 'main.ts'), ...args],
    {
      cwd: root,
      env: { ...process.env, ...ENV, DATABASE_URL: h.tw.config.database.url, ...env },
    },
  ).then(
    (r) => ({ code: 0, output: r.stdout + r.stderr }),
    (e: { code?: number; stdout?: string; stderr?: string }) => ({
      code: e.code ?? 1,
      output: `${e.stdout ?? ''}${e.stderr ?? ''}`,
    }),
  );
  return result;
}

it('set (key from an env var), show (masked), test (OK and a mismatch), then ingests with the stored config', async () => {
  const { userId, apiKey } = await createUserWithKey(h.tw.adapters.db, `cli-${randomUUID()}`);
  const set = capture({ PROVIDER_KEY: API_KEY });
  const setCode = await embeddingSet(
    deps(),
    {
      user: userId,
      baseUrl: server.baseUrl,
      model: 'fake-embed',
      dimension: String(DIMENSION),
      apiKeyEnv: 'PROVIDER_KEY',
    },
    set,
  );
  expect(setCode).toBe(0);
  expect(set.lines.join('\n')).toMatch(/API key: +sk-…abcd/);
  expect(set.lines.join('\n')).not.toContain(API_KEY);
  const stored = await findDefaultEmbeddingConfig(h.tw.adapters.db, userId);
  expect(stored?.api_key_encrypted).not.toContain(API_KEY);
  expect(decryptSecret(parseEncryptionKey(SECRET_KEY), stored?.api_key_encrypted as string)).toBe(API_KEY);

  const shown = await cli(['embedding', 'show', '--user', userId]);
  expect(shown.code).toBe(0);
  expect(shown.output).toMatch(/model: +fake-embed/);
  expect(shown.output).toMatch(/API key: +sk-…abcd/);
  expect(shown.output).not.toContain(API_KEY);

  const tested = await cli(['embedding', 'test', '--user', userId]);
  expect(tested).toEqual({
    code: 0,
    output: expect.stringMatching(/^OK: model fake-embed returned a 6-dimensional vector, as configured/),
  });

  // Another user says 7 dimensions for the same 6-dimensional model, the key from stdin.
  const wrong = `cli-${randomUUID()}`;
  expect(
    await embeddingSet(
      deps(),
      { user: wrong, baseUrl: server.baseUrl, model: 'fake-embed', dimension: '7', apiKeyStdin: true },
      capture({}, `${API_KEY}\n`),
    ),
  ).toBe(0);
  const mismatch = capture();
  expect(await embeddingTest(deps(), { user: wrong }, mismatch)).toBe(1);
  expect(mismatch.lines).toEqual([
    'ERR FAILED: dimension mismatch: model fake-embed returned 6-dimensional vectors, but the configuration says 7',
  ]);

  const before = server.requests.length;
  const upload = await call<{ documentId: string }>(h.baseUrl, 'POST', '/v1/datasets/notes/documents', {
    headers: { authorization: `Bearer ${apiKey}` },
    body: fileForm([
      { name: 'note.md', content: `# Configured\n\nEmbedded through the user's own provider ${randomUUID()}.\n` },
    ]),
  });
  expect(upload.status).toBe(202);
  h.tw.track(upload.body.documentId);
  const doc = await waitForDocument(
    h,
    { userId, apiKey, auth: { authorization: `Bearer ${apiKey}` } },
    upload.body.documentId,
  );
  expect(doc.pipelineStatus).toBe('SUCCESS');
  expect(doc.chunks.dense).toBe(doc.chunks.active);
  expect(
    server.requests.slice(before).some((r) => r.body.model === 'fake-embed' && r.authorization === `Bearer ${API_KEY}`),
  ).toBe(true);

  // Changing the model offers re-embedding, naming the dataset.
  const changed = capture();
  expect(
    await embeddingSet(
      deps(),
      { user: userId, baseUrl: server.baseUrl, model: 'fake-embed-2', dimension: String(DIMENSION) },
      changed,
    ),
  ).toBe(0);
  expect(changed.lines).toContain(`  sluice reembed -d notes -u ${userId}`);
  // What the admin page's re-embed button calls: the existing take-over, with the new model.
  const user = { userId, apiKey, auth: { authorization: `Bearer ${apiKey}` } };
  const reembed = await call<{ model: string; started: { documentId: string; taskId: string }[] }>(
    h.baseUrl,
    'POST',
    '/v1/datasets/notes/reembed',
    { user },
  );
  expect(reembed.status).toBe(202);
  expect(reembed.body.model).toBe('fake-embed-2');
  expect(reembed.body.started.map((s) => s.documentId)).toEqual([upload.body.documentId]);
  const reembedded = await waitForDocument(h, user, upload.body.documentId, reembed.body.started[0]?.taskId);
  expect(reembedded.pipelineStatus).toBe('SUCCESS');
  expect(server.requests.some((r) => r.body.model === 'fake-embed-2')).toBe(true);

  const deleted = capture();
  expect(await embeddingDelete(deps(), { user: userId }, deleted)).toBe(0);
  const none = capture();
  expect(await embeddingShow(deps(), { user: userId }, none)).toBe(1);
  expect(none.lines[0]).toMatch(/no embedding configuration reaches it/);
});

it('refuses an API key on argv: there is no such option', async () => {
  const result = await cli(['embedding', 'set', '--model', 'm', '--dimension', '4', '--api-key', API_KEY]);
  expect(result.code).not.toBe(0);
  expect(result.output).toMatch(/unknown option '--api-key'/);
});

it('HTTP: GET masks the key, PUT without a key keeps it and flags re-embedding, test and DELETE', async () => {
  const user = await newUser(h, 'http');
  const initial = await call(h.baseUrl, 'GET', '/v1/embedding-config', { user });
  expect(initial).toMatchObject({ status: 200, body: { config: null, applies: true } });

  const put = await call(h.baseUrl, 'PUT', '/v1/embedding-config', {
    user,
    body: { baseUrl: server.baseUrl, model: 'fake-embed', dimension: DIMENSION, apiKey: API_KEY },
  });
  expect(put.status).toBe(200);
  expect(put.body).toMatchObject({
    config: { source: 'user', model: 'fake-embed', apiKey: 'sk-…abcd' },
    reembedSuggested: false,
  });
  expect(JSON.stringify(put.body)).not.toContain(API_KEY);

  const got = await call(h.baseUrl, 'GET', '/v1/embedding-config', { user });
  expect(got.body).toMatchObject({
    config: { source: 'user', model: 'fake-embed', dimension: DIMENSION, baseUrl: server.baseUrl, apiKey: 'sk-…abcd' },
  });
  expect(JSON.stringify(got.body)).not.toContain(API_KEY);

  const keep = await call(h.baseUrl, 'PUT', '/v1/embedding-config', {
    user,
    body: { baseUrl: server.baseUrl, model: 'fake-embed-2', dimension: DIMENSION },
  });
  expect(keep.body).toMatchObject({ config: { model: 'fake-embed-2', apiKey: 'sk-…abcd' }, reembedSuggested: true });
  // The fake provider answers only the right key: the kept one.
  const tested = await call(h.baseUrl, 'POST', '/v1/embedding-config/test', { user });
  expect(tested).toMatchObject({
    status: 200,
    body: {
      ok: true,
      source: 'user',
      model: 'fake-embed-2',
      configuredDimension: DIMENSION,
      returnedDimension: DIMENSION,
    },
  });

  // The outbound policy applies to the test call: loopback is refused unless allowed.
  const strict = await h.variant((config) => ({ ...config, outbound: { allowPrivate: false, allowHosts: [] } }));
  try {
    const refused = await call<{ ok: boolean; message: string }>(strict.baseUrl, 'POST', '/v1/embedding-config/test', {
      user,
    });
    expect(refused.body.ok).toBe(false);
    expect(refused.body.message).toMatch(/refused/);
  } finally {
    await strict.close();
  }

  const bad = await call(h.baseUrl, 'PUT', '/v1/embedding-config', {
    user,
    body: { baseUrl: 'ftp://example.com', model: 'x', dimension: 4 },
  });
  expect(bad).toMatchObject({ status: 400, body: { error: { code: 'INVALID_EMBEDDING_CONFIG' } } });

  // The stored key stays with its host, so a changed URL cannot send it elsewhere. Another host without the key is refused.
  const moved = await call<{ error: { code: string; message: string } }>(h.baseUrl, 'PUT', '/v1/embedding-config', {
    user,
    body: { baseUrl: 'https://elsewhere.example/v1', model: 'fake-embed-2', dimension: DIMENSION },
  });
  expect(moved).toMatchObject({ status: 400, body: { error: { code: 'INVALID_EMBEDDING_CONFIG' } } });
  expect(moved.body.error.message).toMatch(/give the API key again/);
  expect((await call(h.baseUrl, 'GET', '/v1/embedding-config', { user })).body).toMatchObject({
    config: { baseUrl: server.baseUrl, apiKey: 'sk-…abcd' },
  });

  expect((await call(h.baseUrl, 'DELETE', '/v1/embedding-config', { user })).body).toEqual({ deleted: true });
  expect((await call(h.baseUrl, 'GET', '/v1/embedding-config', { user })).body).toMatchObject({ config: null });
  expect((await call(h.baseUrl, 'POST', '/v1/embedding-config/test', { user })).status).toBe(404);

  const openApi = await call<{ paths: Record<string, Record<string, unknown>> }>(h.baseUrl, 'GET', '/openapi.json');
  expect(Object.keys(openApi.body.paths['/v1/embedding-config'] ?? {}).sort()).toEqual(['delete', 'get', 'put']);
});

it('a key sealed under another SLUICE_SECRET_KEY shows as undecryptable, fails the test, and can be replaced', async () => {
  const userId = `rotated-${randomUUID()}`;
  const otherSecret = randomBytes(32).toString('base64');
  const before = {
    ...deps(),
    config: {
      ...h.tw.config,
      stores: { ...h.tw.config.stores, embedder: { kind: 'user-config' as const, secretKey: otherSecret } },
    },
  };
  const args = {
    user: userId,
    baseUrl: server.baseUrl,
    model: 'fake-embed',
    dimension: String(DIMENSION),
    apiKeyEnv: 'K',
  };
  expect(await embeddingSet(before, args, capture({ K: API_KEY }))).toBe(0);

  const shown = capture();
  expect(await embeddingShow(deps(), { user: userId }, shown)).toBe(0);
  expect(shown.lines).toContain('  API key:   set, but SLUICE_SECRET_KEY cannot decrypt it');
  const failed = capture();
  expect(await embeddingTest(deps(), { user: userId }, failed)).toBe(1);
  expect(failed.lines[0]).toMatch(/^ERR the API key of embedding config \d+ cannot be decrypted/);

  expect(await embeddingSet(deps(), args, capture({ K: API_KEY }))).toBe(0);
  const ok = capture();
  expect(await embeddingTest(deps(), { user: userId }, ok)).toBe(0);
  expect(ok.lines[0]).toMatch(/^OK: /);
});
