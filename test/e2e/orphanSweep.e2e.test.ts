import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import type { SweepOrphansResult } from '../../activities/maintenance/sweepOrphanedObjects';
import { registerDocument } from '../../testkit/harness/registerDocument';
import { objectKeys } from '../../stores/objectKeys';
import type { ObjectStore } from '../../stores/ports';
import { startTestWorker, type TestWorker } from '../../testkit/harness/testWorker';

// The orphan sweep workflow (worker/sweepSchedule.ts runs it on a schedule) on the real dev
// server, against the worker's own object directory and the test database.
let tw: TestWorker;
const scope = { userId: `sweep-${randomUUID()}`, datasetId: 'sweep' };

beforeAll(async () => {
  tw = await startTestWorker();
});
afterAll(() => tw.shutdown());

async function runSweep(graceMs: number): Promise<SweepOrphansResult> {
  return tw.client.workflow.execute('sweepOrphanedObjects', {
    workflowId: `sweep-orphans-${randomUUID()}`,
    taskQueue: tw.config.temporal.taskQueue,
    args: [{ graceMs }],
  });
}

/** A write that sent its first bytes and then stalled, as an upload whose process died would. */
async function stalledWrite(objects: ObjectStore, key: string) {
  let finish = () => {};
  const finished = new Promise<void>((resolve) => {
    finish = resolve;
  });
  async function* body() {
    yield Buffer.from('# stalled\n\nthe first bytes of an upload\n');
    await finished;
  }
  const done = objects.putStream(key, Readable.from(body()));
  done.catch(() => undefined);
  for (let tries = 0; ; tries++) {
    let listed = false;
    for await (const page of objects.listPartialWrites(
      key.slice(0, key.lastIndexOf('/') + 1),
      new Date(Date.now() + 60_000),
    ))
      listed ||= page.some((w) => w.key === key);
    if (listed) break;
    if (tries > 200) throw new Error('the stalled write never showed as partial');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return { done, finish };
}

it('removes objects without a document row and abandoned partial writes once past the grace period, and nothing else', async () => {
  const { objects } = tw.adapters;
  // An upload that died between its object and its row.
  const orphanKey = objectKeys.source(scope.userId, randomUUID());
  await objects.putText(orphanKey, '# orphan\n');
  const orphanMarkdown = orphanKey.replace(/source$/, 'markdown/t.md');
  await objects.putText(orphanMarkdown, '# orphan\n');
  // A document with its row (no ingestion started, so nothing else writes meanwhile).
  const kept = await registerDocument(tw.adapters, {
    ...scope,
    fileName: 'kept.md',
    body: Readable.from([Buffer.from('# kept\n')]),
  });
  // Not a document's object: outside what the sweep looks at.
  const elsewhere = `elsewhere/${randomUUID()}`;
  await objects.putText(elsewhere, 'not a document');
  const stalledKey = objectKeys.source(scope.userId, randomUUID());
  const stalled = await stalledWrite(objects, stalledKey);
  // Another writer's upload in progress in the same store: not sluice's to abort.
  const theirsKey = `elsewhere/${randomUUID()}/upload.bin`;
  const theirs = await stalledWrite(objects, theirsKey);

  try {
    // Everything is younger than an hour: the sweep touches nothing.
    expect(await runSweep(3_600_000)).toEqual({ orphanedDocuments: 0, partialWritesAborted: 0 });
    expect(await objects.exists(orphanKey)).toBe(true);

    expect(await runSweep(0)).toEqual({ orphanedDocuments: 1, partialWritesAborted: 1 });
  } finally {
    stalled.finish();
    theirs.finish();
  }
  await expect(theirs.done).resolves.toEqual({ sizeBytes: expect.any(Number) as number });
  expect(await objects.exists(theirsKey)).toBe(true);
  expect(await objects.exists(orphanKey)).toBe(false);
  expect(await objects.exists(orphanMarkdown)).toBe(false);
  expect(await objects.exists(kept.source_object_key)).toBe(true);
  expect(await objects.exists(elsewhere)).toBe(true);
  // The stalled write can no longer complete into an object.
  await expect(stalled.done).rejects.toThrow();
  expect(await objects.exists(stalledKey)).toBe(false);
  // A second sweep finds nothing left.
  expect(await runSweep(0)).toEqual({ orphanedDocuments: 0, partialWritesAborted: 0 });
});
