import { enrichmentSettingsSchema } from '../../contracts/datasetSettings';
import fs from 'node:fs/promises';
import path from 'node:path';
import { randomBytes, randomUUID } from 'node:crypto';
import { saveModelSettings } from '../../client/modelConfigs';
import { saveDatasetSettings } from '../../db/repositories/datasetSettings';
import { startFakeChatServer } from '../../testkit/fakes/fakeChatServer';
import { retryDocument } from '../../client/documentAdmin';
import { rebuildDocument, startDatasetRebuild } from '../../client/rebuild';
import { ingestWorkflowId, type IngestInput } from '../../contracts/ingest';
import { migrateToLatest } from '../../db/migrate';
import type { ingestDocument } from '../../workflows/ingestDocument';
import { injectStageFaults } from '../../testkit/harness/faultInjection';
import { ingestBuffer, sectionedMarkdown, waitForTask, waitTerminal } from '../../testkit/harness/ingestHelpers';
import { installQuietRuntime } from '../../testkit/harness/quietRuntime';
import { testConfig } from '../../testkit/harness/testConfig';
import type { TestWorker } from '../../testkit/harness/testWorker';
import { createAdapters } from '../../composition/adapters';
import { createSluiceWorker } from '../../worker/createWorker';
import { HISTORIES_DIR, historyToJson } from './histories';

/**
 * `npm run replay:record`: runs the current workflow on the dev server with the real activities
 * and saves the histories test/replay/replay.test.ts replays. Re-record after a change that is
 * meant to alter the workflow's commands (and that no running workflow can meet mid-run).
 * Needs the stack and TEST_DATABASE_URL pointing at a database this script may migrate.
 * Names given as arguments (`tsx test/replay/record.ts chunk-enrichment`) record only those.
 */
const only = process.argv.slice(2);
const wanted = (name: string) => only.length === 0 || only.includes(name);
const scope = { userId: 'replay-user', datasetId: 'replay' };

async function save(tw: TestWorker, name: string, documentId: string, runId?: string): Promise<void> {
  await saveWorkflow(tw, name, ingestWorkflowId(documentId), runId);
}

async function saveWorkflow(tw: TestWorker, name: string, workflowId: string, runId?: string): Promise<void> {
  const history = await tw.client.workflow.getHandle(workflowId, runId).fetchHistory();
  await fs.writeFile(path.join(HISTORIES_DIR, `${name}.json`), historyToJson(history));
  console.log(`saved ${name} (${history.events?.length ?? 0} events)`);
}

async function main(): Promise<void> {
  const failOnce = new Map<string, 'KEYWORD_INDEXING'>();
  installQuietRuntime();
  // A secret key, so the chat model's API key of the enrichment run can be sealed.
  const config = testConfig({ SLUICE_SECRET_KEY: randomBytes(32).toString('base64') });
  const adapters = createAdapters(config);
  await migrateToLatest(adapters.db);
  await adapters.ensureReady();
  // The workflow code as it is now (workflowsPath), not the test runs' cached bundle.
  const running = await createSluiceWorker(config, adapters, {
    wrapActivities: injectStageFaults(failOnce, new Map()),
  });
  const done = running.worker.run();
  const tw: TestWorker = {
    config,
    adapters,
    client: running.client,
    worker: running.worker,
    track: () => undefined,
    shutdown: async () => undefined,
  };
  try {
    await fs.mkdir(HISTORIES_DIR, { recursive: true });

    if (wanted('small-success')) await recordSmall(tw);
    if (wanted('failed-then-retried')) await recordRetried(tw, failOnce);
    if (wanted('source-registered')) await recordSourceStarted(tw);
    if (wanted('chunk-enrichment')) await recordChunkEnrichment(tw);
    if (wanted('markdown-enrichment')) await recordMarkdownEnrichment(tw);
    if (wanted('rebuild-success') || wanted('dataset-rebuild')) await recordRebuilds(tw);
  } finally {
    running.worker.shutdown();
    await done;
    await running.close();
    await adapters.close();
  }
}

async function recordSmall(tw: TestWorker): Promise<void> {
  // A small document: the local stages and the one VECTORIZING activity.
  {
    const small = await ingestBuffer(tw, sectionedMarkdown(3, 'small'), 'small.md', scope);
    await waitTerminal(tw.client, small.documentId);
    await save(tw, 'small-success', small.documentId);
  }
}

