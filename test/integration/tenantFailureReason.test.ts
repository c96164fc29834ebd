import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type net from 'node:net';
import { MockActivityEnvironment } from '@temporalio/testing';
import { DefaultLogger, type LogEntry } from '@temporalio/worker';
import type { ActivityDeps } from '../../activities/deps';
import { createRecordTaskFailureActivity } from '../../activities/stages/recordTaskFailure';
import { createVectorizingActivity } from '../../activities/stages/vectorizing';
import { loadDocumentView } from '../../api/documentViews';
import { createDb } from '../../db/connection';
import { replaceChunks } from '../../db/repositories/chunks';
import { insertDocument } from '../../db/repositories/documents';
import { insertTaskWithPipeline } from '../../db/repositories/newTask';
import { singleEmbedderResolver } from '../../embedders/embedderResolver';
import { createOpenAiEmbedder } from '../../embedders/openAiEmbedder';
import { createPostgresVectorStore } from '../../stores/postgresVectorStore';
import { classifyFailure } from '../../workflows/classifyFailure';
import { testConfig, TEST_DATABASE_URL } from '../../testkit/harness/testConfig';

// A provider that fails with a body quoting a credential-bearing URL, an internal host and a
// token: the tenant-facing failure_reason gets the code and a safe message; the worker log gets
// the details, with the credentials blanked.

const SECRETS = ['hunter2', 'sk-live-9f8e7d6c5b4a3f2e1d0c'];
const INTERNAL = ['vault.internal.corp', '10.20.30.40'];
const PROVIDER_BODY = JSON.stringify({
  error: {
    message: `upstream http://admin:${SECRETS[0]}@${INTERNAL[0]}:8200/v1 (${INTERNAL[1]}:8200) rejected token ${SECRETS[1]}`,
  },
});

const db = createDb(TEST_DATABASE_URL, 2);
let provider: http.Server;
let baseUrl: string;

beforeAll(async () => {
  provider = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => res.writeHead(500, { 'content-type': 'application/json' }).end(PROVIDER_BODY));
  });
  await new Promise<void>((resolve) => provider.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(provider.address() as net.AddressInfo).port}/v1`;
});
afterAll(async () => {
  await new Promise((resolve) => provider.close(resolve));
  await db.destroy();
});

async function seedTaskAtVectorizing() {
  const input = { documentId: randomUUID(), userId: `u-${randomUUID()}`, datasetId: 'reasons', taskId: randomUUID() };
  await insertDocument(db, {
    id: input.documentId,
    user_id: input.userId,
    dataset_id: input.datasetId,
    file_name: 'a.md',
    size_bytes: 1,
    content_sha256: randomUUID(),
    source_object_key: `sources/${input.documentId}`,
  });
  await replaceChunks(db, { ...input, generation: 0 }, [
    {
      chunkId: `${input.documentId}:0`,
      chunkIndex: 0,
      kind: 'child',
      parentId: null,
      childRange: null,
      sectionPath: [],
      text: 'hello',
      charCount: 5,
      tokenCount: 1,
    },
  ]);
  await insertTaskWithPipeline(db, {
    taskId: input.taskId,
    documentId: input.documentId,
    ownerRunChain: randomUUID(),
    inherited: { CLEANING: 1, CHUNKING: 1 },
  });
  return input;
}

it('records a provider 500 as the code and a safe message, with the details only in the worker log', async () => {
  const input = await seedTaskAtVectorizing();
  const embedder = createOpenAiEmbedder({
    baseUrl,
    apiKey: 'sk-tenant-key-000',
    model: 'm',
    dimension: 4,
    maxRetries: 0,
    outbound: { allowPrivate: true },
  });
  const deps = {
    db,
    vectors: createPostgresVectorStore(db),
    embedders: singleEmbedderResolver(embedder),
    languageEmbedders: null,
    settings: { embedBatchSize: 8 },
  } as unknown as ActivityDeps;
  const logged: LogEntry[] = [];
  const env = new MockActivityEnvironment({}, { logger: new DefaultLogger('WARN', (entry) => logged.push(entry)) });

  const failure: unknown = await env.run(createVectorizingActivity(deps), input).then(
    () => null,
    (error: unknown) => error,
  );
  // What the workflow does with the activity's final failure.
  const classified = classifyFailure(failure, 'VECTORIZING');
  expect(classified.code).toBe('VECTORIZING_FAILED');
  await new MockActivityEnvironment().run(createRecordTaskFailureActivity(deps), {
    taskId: input.taskId,
    stage: 'VECTORIZING' as const,
    ...classified,
  });

  const { failure_reason: reason } = await db
    .selectFrom('pipelines')
    .select('failure_reason')
    .where('task_id', '=', input.taskId)
    .executeTakeFirstOrThrow();
  expect(reason).toMatch(/^VECTORIZING_FAILED: .*HTTP 500/);
  const view = await loadDocumentView(db, testConfig(), input.userId, input.documentId);
  expect(view?.failure).toEqual({ stage: 'VECTORIZING', code: 'VECTORIZING_FAILED', reason });
  for (const leak of [...SECRETS, ...INTERNAL, 'upstream', '127.0.0.1']) {
    expect(reason).not.toContain(leak);
    expect(JSON.stringify(failure)).not.toContain(leak);
  }

  const log = JSON.stringify(logged.map((e) => [e.message, e.meta]));
  expect(log).toContain(INTERNAL[0]);
  expect(log).toContain('VECTORIZING_FAILED');
  expect(log).not.toContain(SECRETS[0]);
});
