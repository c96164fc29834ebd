import { randomBytes, randomUUID } from 'node:crypto';
import os from 'node:os';
import { Readable } from 'node:stream';
import type { ChildProcess } from 'node:child_process';
import type { Client } from '@temporalio/client';
import { saveEmbeddingSettings } from '../../client/embeddingConfigs';
import { deleteDocument } from '../../client/documentAdmin';
import { connectClient, startIngestion } from '../../client/ingestClient';
import { reembedDataset } from '../../client/reembed';
import { registerDocument } from '../../testkit/harness/registerDocument';
import { ingestWorkflowId } from '../../contracts/ingest';
import { embeddingTaskQueue } from '../../contracts/taskQueues';
import { countChunks } from '../../db/repositories/chunks';
import { getPipeline } from '../../db/repositories/pipelines';
import { hybridSearch } from '../../search/hybridSearch';
import { objectKeys } from '../../stores/objectKeys';
import { createAdapters, type Adapters } from '../../composition/adapters';
import { killHard, spawnWorker } from '../../testkit/harness/childWorker';
import {
  fakeVector,
  startFakeEmbeddingServer,
  type FakeEmbeddingServer,
} from '../../testkit/fakes/fakeEmbeddingServer';
import { eventually, waitForTask, waitTerminal } from '../../testkit/harness/ingestHelpers';
import { docxFixture } from '../../testkit/fixtures/officeFixtures';
import { fixturePdf } from '../../testkit/fixtures/pdfFixture';
import { startTcpProxy, type TcpProxy } from '../../testkit/harness/tcpProxy';
import { testConfig } from '../../testkit/harness/testConfig';

// The production profile on every real server at once: SeaweedFS (S3), OpenSearch (through a TCP
// proxy the test can cut), Qdrant when QDRANT_URL is set or else Postgres with pgvector (the
// production profile's vector store on a managed Postgres: docs/operations.md), Postgres,
// an OpenAI-compatible embedding endpoint (a real HTTP server) set as the deployment default, and two
// worker processes: one polling the ingest queue, one the embedding queue. The user then switches to
// a second endpoint's model of another dimension, so one vector store holds two models' vectors.

const QDRANT_URL = process.env.QDRANT_URL;
const VECTOR_STORE = QDRANT_URL ? 'qdrant' : 'postgres';
const VECTOR_STORE_NAME = QDRANT_URL
  ? `Qdrant at ${QDRANT_URL}`
  : 'Postgres with pgvector (QDRANT_URL is not set, so Qdrant was NOT exercised)';
const OPENSEARCH = new URL(process.env.OPENSEARCH_URL ?? 'http://127.0.0.1:9200');
const API_KEY = 'sk-prod-e2e-0123456789abcdef';
const DIMENSION = 8;
const DIMENSION_B = 12;
const MODEL_A = { model: 'fake-embed-a', dimension: DIMENSION };
const MODEL_B = { model: 'fake-embed-b', dimension: DIMENSION_B };
const SECRET_KEY = randomBytes(32).toString('base64');
const scope = { userId: `user-${randomUUID()}`, datasetId: 'production' };

