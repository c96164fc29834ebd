import { randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createLocalObjectStore } from '../../stores/localObjectStore';
import { createS3ObjectStore, type S3ObjectStoreOptions } from '../../stores/s3ObjectStore';
import { describeObjectStoreContract } from '../support/objectStoreContract';

// The object-store contract against every adapter: the local directory, and S3 against the
// SeaweedFS server that `bash scripts/stack.sh start` runs (defaults match `stack.sh env`).

const localRoot = path.join(os.tmpdir(), `sluice-objects-${randomUUID()}`);
afterAll(() => fs.rm(localRoot, { recursive: true, force: true }));

describeObjectStoreContract('local directory', async () => createLocalObjectStore(localRoot));

describe('local object store', () => {
  it('refuses keys that could escape its root', async () => {
    const objects = createLocalObjectStore(localRoot);
    await expect(objects.putText('../escape', 'x')).rejects.toThrow(/invalid object key/);
    await expect(objects.getText('documents/../../escape')).rejects.toThrow(/invalid object key/);
    // `.` segments name the same file as the key without them: refused too, so no key has two spellings.
    await objects.putText('documents/x/kept', 'x');
    await expect(objects.getText('./documents/x/kept')).rejects.toThrow(/invalid object key/);
    await expect(objects.getText('inbox/./../documents/x/kept')).rejects.toThrow(/invalid object key/);
  });
});

const s3Options: S3ObjectStoreOptions = {
  endpoint: process.env.S3_ENDPOINT ?? 'http://127.0.0.1:8333',
  region: process.env.S3_REGION ?? 'us-east-1',
  bucket: process.env.S3_BUCKET ?? 'sluice',
  accessKeyId: process.env.S3_ACCESS_KEY_ID ?? 'sluice',
  secretAccessKey: process.env.S3_SECRET_ACCESS_KEY ?? 'sluice-local-secret',
};
// One prefix per run: the bucket is shared with the dev app and with other test runs.
const runPrefix = `test-runs/${randomUUID()}`;
const unprefixed = createS3ObjectStore(s3Options);
afterAll(async () => {
  await unprefixed.deletePrefix(`${runPrefix}/`);
});

describeObjectStoreContract('S3 (SeaweedFS)', async () => {
  const store = createS3ObjectStore({ ...s3Options, prefix: runPrefix });
  await store.ensureBucket();
  return store;
});

describe('S3 object store', () => {
  it('creates the bucket idempotently', async () => {
    await unprefixed.ensureBucket();
    await unprefixed.ensureBucket();
  });

  it('stores keys under its prefix, so the prefix isolates one deployment from another', async () => {
    const prefixed = createS3ObjectStore({ ...s3Options, prefix: `${runPrefix}/isolated/` });
    const key = `documents/u/${randomUUID()}/source`;
    await prefixed.putText(key, 'inside');
    expect(await unprefixed.getText(`${runPrefix}/isolated/${key}`)).toBe('inside');
    expect(await unprefixed.exists(key)).toBe(false);
  });

  it('is refused by the server when its requests are signed with the wrong secret', async () => {
    const forged = createS3ObjectStore({ ...s3Options, secretAccessKey: 'not-the-secret', prefix: runPrefix });
    await expect(forged.putText('forged', 'x')).rejects.toMatchObject({ $metadata: { httpStatusCode: 403 } });
    expect(await unprefixed.exists(`${runPrefix}/forged`)).toBe(false);
  });
});
