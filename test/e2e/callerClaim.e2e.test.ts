import { randomBytes, randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import { WorkflowFailedError } from '@temporalio/client';
import { type ApplicationFailure } from '@temporalio/common';
import { deleteDocument } from '../../client/documentAdmin';
import { startIngestion } from '../../client/ingestClient';
import { ingestWorkflowId, INGEST_WORKFLOW_TYPE, type IngestInput } from '../../contracts/ingest';
import { deleteWorkflowId, DELETE_WORKFLOW_TYPE } from '../../contracts/deletion';
import { signCallerClaim } from '../../crypto/callerClaim';
import { findDocument } from '../../db/repositories/documents';
import type { ingestDocument } from '../../workflows/ingestDocument';
import type { deleteDocument as deleteDocumentWorkflow } from '../../workflows/deleteDocument';
import { registerDocument } from '../../testkit/harness/registerDocument';
import { testConfig } from '../../testkit/harness/testConfig';
import { startTestWorker, type TestWorker } from '../../testkit/harness/testWorker';

// A deployment that does not trust every service with namespace access with every tenant
// (SLUICE_REQUIRE_CALLER_CLAIM=on): work for a user starts only under that user's claim, which the
// API and the CLI sign with SLUICE_SECRET_KEY. Real worker, real activities, real dev server.

const key = randomBytes(32).toString('base64');
const scope = { userId: `user-${randomUUID()}`, datasetId: 'claims' };
let tw: TestWorker;

beforeAll(async () => {
  tw = await startTestWorker({ config: testConfig({ SLUICE_REQUIRE_CALLER_CLAIM: 'on', SLUICE_SECRET_KEY: key }) });
});
afterAll(() => tw.shutdown());

async function registered(name: string): Promise<string> {
  const doc = await registerDocument(tw.adapters, {
    ...scope,
    fileName: name,
    body: Readable.from([Buffer.from(`# ${name}\n\nA note that only its owner may have processed.\n`)]),
  });
  tw.track(doc.id);
  return doc.id;
}

/** A run started as any Temporal client can start one, with the claim it chooses. */
async function startRaw(documentId: string, claim: string | undefined) {
  const input: IngestInput = { documentId, ...scope, taskId: randomUUID(), ...(claim ? { callerClaim: claim } : {}) };
  const handle = await tw.client.workflow.start<typeof ingestDocument>(INGEST_WORKFLOW_TYPE, {
    workflowId: ingestWorkflowId(documentId),
    taskQueue: tw.config.temporal.taskQueue,
    args: [input],
  });
  return handle.result();
}

it("runs what sluice's own client starts: it signs the user's claim", async () => {
  const documentId = await registered('signed.md');
  const started = await startIngestion(tw.client, tw.config, { documentId, ...scope });
  expect(await started.handle.result()).toMatchObject({ status: 'SUCCESS' });
});

it.each([
  ['no claim', () => undefined],
  ['a claim under another key', () => signCallerClaim(scope.userId, randomBytes(32).toString('base64'))],
  ["another user's claim", () => signCallerClaim('someone-else', key)],
])('refuses a run with %s, changing nothing and telling no one', async (_, claim) => {
  const documentId = await registered('unsigned.md');
  const result = await startRaw(documentId, claim());
  expect(result).toMatchObject({ status: 'FAILED', failureCode: 'CALLER_CLAIM_INVALID' });
  const tasks = await tw.adapters.db
    .selectFrom('parse_tasks')
    .select('task_id')
    .where('document_id', '=', documentId)
    .execute();
  expect(tasks).toHaveLength(0);
  const notes = await tw.adapters.db
    .selectFrom('notifications')
    .select('id')
    .where('document_id', '=', documentId)
    .execute();
  expect(notes).toHaveLength(0);
});

it('refuses a deletion without the claim, and deletes with it', async () => {
  const documentId = await registered('kept.md');
  const raw = tw.client.workflow.start<typeof deleteDocumentWorkflow>(DELETE_WORKFLOW_TYPE, {
    workflowId: deleteWorkflowId(documentId),
    taskQueue: tw.config.temporal.taskQueue,
    args: [{ documentId, ...scope }],
  });
  const failure = await (await raw).result().catch((error: unknown) => error);
  expect(failure).toBeInstanceOf(WorkflowFailedError);
  expect(((failure as WorkflowFailedError).cause as ApplicationFailure).type).toBe('CALLER_CLAIM_INVALID');
  expect((await findDocument(tw.adapters.db, documentId))?.lifecycle).toBe('ACTIVE');
  const deleted = await deleteDocument({ client: tw.client, config: tw.config }, { documentId, ...scope });
  expect(deleted).toMatchObject({ documentId, existed: true });
  expect(await findDocument(tw.adapters.db, documentId)).toBeFalsy();
});
