import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import { ingestWorkflowId } from '../../contracts/ingest';
import { findDocument } from '../../db/repositories/documents';
import type { ingestDocument } from '../../workflows/ingestDocument';
import {
  call,
  fileForm,
  newUser,
  startApi,
  waitForDocument,
  type ApiHarness,
  type TestUser,
} from '../../testkit/harness/apiHarness';
import { progressQuery } from '../../contracts/ingestApi';
import { eventually } from '../../testkit/harness/ingestHelpers';

// The chunking plan over HTTP, on the real dev server, Postgres and a worker: an upload's own
// strategy wins over the dataset's; a `required` dataset's plan waits, is previewed, confirmed with
// a change and executed; a rebuild (one document, then the dataset) switches it again. The admin
// page offers the review of a waiting plan.

let h: ApiHarness;
beforeAll(async () => {
  h = await startApi();
});
afterAll(async () => {
  await h.close();
});

/** Six questions with answers: `qa` makes one parent each, `one` a single parent for all. */
const faq = (tag: string) =>
  Array.from(
    { length: 6 },
    (_, i) =>
      `## How do I configure the ${tag} option ${i}?\n\nSet the ${tag} option ${i} in the settings file; it takes effect at the next start.`,
  ).join('\n\n');

type ErrorBody = { error: { code: string; message: string } };
type PlanBody = {
  state: string;
  plan: { strategy: string; parameters: Record<string, number | null>; reason: string };
  recommended: { strategy: string };
  preview: { text: string; sectionPath: string[] }[];
  chunkCount: number;
  confirmedBy: string | null;
  source: string;
};
type DocWithPlan = {
  pipelineStatus: string;
  taskId: string;
  plan: { state: string; strategy: string; reason: string };
};

/** Parents of the chunk set search serves: the strategy's shape. */
async function servedParents(documentId: string): Promise<number> {
  const doc = await findDocument(h.tw.adapters.db, documentId);
  const rows = await h.tw.adapters.db
    .selectFrom('chunks')
    .select('chunk_id')
    .where('document_id', '=', documentId)
    .where('generation', '=', doc?.index_generation ?? -1)
    .where('kind', '=', 'parent')
    .execute();
  return rows.length;
}

async function upload(user: TestUser, dataset: string, name: string, text: string, query = '') {
  const r = await call<{ documentId: string } & ErrorBody>(
    h.baseUrl,
    'POST',
    `/v1/datasets/${dataset}/documents${query}`,
    { user, body: fileForm([{ name, content: text }]) },
  );
  return r;
}

const setSettings = (user: TestUser, dataset: string, chunking: Record<string, unknown>) =>
  call(h.baseUrl, 'PUT', `/v1/datasets/${dataset}/settings`, { user, body: { chunking } });

const planOf = (user: TestUser, id: string) =>
  call<PlanBody & ErrorBody>(h.baseUrl, 'GET', `/v1/documents/${id}/plan`, { user });

