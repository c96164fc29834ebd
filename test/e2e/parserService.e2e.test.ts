import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { ChildProcess } from 'node:child_process';
import { Readable } from 'node:stream';
import { connectClient, startIngestion } from '../../client/ingestClient';
import { ingestWorkflowId } from '../../contracts/ingest';
import { createAdapters, type Adapters } from '../../composition/adapters';
import { saveDatasetSettings } from '../../db/repositories/datasetSettings';
import { listActiveChunks } from '../../db/repositories/chunks';
import { findDocument } from '../../db/repositories/documents';
import { getPipeline } from '../../db/repositories/pipelines';
import { findRemoteParseTask } from '../../db/repositories/remoteParseTasks';
import { killHard, spawnWorker } from '../../testkit/harness/childWorker';
import { serviceMarkdown, startFakeParserService, type FakeParserService } from '../../testkit/fakes/fakeParserService';
import { eventually, waitTerminal } from '../../testkit/harness/ingestHelpers';
import { fixturePdf } from '../../testkit/fixtures/pdfFixture';
import { registerDocument } from '../../testkit/harness/registerDocument';
import { testConfig } from '../../testkit/harness/testConfig';
import { startTestWorker, type TestWorker } from '../../testkit/harness/testWorker';

// The external parsing service on the real dev server, S3 on SeaweedFS, and a real
// HTTP service under testkit/fakes that fetches the source from the presigned URL it is given.

const S3 = {
  SLUICE_OBJECT_STORE: 's3',
  S3_ENDPOINT: process.env.S3_ENDPOINT ?? 'http://127.0.0.1:8333',
  S3_BUCKET: process.env.S3_BUCKET ?? 'sluice',
  S3_ACCESS_KEY_ID: process.env.S3_ACCESS_KEY_ID ?? 'sluice',
  S3_SECRET_ACCESS_KEY: process.env.S3_SECRET_ACCESS_KEY ?? 'sluice-local-secret',
};
const TOKEN = 'parser-service-token-0123456789';

let service: FakeParserService;
let tw: TestWorker;
const pdf = fixturePdf([[{ text: 'A page the service reads, not the worker.' }]]);

function serviceEnv(overrides: Record<string, string> = {}): Record<string, string> {
  return {
    SLUICE_PARSER_SERVICE_URL: service.baseUrl,
    SLUICE_PARSER_SERVICE_TOKEN: TOKEN,
    SLUICE_PARSER_SERVICE_POLL: '200ms',
    SLUICE_PARSER_SERVICE_TIMEOUT: '8s',
    SLUICE_PARSER_SERVICE_OUTAGE: '20s',
    ...overrides,
  };
}

beforeAll(async () => {
  service = await startFakeParserService({ token: TOKEN });
});
afterAll(async () => {
  await service.close();
});

/** A PDF in a dataset whose PDFs go to the service; the row's type is what registration detects. */
async function ingestPdf(target: { adapters: Adapters }, client = tw.client, config = tw.config) {
  const scope = { userId: `user-${randomUUID()}`, datasetId: 'scans' };
  await saveDatasetSettings(target.adapters.db, scope, { parsing: { backends: { pdf: 'service' } } });
  const doc = await registerDocument(target.adapters, { ...scope, fileName: 'scan.pdf', body: Readable.from([pdf]) });
  await target.adapters.db.updateTable('documents').set({ file_type: 'pdf' }).where('id', '=', doc.id).execute();
  const started = await startIngestion(client, config, { documentId: doc.id, ...scope });
  return { documentId: doc.id, taskId: started.taskId, scope };
}

async function historyText(documentId: string): Promise<string> {
  return JSON.stringify(await tw.client.workflow.getHandle(ingestWorkflowId(documentId)).fetchHistory());
}

test('the local object store has no URL to give: the service backend is refused, classified', async () => {
  const local = await startTestWorker({ config: testConfig(serviceEnv()) });
  try {
    const before = service.creates.length;
    const { documentId, taskId } = await ingestPdf(local, local.client, local.config);
    local.track(documentId);
    const progress = await waitTerminal(local.client, documentId);
    expect(progress.failureCode).toBe('PARSE_ENGINE_FAILED');
    expect((await getPipeline(local.adapters.db, taskId)).failure_reason).toMatch(/local object store has none/);
    expect(service.creates.length).toBe(before);
  } finally {
    await local.shutdown();
  }
});

