import { randomBytes, randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import { MockActivityEnvironment } from '@temporalio/testing';
import { createSweepOrphanedObjectsActivity } from '../../activities/maintenance/sweepOrphanedObjects';
import { createDb } from '../../db/connection';
import { objectKeys } from '../../stores/objectKeys';
import type { ObjectStore } from '../../stores/ports';
import { createS3ObjectStore } from '../../stores/s3ObjectStore';
import { partialDeps } from '../../testkit/harness/stageHarness';
import { TEST_DATABASE_URL } from '../../testkit/harness/testConfig';

// The orphan sweep against SeaweedFS S3, in a bucket sluice shares with other writers: a
// service uploading the file it will name as a run's source (inbox/…) is not sluice's to abort;
// an abandoned upload of sluice's own (documents/…) is.

const db = createDb(TEST_DATABASE_URL, 2);
const runPrefix = `test-runs/${randomUUID()}`;
const s3 = {
  endpoint: process.env.S3_ENDPOINT ?? 'http://127.0.0.1:8333',
  region: process.env.S3_REGION ?? 'us-east-1',
  bucket: process.env.S3_BUCKET ?? 'sluice',
  accessKeyId: process.env.S3_ACCESS_KEY_ID ?? 'sluice',
  secretAccessKey: process.env.S3_SECRET_ACCESS_KEY ?? 'sluice-local-secret',
};
const objects = createS3ObjectStore({ ...s3, prefix: runPrefix });
afterAll(async () => {
  await createS3ObjectStore(s3).deletePrefix(`${runPrefix}/`);
  await db.destroy();
});

/** A multipart upload past its first 8 MiB part, held open until finish(). */
function heldUpload(store: ObjectStore, key: string) {
  let finish = () => {};
  const finished = new Promise<void>((resolve) => {
    finish = resolve;
  });
  async function* body() {
    for (let i = 0; i < 9; i++) yield randomBytes(1024 * 1024);
    await finished;
  }
  const done = store.putStream(key, Readable.from(body()));
  done.catch(() => undefined);
  return { done, finish };
}

async function listedPartial(key: string): Promise<void> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    for await (const page of objects.listPartialWrites(
      key.slice(0, key.lastIndexOf('/') + 1),
      new Date(Date.now() + 60_000),
    ))
      if (page.some((w) => w.key === key)) return;
    if (Date.now() > deadline) throw new Error(`${key} never showed as a partial write`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

it("aborts its own abandoned uploads and leaves another writer's upload in progress alone", async () => {
  await objects.ensureBucket();
  const ownKey = objectKeys.source(`sweep-${randomUUID()}`, randomUUID());
  const theirKey = `inbox/${randomUUID()}/large.pdf`;
  const own = heldUpload(objects, ownKey);
  const theirs = heldUpload(objects, theirKey);
  const sweep = createSweepOrphanedObjectsActivity(partialDeps({ db, objects }));
  let result;
  try {
    await listedPartial(ownKey);
    await listedPartial(theirKey);
    // A grace in the future's favour: every upload started so far counts as abandoned.
    result = await new MockActivityEnvironment().run(sweep, { graceMs: -60_000 });
  } finally {
    own.finish();
    theirs.finish();
  }
  expect(result).toEqual({ orphanedDocuments: 0, partialWritesAborted: 1 });
  await expect(own.done).rejects.toThrow();
  await expect(theirs.done).resolves.toEqual({ sizeBytes: 9 * 1024 * 1024 });
  expect(await objects.exists(theirKey)).toBe(true);
  expect(await objects.exists(ownKey)).toBe(false);
});
