import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { MockActivityEnvironment } from '@temporalio/testing';
import { createChunkingActivity } from '../../activities/stages/chunking';
import { createConfirmChunkingPlanActivity, createPlanChunkingActivity } from '../../activities/stages/chunkingPlan';
import type { PlannedChunking } from '../../contracts/chunkingPlan';
import { createCpuPool } from '../../cpuPool/pool';
import { createDb } from '../../db/connection';
import { findChunkingPlan } from '../../db/repositories/chunkingPlans';
import { listActiveChunks } from '../../db/repositories/chunks';
import { saveDatasetSettings } from '../../db/repositories/datasetSettings';
import { insertDocument } from '../../db/repositories/documents';
import { insertTaskWithPipeline } from '../../db/repositories/newTask';
import { DEFAULT_PARSE_LIMITS } from '../../parsers/parseLimits';
import { createLocalObjectStore } from '../../stores/localObjectStore';
import { objectKeys } from '../../stores/objectKeys';
import { partialDeps } from '../../testkit/harness/stageHarness';
import { TEST_DATABASE_URL } from '../../testkit/harness/testConfig';

// The plan step's activities on the real Postgres, object store and CPU pool: propose (qa for an
// FAQ) and store WAIT_CONFIRM, answer a retried attempt from the row, confirm with a change, then
// CHUNKING cuts by the confirmed plan and marks it EXECUTED.

const db = createDb(TEST_DATABASE_URL, 4);
const root = path.join(os.tmpdir(), `sluice-plan-${randomUUID()}`);
const objects = createLocalObjectStore(root);
const cpu = createCpuPool({ threads: 1, limits: DEFAULT_PARSE_LIMITS });
afterAll(async () => {
  await cpu.close();
  await db.destroy();
  fs.rmSync(root, { recursive: true, force: true });
});

const deps = partialDeps({
  db,
  objects,
  cpu,
  // Nothing was embedded yet: no vectors to remove.
  vectors: { deleteChunks: () => Promise.resolve() } as never,
  settings: { chunking: { maxTokens: 400, overlapTokens: 60, maxChunks: 10_000 } } as never,
});

const FAQ = Array.from(
  { length: 6 },
  (_, i) =>
    `## How do I configure option ${i}?\n\nSet option ${i} in the settings file; it takes effect at the next start.`,
).join('\n\n');

it('proposes qa for an FAQ, waits, is confirmed as one, and CHUNKING executes the confirmed plan', async () => {
  const doc = { documentId: randomUUID(), userId: `user-${randomUUID()}`, datasetId: 'faq' };
  await insertDocument(db, {
    id: doc.documentId,
    user_id: doc.userId,
    dataset_id: doc.datasetId,
    file_name: 'faq.md',
    file_type: 'md',
    size_bytes: FAQ.length,
    content_sha256: randomUUID(),
    source_object_key: objectKeys.source(doc.userId, doc.documentId),
  });
  const taskId = randomUUID();
  const markdownKey = objectKeys.markdown(doc.userId, doc.documentId, taskId);
  await objects.putText(markdownKey, `# FAQ\n\n${FAQ}`);
  await insertTaskWithPipeline(db, {
    taskId,
    documentId: doc.documentId,
    ownerRunChain: randomUUID(),
    markdownObjectKey: markdownKey,
  });
  await saveDatasetSettings(db, doc, { chunking: { strategy: 'auto', review: 'required', autoConfirmAfter: '2d' } });
  const input = { ...doc, taskId };

  const planned: PlannedChunking = await new MockActivityEnvironment().run(createPlanChunkingActivity(deps), input);
  expect(planned).toMatchObject({ state: 'WAIT_CONFIRM', review: 'required', autoConfirmAfter: '2d' });
  expect(planned.plan.strategy).toBe('qa');
  expect(planned.plan.reason).toBe('FAQ-shaped: 6 questions among 7 headings');
  expect(planned.preview[0]!.text).toContain('How do I configure option 0?');
  expect(planned.chunkCount).toBeGreaterThan(0);
  // A retried attempt answers from the row: the same plan, not a second proposal.
  expect(await new MockActivityEnvironment().run(createPlanChunkingActivity(deps), input)).toEqual(planned);

  const one = { ...planned.plan, strategy: 'one' as const, reason: 'reviewer chose one' };
  await new MockActivityEnvironment().run(createConfirmChunkingPlanActivity(deps), {
    taskId,
    plan: one,
    confirmedBy: 'alice',
  });
  expect(await findChunkingPlan(db, taskId)).toMatchObject({ state: 'CONFIRMED', plan: one, confirmedBy: 'alice' });

  await new MockActivityEnvironment().run(createChunkingActivity(deps), input);
  const chunks = await listActiveChunks(db, { documentId: doc.documentId, generation: 0 });
  expect(chunks.length).toBeGreaterThan(0);
  // `one`: a single parent, where qa would have made one per question.
  expect((await findChunkingPlan(db, taskId))?.state).toBe('EXECUTED');
  const rows = await db.selectFrom('chunks').select(['kind']).where('document_id', '=', doc.documentId).execute();
  expect(rows.filter((r) => r.kind === 'parent')).toHaveLength(1);
});