describe('on S3', () => {
  beforeAll(async () => {
    tw = await startTestWorker({ config: testConfig({ ...S3, ...serviceEnv() }) });
  });
  afterAll(async () => {
    await tw.shutdown();
  });

  test('success: the service reads the source by a presigned URL and its markdown is chunked', async () => {
    const image = Buffer.from('not really a png, but bytes');
    service.queueScripts({ kind: 'success', polls: 3, images: { 'figure-1.png': image } });
    const before = service.creates.length;
    const { documentId, taskId } = await ingestPdf(tw);
    tw.track(documentId);
    const progress = await waitTerminal(tw.client, documentId);
    expect(progress.status).toBe('SUCCESS');

    const creates = service.creates.slice(before);
    expect(creates).toHaveLength(1);
    const sourceUrl = String(creates[0]?.body.url);
    expect(sourceUrl).toMatch(/X-Amz-Signature=/);
    expect(creates[0]?.body.data_id).toBe(taskId);
    expect(creates[0]?.authorization).toBe(`Bearer ${TOKEN}`);
    // The fake's markdown names the digest of what it downloaded: the stored source, byte for byte.
    const chunks = await listActiveChunks(tw.adapters.db, { documentId, generation: 0 });
    const text = chunks.map((c) => c.text).join('\n');
    expect(text).toContain(`The source had ${pdf.length} bytes`);
    const remote = await findRemoteParseTask(tw.adapters.db, taskId);
    expect(remote?.remoteTaskId).toBe(service.tasks().find((t) => t.dataId === taskId)?.id);
    // The image came back and is kept beside the markdown.
    const keys: string[] = [];
    for await (const page of tw.adapters.objects.listOlderThan(`documents/`, new Date(Date.now() + 60_000)))
      keys.push(...page.filter((k) => k.includes(`${documentId}/markdown/${taskId}.images/`)));
    expect(keys).toHaveLength(1);
    expect(await historyText(documentId)).not.toContain(sourceUrl.split('?')[1]);
    // The image counts against the user's quota with the markdown.
    const doc = await findDocument(tw.adapters.db, documentId);
    expect(Number(doc?.produced_bytes)).toBe(Buffer.byteLength(serviceMarkdown(pdf)) + image.length);
  });

  test('an answer out of proportion to the source is FILE_TOO_LARGE, and none of its images is kept', async () => {
    // A source of a few KB may produce the 4 MiB floor: three 2 MiB images pass it.
    const big = Buffer.alloc(2 * 1024 * 1024, 7);
    service.queueScripts({ kind: 'success', images: { 'a.png': big, 'b.png': big, 'c.png': big } });
    const { documentId, taskId } = await ingestPdf(tw);
    tw.track(documentId);
    const progress = await waitTerminal(tw.client, documentId);
    expect(progress.failureCode).toBe('FILE_TOO_LARGE');
    expect((await getPipeline(tw.adapters.db, taskId)).failure_reason).toMatch(
      /may produce 4194304 bytes of markdown and images/,
    );
    const keys: string[] = [];
    for await (const page of tw.adapters.objects.listOlderThan(`documents/`, new Date(Date.now() + 60_000)))
      keys.push(...page.filter((k) => k.includes(`${documentId}/markdown/${taskId}`)));
    expect(keys.filter((k) => k.includes('.images/'))).toEqual([]);
  });

  test('the service failing its task is PARSE_ENGINE_FAILED, without retries, and names no URL', async () => {
    service.queueScripts({ kind: 'fail', message: 'layout model crashed on https://internal.example/secret?sig=1' });
    const before = service.creates.length;
    const { documentId, taskId } = await ingestPdf(tw);
    tw.track(documentId);
    const progress = await waitTerminal(tw.client, documentId);
    expect(progress.status).toBe('FAILED');
    expect(progress.failureCode).toBe('PARSE_ENGINE_FAILED');
    const pipeline = await getPipeline(tw.adapters.db, taskId);
    expect(pipeline.failure_reason).toMatch(
      /^PARSE_ENGINE_FAILED: the parsing service failed the task: layout model crashed/,
    );
    expect(pipeline.failure_reason).not.toMatch(/https?:|internal\.example|X-Amz/);
    expect(service.creates.length - before).toBe(1);
  });

  test('a hung task times out as PARSE_ENGINE_FAILED, having polled the one remote task it created', async () => {
    service.queueScripts({ kind: 'hang' });
    const before = service.creates.length;
    const { documentId, taskId } = await ingestPdf(tw);
    tw.track(documentId);
    const progress = await waitTerminal(tw.client, documentId);
    expect(progress.failureCode).toBe('PARSE_ENGINE_FAILED');
    expect((await getPipeline(tw.adapters.db, taskId)).failure_reason).toMatch(/did not finish within 8 s/);
    // Timed out attempts do not make new remote tasks: one create for the task.
    expect(service.creates.length - before).toBe(1);
    const polled = service.tasks().find((t) => t.dataId === taskId);
    expect(polled?.polls).toBeGreaterThan(3);
  });

  test('an outage during polling is ridden out: the same remote task finishes, nothing is created twice', async () => {
    service.queueScripts({ kind: 'held' });
    const before = service.creates.length;
    const { documentId, taskId } = await ingestPdf(tw);
    tw.track(documentId);
    await eventually(
      () => Promise.resolve(service.tasks().find((t) => t.dataId === taskId)?.polls ?? 0),
      (polls) => polls >= 2,
    );
    service.setOutage(true);
    await new Promise((resolve) => setTimeout(resolve, 2500));
    service.setOutage(false);
    const remote = service.tasks().find((t) => t.dataId === taskId);
    service.release(remote?.id ?? '');
    const progress = await waitTerminal(tw.client, documentId);
    expect(progress.status).toBe('SUCCESS');
    expect(service.creates.length - before).toBe(1);
  });
});