/** Shared by both workers and this test's own adapters (which talk to OpenSearch directly). */
function productionEnv(openSearchUrl: string, embeddingUrl: string, suffix: string): Record<string, string> {
  return {
    SLUICE_PROFILE: 'production',
    SLUICE_VECTOR_STORE: VECTOR_STORE,
    ...(QDRANT_URL ? { QDRANT_URL, QDRANT_COLLECTION: `sluice_prod_e2e_${suffix}` } : {}),
    S3_ENDPOINT: process.env.S3_ENDPOINT ?? 'http://127.0.0.1:8333',
    S3_BUCKET: process.env.S3_BUCKET ?? 'sluice',
    S3_ACCESS_KEY_ID: process.env.S3_ACCESS_KEY_ID ?? 'sluice',
    S3_SECRET_ACCESS_KEY: process.env.S3_SECRET_ACCESS_KEY ?? 'sluice-local-secret',
    OPENSEARCH_URL: openSearchUrl,
    OPENSEARCH_INDEX: `sluice-prod-e2e-${suffix}`,
    SLUICE_EMBEDDER: 'user-config',
    SLUICE_SECRET_KEY: SECRET_KEY,
    SLUICE_DEFAULT_EMBEDDING_BASE_URL: embeddingUrl,
    SLUICE_DEFAULT_EMBEDDING_MODEL: 'fake-embed-a',
    SLUICE_DEFAULT_EMBEDDING_DIMENSION: String(DIMENSION),
    SLUICE_DEFAULT_EMBEDDING_API_KEY: API_KEY,
    // The fake provider listens on loopback: allow-listed by name, as an in-cluster provider would be.
    SLUICE_OUTBOUND_ALLOW_HOSTS: '127.0.0.1',
    // Every stage as a real activity, so the outage is seen as KEYWORD_INDEXING attempts.
    SLUICE_LOCAL_STAGE_MAX_SOURCE_BYTES: '0',
    SLUICE_LOCAL_STAGE_MAX_CHUNKS: '0',
  };
}
let server: FakeEmbeddingServer;
let serverB: FakeEmbeddingServer;
let proxy: TcpProxy;
let env: Record<string, string>;
let config: ReturnType<typeof testConfig>;
let adapters: Adapters;
let client: Client;
const workers: ChildProcess[] = [];
const started: string[] = [];

beforeAll(async () => {
  console.info(
    `production e2e: vector store = ${VECTOR_STORE_NAME}; S3 ${process.env.S3_ENDPOINT ?? 'http://127.0.0.1:8333'}; OpenSearch ${OPENSEARCH.origin} via a TCP proxy`,
  );
  server = await startFakeEmbeddingServer({ apiKey: API_KEY, dimension: DIMENSION });
  serverB = await startFakeEmbeddingServer({ apiKey: API_KEY, dimension: DIMENSION_B });
  proxy = await startTcpProxy({ host: OPENSEARCH.hostname, port: Number(OPENSEARCH.port || 9200) });
  const suffix = randomUUID().slice(0, 8);
  env = productionEnv(OPENSEARCH.origin, server.baseUrl, suffix);
  config = testConfig(env);
  adapters = createAdapters(config);
  await adapters.ensureReady();
  client = await connectClient(config);
  const workerEnv = { ...env, OPENSEARCH_URL: proxy.url, SLUICE_TASK_QUEUE: config.temporal.taskQueue };
  workers.push(spawnWorker(config, { ...workerEnv, SLUICE_WORKER_QUEUES: 'ingest' }));
  workers.push(spawnWorker(config, { ...workerEnv, SLUICE_WORKER_QUEUES: 'embedding' }));
}, 120_000);

afterAll(async () => {
  for (const id of started)
    await client?.workflow
      .getHandle(ingestWorkflowId(id))
      .terminate('test done')
      .catch(() => undefined);
  for (const child of workers) await killHard(child);
  await client?.connection.close();
  await adapters?.close();
  await proxy?.close();
  await server?.close();
  await serverB?.close();
});

async function ingest(content: Buffer | string, fileName: string): Promise<{ documentId: string; taskId: string }> {
  const doc = await registerDocument(adapters, { ...scope, fileName, body: Readable.from([Buffer.from(content)]) });
  started.push(doc.id);
  const run = await startIngestion(client, config, { documentId: doc.id, ...scope });
  return { documentId: doc.id, taskId: run.taskId };
}

/** Identities (`<pid>@<host>`) of the workers polling a task queue for activities (type 2). */
async function activityPollers(taskQueue: string): Promise<string[]> {
  const described = await client.workflowService.describeTaskQueue({
    namespace: config.temporal.namespace,
    taskQueue: { name: taskQueue },
    taskQueueType: 2,
  });
  return (described.pollers ?? []).map((p) => p.identity ?? '').sort();
}

const inputsSince = (from: number, on = server) => on.requests.slice(from).reduce((n, r) => n + r.inputs.length, 0);