it("an upload's own strategy wins over the dataset's, and a choice outside the bounds is refused", async () => {
  const user = await newUser(h, 'override');
  expect((await setSettings(user, 'faq', { strategy: 'qa' })).status).toBe(200);

  const chosen = await upload(user, 'faq', 'chosen.md', faq('chosen'), '?strategy=one&childTokens=200');
  expect(chosen.status).toBe(202);
  const plain = await upload(user, 'faq', 'plain.md', faq('plain'));
  expect(plain.status).toBe(202);
  expect((await findDocument(h.tw.adapters.db, chosen.body.documentId))?.chunking_choice).toEqual({
    strategy: 'one',
    parameters: { childTokens: 200 },
  });

  expect((await waitForDocument(h, user, chosen.body.documentId)).pipelineStatus).toBe('SUCCESS');
  expect((await waitForDocument(h, user, plain.body.documentId)).pipelineStatus).toBe('SUCCESS');
  const chosenPlan = await planOf(user, chosen.body.documentId);
  expect(chosenPlan.body).toMatchObject({ state: 'EXECUTED', plan: { strategy: 'one' }, source: 'database' });
  expect(chosenPlan.body.plan.parameters.childTokens).toBe(200);
  expect(await servedParents(chosen.body.documentId)).toBe(1);
  expect((await planOf(user, plain.body.documentId)).body.plan.strategy).toBe('qa');
  expect(await servedParents(plain.body.documentId)).toBe(6);

  // Checked merged with the parameters the plan lays them over: `one`'s overlap of 60 for the
  // last; the dataset's `qa`, with no overlap, takes 50-token children.
  for (const query of ['?childTokens=4', '?childTokens=100&overlapTokens=80', '?strategy=one&childTokens=50']) {
    const refused = await upload(user, 'faq', 'bad.md', faq('bad'), query);
    expect(refused.status).toBe(400);
    expect(refused.body.error.code).toBe('PLAN_VALIDATION_FAILED');
  }
  expect((await upload(user, 'faq', 'bad.md', faq('bad'), '?strategy=sentences')).status).toBe(400);
  expect((await upload(user, 'faq', 'small.md', faq('small'), '?childTokens=50')).status).toBe(202);
});

it('a run started from a named source with a chunking choice chunks by it', async () => {
  const user = await newUser(h, 'source');
  expect((await setSettings(user, 'faq', { strategy: 'qa' })).status).toBe(200);
  const documentId = randomUUID();
  const objectKey = `inbox/${documentId}.md`;
  await h.tw.adapters.objects.putStream(objectKey, Readable.from([Buffer.from(faq('source'))]));
  const handle = await h.tw.client.workflow.start<typeof ingestDocument>('ingestDocument', {
    workflowId: ingestWorkflowId(documentId),
    taskQueue: h.tw.config.temporal.taskQueue,
    args: [
      {
        source: { objectKey },
        fileName: 'source.md',
        userId: user.userId,
        datasetId: 'faq',
        chunkingChoice: { strategy: 'one' },
      },
    ],
  });
  expect((await handle.result()).status).toBe('SUCCESS');
  expect((await planOf(user, documentId)).body.plan.strategy).toBe('one');
  expect(await servedParents(documentId)).toBe(1);
});

it("a choice the dataset's own sizes cannot take is refused: an upload at once, a source-started run as PLAN_VALIDATION_FAILED", async () => {
  const user = await newUser(h, 'sizes');
  const sized = { strategy: 'general', parameters: { childTokens: 100, overlapTokens: 10 } };
  expect((await setSettings(user, 'small', sized)).status).toBe(200);
  // 80 tokens of overlap fit the deployment's children, not the dataset's 100-token ones.
  const refused = await upload(user, 'small', 'over.md', faq('over'), '?overlapTokens=80');
  expect(refused.status).toBe(400);
  expect(refused.body.error).toMatchObject({
    code: 'PLAN_VALIDATION_FAILED',
    message: expect.stringMatching(/child 100/),
  });
  expect((await upload(user, 'small', 'fits.md', faq('fits'), '?overlapTokens=40')).status).toBe(202);

  for (const [name, chunkingChoice] of [
    ['dataset-sizes', { parameters: { overlapTokens: 80 } }],
    ['strategy-sizes', { strategy: 'one', parameters: { childTokens: 50 } }],
  ] as const) {
    const documentId = randomUUID();
    const objectKey = `inbox/${documentId}.md`;
    await h.tw.adapters.objects.putStream(objectKey, Readable.from([Buffer.from(faq(name))]));
    const handle = await h.tw.client.workflow.start<typeof ingestDocument>('ingestDocument', {
      workflowId: ingestWorkflowId(documentId),
      taskQueue: h.tw.config.temporal.taskQueue,
      args: [
        { source: { objectKey }, fileName: `${name}.md`, userId: user.userId, datasetId: 'small', chunkingChoice },
      ],
    });
    h.tw.track(documentId);
    // Failed before registration, waiting (as any failed run does) for a retry once the cause is fixed.
    const failed = await eventually(
      () => handle.query(progressQuery),
      (p) => p.waitingForRetry,
    );
    expect(failed).toMatchObject({ status: 'FAILED', failureCode: 'PLAN_VALIDATION_FAILED' });
    expect(await findDocument(h.tw.adapters.db, documentId)).toBeUndefined();
  }
});

