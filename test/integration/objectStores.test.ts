import { randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createLocalObjectStore } from '../../stores/localObjectStore';
import { createS3ObjectStore, type S3ObjectStoreOptions } from '../../stores/s3ObjectStore';
import { describeObjectStoreContract } from '../../testkit/harness/objectStoreContract';

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

describe('S3 object store without static keys: the AWS SDK default credential chain', () => {
  // The chain reads the process environment and the shared files when a client first signs; each
  // case sets exactly the step it tests and restores the environment afterwards.
  const chainEnv = [
    'AWS_ACCESS_KEY_ID',
    'AWS_SECRET_ACCESS_KEY',
    'AWS_SESSION_TOKEN',
    'AWS_PROFILE',
    'AWS_SHARED_CREDENTIALS_FILE',
    'AWS_CONFIG_FILE',
  ];
  let saved: Record<string, string | undefined>;
  beforeEach(() => {
    saved = Object.fromEntries(chainEnv.map((name) => [name, process.env[name]]));
    for (const name of chainEnv) delete process.env[name];
  });
  afterEach(() => {
    for (const name of chainEnv) {
      if (saved[name] === undefined) delete process.env[name];
      else process.env[name] = saved[name];
    }
  });
  const { accessKeyId, secretAccessKey, ...keyless } = s3Options;
  const chainStore = () => createS3ObjectStore({ ...keyless, prefix: `${runPrefix}/chain` });

  it('signs with AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY from the environment', async () => {
    process.env.AWS_ACCESS_KEY_ID = accessKeyId;
    process.env.AWS_SECRET_ACCESS_KEY = secretAccessKey;
    const store = chainStore();
    await store.putText('from-env', 'signed by the chain');
    expect(await store.getText('from-env')).toBe('signed by the chain');
  });

  it('is refused when the environment holds the wrong secret: the chain, not a fallback, signed', async () => {
    process.env.AWS_ACCESS_KEY_ID = accessKeyId;
    process.env.AWS_SECRET_ACCESS_KEY = 'not-the-secret';
    await expect(chainStore().putText('forged-env', 'x')).rejects.toMatchObject({
      $metadata: { httpStatusCode: 403 },
    });
    expect(await unprefixed.exists(`${runPrefix}/chain/forged-env`)).toBe(false);
  });

  it('signs with a named profile from a shared credentials file', async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'sluice-aws-'));
    try {
      const file = path.join(dir, 'credentials');
      await fs.writeFile(
        file,
        `[sluice-test]\naws_access_key_id = ${accessKeyId}\naws_secret_access_key = ${secretAccessKey}\n`,
      );
      process.env.AWS_SHARED_CREDENTIALS_FILE = file;
      process.env.AWS_CONFIG_FILE = path.join(dir, 'config');
      process.env.AWS_PROFILE = 'sluice-test';
      const store = chainStore();
      await store.putText('from-profile', 'profile');
      expect(await store.getText('from-profile')).toBe('profile');
    } finally {
      await fs.rm(dir, { recursive: true, force: true });
    }
  });

  it('refuses half a key pair', () => {
    expect(() => createS3ObjectStore({ ...keyless, accessKeyId })).toThrow(/both accessKeyId and secretAccessKey/);
  });
});
