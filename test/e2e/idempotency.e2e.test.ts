import { randomUUID } from 'node:crypto';
import { startIngestion } from '../../client/ingestClient';
import { ingestWorkflowId, type IngestResult, type StageInput } from '../../contracts/ingest';
import { getPipeline } from '../../db/repositories/pipelines';
import type { ingestDocument } from '../../workflows/ingestDocument';
import { historyBytes, ingestBuffer, waitTerminal } from '../../testkit/harness/ingestHelpers';
import { testConfig } from '../../testkit/harness/testConfig';
import { startTestWorker, type TestWorker } from '../../testkit/harness/testWorker';

const scope = { userId: `user-${randomUUID()}`, datasetId: 'idempotency' };
const cleaningCalls = new Map<string, number>();
let tw: TestWorker;

beforeAll(async () => {
  tw = await startTestWorker({
    // Every stage as a normal activity, for both documents: their histories then differ only by
    // what each stage reports, which is where a payload or a per-chunk event would show. (Where a
    // stage runs depends on the document's size; a small one's local stages make a shorter history.)
    config: testConfig({ SLUICE_LOCAL_STAGE_MAX_SOURCE_BYTES: '0', SLUICE_LOCAL_STAGE_MAX_CHUNKS: '0' }),
    wrapActivities: (real) => ({
      cleaning: async (input: StageInput) => {
        cleaningCalls.set(input.documentId, (cleaningCalls.get(input.documentId) ?? 0) + 1);
        return real.cleaning(input);
      },
    }),
  });
});
afterAll(() => tw.shutdown());

it('processes a task id once: a second start of the same task is answered from its state', async () => {
  const taskId = randomUUID();
  const { documentId } = await ingestBuffer(tw, '# Once\n\nProcessed exactly one time.\n', 'once.md', scope, {
    taskId,
  });
  // A concurrent start while the run is open joins that run instead of starting another.
  const concurrent = await startIngestion(tw.client, tw.config, { documentId, ...scope, taskId });
  expect(concurrent.alreadyRunning).toBe(true);
  const handle = tw.client.workflow.getHandle<typeof ingestDocument>(ingestWorkflowId(documentId));
  const first: IngestResult = await handle.result();
  expect(first).toMatchObject({ status: 'SUCCESS', duplicate: false });
  const before = await getPipeline(tw.adapters.db, taskId);

  // The run has closed; the same task id again starts a new run, which must not redo the work.
  const again = await startIngestion(tw.client, tw.config, { documentId, ...scope, taskId });
  expect(again.alreadyRunning).toBe(false);
  const second = await again.handle.result();
  expect(second).toMatchObject({ status: 'SUCCESS', duplicate: true, taskId });

  expect(cleaningCalls.get(documentId)).toBe(1);
  const after = await getPipeline(tw.adapters.db, taskId);
  expect(after.cleaning_started_at).toEqual(before.cleaning_started_at);
  expect(after.finished_at).toEqual(before.finished_at);
  const tasks = await tw.adapters.db
    .selectFrom('parse_tasks')
    .select('task_id')
    .where('document_id', '=', documentId)
    .execute();
  expect(tasks).toHaveLength(1);
  const notifications = await tw.adapters.db
    .selectFrom('notifications')
    .select('id')
    .where('document_id', '=', documentId)
    .execute();
  expect(notifications).toHaveLength(1);
});

it('keeps workflow history flat: a 5 MB document costs within 20 % of a 1 KB one (claim check)', async () => {
  const small = '# Small\n\n' + 'A short note about durable ingestion. '.repeat(25);
  const paragraph = (i: number) =>
    `## Section ${i}\n\n${`Paragraph ${i} talks about retries, checkpoints and vectors in some depth. `.repeat(12)}\n\n`;
  let large = '# Large\n\n';
  for (let i = 0; large.length < 5 * 1024 * 1024; i++) large += paragraph(i);
  expect(Buffer.byteLength(small)).toBeLessThan(1200);

  const a = await ingestBuffer(tw, small, 'small.md', scope);
  const b = await ingestBuffer(tw, large, 'large.md', scope);
  expect((await waitTerminal(tw.client, a.documentId)).status).toBe('SUCCESS');
  const bigProgress = await waitTerminal(tw.client, b.documentId, 600_000);
  expect(bigProgress.status).toBe('SUCCESS');
  expect(bigProgress.chunkCount).toBeGreaterThan(1000);

  const smallBytes = await historyBytes(tw.client, a.documentId);
  const largeBytes = await historyBytes(tw.client, b.documentId);
  console.log(
    `history bytes: ${Buffer.byteLength(small)} B document → ${smallBytes}; ${Buffer.byteLength(large)} B document (${bigProgress.chunkCount} chunks) → ${largeBytes}`,
  );
  expect(largeBytes / smallBytes).toBeLessThanOrEqual(1.2);
  expect(largeBytes / smallBytes).toBeGreaterThanOrEqual(1 / 1.2);
}, 600_000);

it("refuses a run that names another user's task id: that task, its notification and its retry stay its owner's", async () => {
  const victimScope = { userId: `user-${randomUUID()}`, datasetId: 'idempotency' };
  const victim = await ingestBuffer(tw, '# Victim\n\nOwned by someone else.\n', 'victim.md', victimScope);
  expect((await waitTerminal(tw.client, victim.documentId)).status).toBe('SUCCESS');
  const before = await getPipeline(tw.adapters.db, victim.taskId);

  const attacker = await ingestBuffer(tw, '# Attacker\n\nNames a task that is not its own.\n', 'a.md', scope, {
    taskId: victim.taskId,
  });
  const handle = tw.client.workflow.getHandle<typeof ingestDocument>(ingestWorkflowId(attacker.documentId));
  expect(await handle.result()).toMatchObject({ status: 'FAILED', failureCode: 'ID_MISMATCH', duplicate: false });

  // The victim's task is as it was, and no notification was written for either document by the refused run.
  expect(await getPipeline(tw.adapters.db, victim.taskId)).toEqual(before);
  const rows = await tw.adapters.db
    .selectFrom('notifications')
    .select(['document_id', 'task_id'])
    .where('task_id', '=', victim.taskId)
    .execute();
  expect(rows).toEqual([{ document_id: victim.documentId, task_id: victim.taskId }]);
  const attackerRows = await tw.adapters.db
    .selectFrom('parse_tasks')
    .select('task_id')
    .where('document_id', '=', attacker.documentId)
    .execute();
  expect(attackerRows).toEqual([]);
});