it('waits for confirmation, previews, is confirmed with a change, executes it, and is rebuilt under another plan', async () => {
  const [user, other] = [await newUser(h, 'reviewer'), await newUser(h, 'other')];
  expect((await setSettings(user, 'review', { review: 'required' })).status).toBe(200);
  const { documentId } = (await upload(user, 'review', 'faq.md', faq('review'))).body;

  const waiting = await eventually(
    () => call<DocWithPlan>(h.baseUrl, 'GET', `/v1/documents/${documentId}`, { user }),
    (r) => r.body.plan?.state === 'WAIT_CONFIRM',
    60_000,
    200,
  );
  expect(waiting.body.plan.strategy).toBe('qa');
  expect(waiting.body.plan.reason).not.toBe('');
  const status = await eventually(
    async () =>
      (await h.tw.client.workflow.getHandle(ingestWorkflowId(documentId)).describe()).typedSearchAttributes
        .getAll()
        .find((p) => p.key.name === 'PipelineStatus')?.value,
    (value) => value === 'AWAITING_CONFIRMATION',
    30_000,
    200,
  );
  expect(status).toBe('AWAITING_CONFIRMATION');

  const preview = await planOf(user, documentId);
  expect(preview.status).toBe(200);
  expect(preview.body).toMatchObject({ state: 'WAIT_CONFIRM', source: 'workflow', recommended: { strategy: 'qa' } });
  expect(preview.body.preview.length).toBeGreaterThan(0);
  expect(preview.body.preview[0]?.text).toContain('review option 0');

  // Another user's document is a missing one, for reading and for confirming.
  const missing = await call<ErrorBody>(h.baseUrl, 'GET', `/v1/documents/${randomUUID()}/plan`, { user });
  for (const r of [
    await planOf(other, documentId),
    await call<ErrorBody>(h.baseUrl, 'POST', `/v1/documents/${documentId}/plan/confirm`, { user: other, body: {} }),
  ]) {
    expect(r.status).toBe(404);
    expect(r.body).toEqual({ error: { ...missing.body.error, requestId: expect.any(String) } });
  }
  // Invalid choices are refused before the update and leave the plan waiting.
  const confirm = (body: unknown) =>
    call<{ plan: { strategy: string } } & ErrorBody>(h.baseUrl, 'POST', `/v1/documents/${documentId}/plan/confirm`, {
      user,
      body,
    });
  for (const body of [{ parameters: { childTokens: 4 } }, { parameters: { childTokens: 40, overlapTokens: 30 } }]) {
    const refused = await confirm(body);
    expect(refused.status).toBe(400);
    expect(refused.body.error.code).toBe('PLAN_VALIDATION_FAILED');
  }
  expect((await confirm({ strategy: 'sentences' })).body.error.code).toBe('VALIDATION_FAILED');
  // An open run cannot be rebuilt.
  const early = await call<ErrorBody>(h.baseUrl, 'POST', `/v1/documents/${documentId}/rebuild`, {
    user,
    body: { strategy: 'one' },
  });
  expect(early.status).toBe(409);
  expect(early.body.error.code).toBe('RETRY_VALIDATION_FAILED');

  // The admin page offers the review of this waiting plan.
  const session = await call(h.baseUrl, 'POST', '/admin/session', { body: { apiKey: user.apiKey } });
  const cookie = (session.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
  const page = await call<string>(h.baseUrl, 'GET', '/admin?dataset=review', { headers: { cookie } });
  expect(page.body).toMatch(
    new RegExp(`data-document-id="${documentId}"[^]*?AWAITING CONFIRMATION[^]*?data-plan-review`),
  );
  expect(page.body).toContain('id="plan-dialog"');
  expect((await call<string>(h.baseUrl, 'GET', '/admin/planReview.js')).body).toContain('/plan/confirm');

  const confirmed = await confirm({ strategy: 'one' });
  expect(confirmed.status).toBe(200);
  expect(confirmed.body.plan.strategy).toBe('one');
  expect((await confirm({})).status).toBe(409);
  const done = await waitForDocument(h, user, documentId);
  expect(done.pipelineStatus).toBe('SUCCESS');
  expect(await servedParents(documentId)).toBe(1);
  const executed = await planOf(user, documentId);
  expect(executed.body).toMatchObject({
    state: 'EXECUTED',
    source: 'database',
    plan: { strategy: 'one' },
    confirmedBy: user.userId,
  });

  // The rebuild switches the served chunk set to its plan.
  const rebuilt = await call<{ taskId: string }>(h.baseUrl, 'POST', `/v1/documents/${documentId}/rebuild`, {
    user,
    body: { strategy: 'qa', childTokens: 200 },
  });
  expect(rebuilt.status).toBe(202);
  expect((await waitForDocument(h, user, documentId, rebuilt.body.taskId)).pipelineStatus).toBe('SUCCESS');
  expect(await servedParents(documentId)).toBe(6);
  const after = await call<DocWithPlan>(h.baseUrl, 'GET', `/v1/documents/${documentId}`, { user });
  expect(after.body.plan).toMatchObject({ state: 'EXECUTED', strategy: 'qa' });
});

it('the rebuild routes: refusals, tenancy, and a whole dataset rebuilt under a new plan', async () => {
  const [user, other] = [await newUser(h, 'rebuilder'), await newUser(h, 'stranger')];
  const { documentId } = (await upload(user, 'decks', 'faq.md', faq('decks'))).body;
  expect((await waitForDocument(h, user, documentId)).pipelineStatus).toBe('SUCCESS');
  expect(await servedParents(documentId)).toBe(6);

  const post = (who: TestUser, url: string, body: unknown) =>
    call<ErrorBody & Record<string, unknown>>(h.baseUrl, 'POST', url, { user: who, body });
  const missing = await post(user, `/v1/documents/${randomUUID()}/rebuild`, {});
  const stranger = await post(other, `/v1/documents/${documentId}/rebuild`, { strategy: 'one' });
  expect([missing.status, stranger.status]).toEqual([404, 404]);
  expect(stranger.body.error.code).toBe(missing.body.error.code);
  for (const url of [`/v1/documents/${documentId}/rebuild`, '/v1/datasets/decks/rebuild']) {
    const bad = await post(user, url, { strategy: 'qa', childTokens: 100, overlapTokens: 80 });
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe('INVALID_CHUNKING_PLAN');
  }
  // Another user's dataset of the same name holds nothing of this user's.
  const strangers = await post(other, '/v1/datasets/decks/rebuild', { strategy: 'one' });
  expect(strangers.status).toBe(202);
  await h.tw.client.workflow.getHandle(String(strangers.body.workflowId)).result();
  expect(await servedParents(documentId)).toBe(6);

  const started = await post(user, '/v1/datasets/decks/rebuild', { strategy: 'one' });
  expect(started.status).toBe(202);
  expect(started.body).toMatchObject({ alreadyRunning: false, maxOpen: h.tw.config.rebuildMaxOpen });
  await h.tw.client.workflow.getHandle(String(started.body.workflowId)).result();
  await eventually(
    () => servedParents(documentId),
    (n) => n === 1,
    60_000,
    200,
  );
  expect((await planOf(user, documentId)).body.plan.strategy).toBe('one');
});