async function recordRetried(tw: TestWorker, failOnce: Map<string, 'KEYWORD_INDEXING'>): Promise<void> {
  {
    // A failed run waiting for retry, taken over by a retry: the failed run continues as new.
    const failing = await ingestBuffer(tw, sectionedMarkdown(4, 'retried'), 'retried.md', scope, {
      beforeStart: (id) => failOnce.set(id, 'KEYWORD_INDEXING'),
    });
    await waitTerminal(tw.client, failing.documentId);
    const firstRun = (await tw.client.workflow.getHandle(ingestWorkflowId(failing.documentId)).describe()).runId;
    const retry = await retryDocument({ client: tw.client, db: tw.adapters.db, config: tw.config }, failing.documentId);
    await waitForTask(tw.client, failing.documentId, retry.taskId);
    await save(tw, 'failed-then-retried', failing.documentId, firstRun);
    await save(tw, 'retry-success', failing.documentId);
  }
}

async function recordSourceStarted(tw: TestWorker): Promise<void> {
  {
    // A run started from a named source, as another SDK starts it: no document id or task id. Its
    // source is copied by the registerSource activity.
    const documentId = randomUUID();
    const objectKey = `inbox/replay-${documentId}.md`;
    await tw.adapters.objects.putText(objectKey, sectionedMarkdown(2, 'source'));
    const input: IngestInput = { source: { objectKey }, fileName: 'source.md', ...scope };
    const handle = await tw.client.workflow.start<typeof ingestDocument>('ingestDocument', {
      workflowId: ingestWorkflowId(documentId),
      taskQueue: tw.config.temporal.taskQueue,
      args: [input],
    });
    await handle.result();
    await save(tw, 'source-registered', documentId);
  }
}

/** A run of a dataset with `options` on, whose user's CHAT model is the test chat server. */
async function recordWithChatModel(
  tw: TestWorker,
  name: string,
  options: Partial<Record<'chunkKeywords' | 'tableRepair', boolean>>,
  document: { text: string; fileName: string },
): Promise<void> {
  const chat = await startFakeChatServer();
  try {
    const dataset = { ...scope, datasetId: `replay-${name}` };
    await saveDatasetSettings(tw.adapters.db, dataset, {
      enrichment: enrichmentSettingsSchema.parse(options),
    });
    await saveModelSettings({ db: tw.adapters.db, config: tw.config }, dataset.userId, 'chat', {
      baseUrl: chat.baseUrl,
      model: 'replay-chat',
      apiKey: null,
    });
    const doc = await ingestBuffer(tw, document.text, document.fileName, dataset);
    await waitTerminal(tw.client, doc.documentId);
    await save(tw, name, doc.documentId);
  } finally {
    await chat.close();
  }
}

/** Chunk keywords from a chat model: enrichChunks on the enrichment queue. */
const recordChunkEnrichment = (tw: TestWorker) =>
  recordWithChatModel(
    tw,
    'chunk-enrichment',
    { chunkKeywords: true },
    {
      text: sectionedMarkdown(3, 'enriched'),
      fileName: 'enriched.md',
    },
  );

/**
 * Table repair by a chat model: CLEANING's parse as a local
 * activity, then enrichMarkdown on the enrichment queue.
 */
const recordMarkdownEnrichment = (tw: TestWorker) =>
  recordWithChatModel(
    tw,
    'markdown-enrichment',
    { tableRepair: true },
    {
      text: '# Parts\n\nThe list.\n\n| part | count |\n| --- | --- |\n| washer |\n| gasket | 3 | spare |\n',
      fileName: 'repaired.md',
    },
  );

/**
 * A rebuild under another plan: CLEANING inherited, the other stages on a
 * new chunk set, then the old set retired. And a dataset rebuild starting one such run.
 */
async function recordRebuilds(tw: TestWorker): Promise<void> {
  const plan = {
    strategy: 'general' as const,
    parameters: { childTokens: 120, overlapTokens: 20, parentTokens: null },
    reason: 'replay',
  };
  const deps = { client: tw.client, db: tw.adapters.db, config: tw.config };
  const small = await ingestBuffer(tw, sectionedMarkdown(3, 'rebuilt'), 'rebuilt.md', scope);
  await waitTerminal(tw.client, small.documentId);
  const rebuilt = await rebuildDocument(deps, scope, small.documentId, plan);
  await waitForTask(tw.client, small.documentId, rebuilt.taskId);
  await tw.client.workflow.getHandle(ingestWorkflowId(small.documentId)).result();
  if (wanted('rebuild-success')) await save(tw, 'rebuild-success', small.documentId);
  const datasetScope = { userId: scope.userId, datasetId: `replay-rebuild-${randomUUID()}` };
  await ingestBuffer(tw, sectionedMarkdown(2, 'dataset'), 'dataset.md', datasetScope).then((d) =>
    waitTerminal(tw.client, d.documentId),
  );
  const datasetRun = await startDatasetRebuild(deps, datasetScope, plan);
  await datasetRun.result();
  if (wanted('dataset-rebuild')) await saveWorkflow(tw, 'dataset-rebuild', datasetRun.workflowId);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