describe('a worker killed mid-poll', () => {
  let adaptersMade = false;
  const children: ChildProcess[] = [];
  let adapters: Adapters;
  afterAll(async () => {
    for (const child of children) await killHard(child);
    if (adaptersMade) await adapters.close();
  });

  test('the next worker polls the same remote task; no second task is created', async () => {
    const config = testConfig({ ...S3, ...serviceEnv({ SLUICE_PARSER_SERVICE_TIMEOUT: '5m' }) });
    adapters = createAdapters(config);
    adaptersMade = true;
    const client = await connectClient(config);
    const env = {
      ...S3,
      ...serviceEnv({ SLUICE_PARSER_SERVICE_TIMEOUT: '5m' }),
      SLUICE_OUTBOUND_ALLOW_HOSTS: '127.0.0.1',
    };
    try {
      service.queueScripts({ kind: 'held' });
      const before = service.creates.length;
      const first = spawnWorker(config, env);
      children.push(first);
      const { documentId, taskId } = await ingestPdf({ adapters }, client, config);
      const remote = await eventually(
        () => Promise.resolve(service.tasks().find((t) => t.dataId === taskId)),
        (task) => (task?.polls ?? 0) >= 3,
        120_000,
        100,
      );
      // The attempt's heartbeats carry the remote task: what a successor resumes from.
      await eventually(
        async () => {
          const described = await client.workflow.getHandle(ingestWorkflowId(documentId)).describe();
          return JSON.stringify(
            (described.raw.pendingActivities ?? []).map((a) =>
              (a.heartbeatDetails?.payloads ?? []).map((p) => Buffer.from(p.data ?? []).toString('utf8')),
            ),
          );
        },
        (details) => details.includes(String(remote?.id)),
        30_000,
        200,
      );
      await killHard(first);
      const pollsAtKill = service.polls.length;
      const second = spawnWorker(config, env);
      children.push(second);
      // The successor polls again (after the heartbeat timeout), the same task.
      await eventually(
        () => Promise.resolve(service.polls.length),
        (n) => n >= pollsAtKill + 2,
        120_000,
        100,
      );
      service.release(remote?.id ?? '');
      const progress = await waitTerminal(client, documentId, 120_000);
      expect(progress.status).toBe('SUCCESS');
      expect(service.creates.length - before).toBe(1);
      expect(new Set(service.polls.slice(pollsAtKill))).toEqual(new Set([remote?.id]));
      // The presigned URL reached neither worker's log.
      const query = String(service.creates[service.creates.length - 1]?.body.url).split('?')[1] ?? '';
      for (const file of fs.readdirSync(config.dataDir).filter((f) => f.startsWith('worker-')))
        expect(fs.readFileSync(path.join(config.dataDir, file), 'utf8')).not.toContain(query);
      await client.workflow
        .getHandle(ingestWorkflowId(documentId))
        .terminate('test done')
        .catch(() => undefined);
    } finally {
      await client.connection.close();
    }
  });
});
