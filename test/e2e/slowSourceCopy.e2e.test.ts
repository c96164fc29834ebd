import { randomUUID } from 'node:crypto';
import { createAdapters } from '../../composition/adapters';
import { ingestWorkflowId, type IngestInput } from '../../contracts/ingest';
import { findDocument } from '../../db/repositories/documents';
import { objectKeys } from '../../stores/objectKeys';
import type { ingestDocument } from '../../workflows/ingestDocument';
import { sectionedMarkdown } from '../../testkit/harness/ingestHelpers';
import { stallFirstRead, type StallingObjectStore } from '../../testkit/fakes/stallingObjectStore';
import { startTestWorker, type TestWorker } from '../../testkit/harness/testWorker';

// A run from a named source whose copy takes longer than a local activity's 30 s timeout (the
// first read of the source stalls mid-copy for 35 s), on the real dev server with the real
// activities. The copy must be let finish, no attempt may remove the source the document row
// names, and the document ends SUCCESS.

const STALL_MS = 35_000;
const scope = { userId: `slow-${randomUUID()}`, datasetId: 'slow' };
const sourceKey = `inbox/${scope.userId}/large.md`;
// Larger than the part that goes through before the stall: the copy is caught mid-way.
const content = sectionedMarkdown(400, 'slow');
let store: StallingObjectStore;
let tw: TestWorker;

beforeAll(async () => {
  tw = await startTestWorker({
    adapters: (config) => {
      const real = createAdapters(config);
      store = stallFirstRead(real.objects, sourceKey);
      return { ...real, objects: store.objects };
    },
  });
});
afterAll(() => tw.shutdown());

it('a source copy slower than a local activity timeout keeps its source and ends SUCCESS', async () => {
  expect(Buffer.byteLength(content)).toBeGreaterThan(32 * 1024);
  await tw.adapters.objects.putText(sourceKey, content);
  const documentId = randomUUID();
  tw.track(documentId);
  const input: IngestInput = { source: { objectKey: sourceKey }, fileName: 'large.md', ...scope };
  const handle = await tw.client.workflow.start<typeof ingestDocument>('ingestDocument', {
    workflowId: ingestWorkflowId(documentId),
    taskQueue: tw.config.temporal.taskQueue,
    args: [input],
  });
  await store.stalled;
  const released = new Promise<void>((resolve) =>
    setTimeout(() => {
      store.release();
      resolve();
    }, STALL_MS),
  );
  const result = await handle.result();
  await released;
  await store.drained;
  expect(result).toMatchObject({ documentId, status: 'SUCCESS', duplicate: false });

  // Every attempt has finished: the row's source is there, whole, and it is the only copy kept.
  const doc = await findDocument(tw.adapters.db, documentId);
  expect(await tw.adapters.objects.getText(doc!.source_object_key)).toBe(content);
  const keys: string[] = [];
  for await (const page of tw.adapters.objects.listOlderThan(
    `${objectKeys.documentPrefix(scope.userId, documentId)}sources/`,
    new Date(Date.now() + 60_000),
  ))
    keys.push(...page);
  expect(keys).toEqual([doc!.source_object_key]);
});