const FILES: [string, Buffer | string][] = [
  [
    'guide.md',
    '# Guide\n\n## Setup\n\nThe amber heron nests by the sluice gate.\n\n## Use\n\nThe heron feeds at dusk.\n',
  ],
  [
    'page.html',
    '<html><body><h1>Page</h1><p>The cobalt lantern hangs in the north tower.</p><p>It is lit at night.</p></body></html>',
  ],
  [
    'report.pdf',
    fixturePdf([[{ text: 'Quarterly report', size: 18 }, { text: 'The crimson turbine spins faster in winter.' }]]),
  ],
  ['memo.docx', docxFixture([{ heading: 1, text: 'Memo' }, { text: 'The jade abacus counts the harvest.' }])],
  ['table.csv', 'city,river\nLyon,Rhone\nCairo,Nile\nManaus,Amazon\n'],
];

describe(`production profile on real servers, vector store: ${VECTOR_STORE}`, () => {
  it('two workers poll one task queue each', async () => {
    const host = os.hostname();
    const [ingestWorker, embeddingWorker] = workers;
    await eventually(
      () =>
        Promise.all([
          activityPollers(config.temporal.taskQueue),
          activityPollers(embeddingTaskQueue(config.temporal.taskQueue)),
        ]),
      ([main, embedding]) => main.length > 0 && embedding.length > 0,
      90_000,
      500,
    );
    expect(await activityPollers(config.temporal.taskQueue)).toEqual([`${ingestWorker?.pid}@${host}`]);
    expect(await activityPollers(embeddingTaskQueue(config.temporal.taskQueue))).toEqual([
      `${embeddingWorker?.pid}@${host}`,
    ]);
  }, 120_000);

  const docs = new Map<string, string>();

  it('ingests md, html, pdf, docx and csv into every store', async () => {
    for (const [name, content] of FILES) docs.set(name, (await ingest(content, name)).documentId);
    for (const [name, documentId] of docs) {
      expect([name, (await waitTerminal(client, documentId)).status]).toEqual([name, 'SUCCESS']);
      const counts = await countChunks(adapters.db, documentId);
      expect(counts.active).toBeGreaterThan(0);
      expect(counts).toMatchObject({ dense: counts.active, sparse: counts.active, keyword: counts.active });
      expect(await adapters.vectors.countForDocument(documentId)).toEqual({
        dense: counts.active,
        sparse: counts.active,
      });
      expect(await adapters.keywords.countForDocument(documentId)).toBe(counts.active);
    }
    expect(
      server.requests.every((r) => r.body.model === 'fake-embed-a' && r.authorization === `Bearer ${API_KEY}`),
    ).toBe(true);
    const hits = await hybridSearch(adapters, scope, 'crimson turbine winter', 3);
    expect(hits[0]?.documentId).toBe(docs.get('report.pdf'));
  }, 240_000);

  it('OpenSearch down during KEYWORD_INDEXING: the stage retries and ends SUCCESS with 0 re-embeddings', async () => {
    await proxy.cut();
    const before = server.requests.length;
    const { documentId, taskId } = await ingest(
      '# Outage\n\n## One\n\nThe violet kestrel waits out the storm.\n\n## Two\n\nIt flies at noon.\n',
      'outage.md',
    );
    docs.set('outage.md', documentId);
    // The keyword stage has failed at least once against the cut proxy.
    await eventually(
      () => client.workflow.getHandle(ingestWorkflowId(documentId)).describe(),
      (d) =>
        (d.raw.pendingActivities ?? []).some(
          (a) => a.activityType?.name === 'keywordIndexing' && (a.attempt ?? 0) >= 2,
        ),
      120_000,
      250,
    );
    expect((await getPipeline(adapters.db, taskId)).keyword_indexing_status).toBe('PROCESSING');
    const embeddedDuringOutage = inputsSince(before);
    await proxy.restore();

    expect((await waitForTask(client, documentId, taskId)).status).toBe('SUCCESS');
    const counts = await countChunks(adapters.db, documentId);
    expect(counts).toMatchObject({ dense: counts.active, keyword: counts.active });
    // Every chunk was embedded exactly once: VECTORIZING ran before the outage and was not redone.
    expect(embeddedDuringOutage).toBe(counts.active);
    expect(inputsSince(before)).toBe(counts.active);
    expect(await adapters.keywords.countForDocument(documentId)).toBe(counts.active);
  }, 240_000);

  it('delete leaves nothing in the vector store, OpenSearch, S3 or Postgres', async () => {
    const documentId = docs.get('memo.docx') as string;
    expect(await deleteDocument({ client, config }, { documentId, ...scope })).toMatchObject({
      documentId,
      existed: true,
    });
    const rows = async (
      table:
        | 'documents'
        | 'parse_tasks'
        | 'pipelines'
        | 'chunks'
        | 'notifications'
        | 'keyword_entries'
        | 'dense_vectors'
        | 'sparse_vectors',
    ) => {
      const column = table === 'documents' ? 'id' : 'document_id';
      return (
        await adapters.db
          .selectFrom(table)
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where(column, '=', documentId)
          .executeTakeFirstOrThrow()
      ).n;
    };
    const tables = [
      'documents',
      'parse_tasks',
      'pipelines',
      'chunks',
      'notifications',
      'keyword_entries',
      'dense_vectors',
      'sparse_vectors',
    ] as const;
    const left: Record<string, unknown> = {};
    for (const table of tables) left[table] = Number(await rows(table));
    left.vectorStore = await adapters.vectors.countForDocument(documentId);
    left.openSearch = await adapters.keywords.countForDocument(documentId);
    // deletePrefix answers how many objects it found: 0 means S3 held nothing under the prefix.
    left.s3Objects = await adapters.objects.deletePrefix(objectKeys.documentPrefix(scope.userId, documentId));
    expect(left).toEqual({
      ...Object.fromEntries(tables.map((t) => [t, 0])),
      vectorStore: { dense: 0, sparse: 0 },
      openSearch: 0,
      s3Objects: 0,
    });
    expect(await hybridSearch(adapters, scope, 'jade abacus harvest', 5)).not.toContainEqual(
      expect.objectContaining({ documentId }),
    );
    docs.delete('memo.docx');
  }, 120_000);

  it('a model change to another dimension re-embeds every document, and dense search never mixes models', async () => {
    const probe = fakeVector('cobalt lantern', DIMENSION);
    const probeB = fakeVector('cobalt lantern', DIMENSION_B);
    expect((await adapters.vectors.searchDense(scope, MODEL_A, probe, 100)).length).toBeGreaterThan(0);

    await saveEmbeddingSettings(
      { db: adapters.db, config },
      { userId: scope.userId },
      { baseUrl: serverB.baseUrl, model: MODEL_B.model, dimension: DIMENSION_B, apiKey: API_KEY },
    );
    // Before re-embedding, the new model finds nothing: no model-a vector answers a model-b query.
    expect(await adapters.vectors.searchDense(scope, MODEL_B, probeB, 100)).toEqual([]);

    const before = serverB.requests.length;
    const report = await reembedDataset({ client, db: adapters.db, config, embedders: adapters.embedders }, scope);
    expect(report).toMatchObject({ model: MODEL_B.model, dimension: DIMENSION_B, skipped: [] });
    expect(report.started.map((s) => s.documentId).sort()).toEqual([...docs.values()].sort());
    let chunks = 0;
    for (const s of report.started) {
      expect((await waitForTask(client, s.documentId, s.taskId)).status).toBe('SUCCESS');
      chunks += (await countChunks(adapters.db, s.documentId)).active;
    }
    expect(serverB.requests.slice(before).every((r) => r.body.model === MODEL_B.model)).toBe(true);
    expect(inputsSince(before, serverB)).toBe(chunks);

    // Every document moved: no model-a vector is left, and every chunk has exactly one dense vector.
    expect(await adapters.vectors.searchDense(scope, MODEL_A, probe, 100)).toEqual([]);
    expect(await adapters.vectors.searchDense(scope, MODEL_B, probeB, 100)).toHaveLength(chunks);
    for (const s of report.started) {
      expect((await adapters.vectors.countForDocument(s.documentId)).dense).toBe(
        (await countChunks(adapters.db, s.documentId)).active,
      );
    }
    const hits = await hybridSearch(adapters, scope, 'cobalt lantern north tower', 3);
    expect(hits[0]?.documentId).toBe(docs.get('page.html'));
  }, 300_000);
});
