import { randomBytes, randomUUID } from 'node:crypto';
import net from 'node:net';
import { CreateBucketCommand, DeleteObjectCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { call, newUser, startApi, type ApiHarness, type TestUser } from '../../testkit/harness/apiHarness';
import { eventually } from '../../testkit/harness/ingestHelpers';

// An S3 source through the HTTP API on the real stack (SeaweedFS, dev server, worker, Postgres):
// its credentials are stored sealed; a sync ingests the prefix; an edit and a deletion at the
// source are followed; and a source that goes down in the middle of a sync is waited for, not
// failed (the bucket is reached through a TCP relay the test cuts and restores).

const S3 = {
  endpoint: process.env.S3_ENDPOINT ?? 'http://127.0.0.1:8333',
  accessKeyId: process.env.S3_ACCESS_KEY_ID ?? 'sluice',
  secret: process.env.S3_SECRET_ACCESS_KEY ?? 'sluice-local-secret',
};
const bucket = `sluice-src-${randomUUID().slice(0, 8)}`;
const s3 = new S3Client({
  endpoint: S3.endpoint,
  region: 'us-east-1',
  forcePathStyle: true,
  credentials: { accessKeyId: S3.accessKeyId, secretAccessKey: S3.secret },
});
let h: ApiHarness;
let alice: TestUser;
let relay: { port: number; cut(): void; restore(): Promise<void>; close(): void };

/** A TCP relay to the S3 endpoint: while cut, it refuses connections and drops the open ones. */
async function startRelay(target: URL): Promise<typeof relay> {
  const sockets = new Set<net.Socket>();
  let server: net.Server;
  let port = 0;
  const listen = () =>
    new Promise<void>((resolve) => {
      server = net.createServer((client) => {
        const upstream = net.connect(Number(target.port), target.hostname);
        for (const s of [client, upstream]) {
          sockets.add(s);
          s.on('error', () => s.destroy());
          s.on('close', () => sockets.delete(s));
        }
        client.pipe(upstream).pipe(client);
      });
      server.listen(port, '127.0.0.1', () => {
        port = (server.address() as net.AddressInfo).port;
        resolve();
      });
    });
  await listen();
  return {
    get port() {
      return port;
    },
    cut() {
      server.close();
      for (const s of sockets) s.destroy();
    },
    restore: listen,
    close() {
      server.close();
      for (const s of sockets) s.destroy();
    },
  };
}

const put = (key: string, body: string, metadata?: Record<string, string>) =>
  s3.send(new PutObjectCommand({ Bucket: bucket, Key: key, Body: body, ...(metadata ? { Metadata: metadata } : {}) }));

function page(topic: string, extra = ''): string {
  return `# ${topic}\n\n## Overview\n\nThe ${topic} module keeps the ${topic} ledger in order.\n\n## Details\n\nEvery ${topic} entry is signed. ${extra}\n`;
}

type SourceBody = { id: string; hasSecret: boolean; lastSync: { syncId: string; [k: string]: unknown } | null };

async function lastSync(previous: string | null) {
  const r = await eventually(
    () => call<{ sources: SourceBody[] }>(h.baseUrl, 'GET', '/v1/datasets/s3-synced/sources', { user: alice }),
    (res) =>
      res.status === 200 && res.body.sources[0]?.lastSync != null && res.body.sources[0].lastSync.syncId !== previous,
    180_000,
    250,
  );
  return r.body.sources[0]!.lastSync!;
}

beforeAll(async () => {
  await s3.send(new CreateBucketCommand({ Bucket: bucket }));
  relay = await startRelay(new URL(S3.endpoint));
  h = await startApi({ SLUICE_SECRET_KEY: randomBytes(32).toString('base64') });
  alice = await newUser(h, 'alice');
});
afterAll(async () => {
  relay?.close();
  await h?.close();
});

it('follows an S3 prefix through the API, sealed credentials, edits and deletions, and waits out an outage', async () => {
  await put('docs/alpha.md', page('alpha'), { team: 'ledger', reviewed: 'no' });
  await put('docs/beta.md', page('beta'));
  await put('other/gamma.md', page('gamma'));
  const added = await call<SourceBody & { error?: unknown }>(h.baseUrl, 'POST', '/v1/datasets/s3-synced/sources', {
    user: alice,
    body: {
      kind: 's3',
      settings: {
        bucket,
        prefix: 'docs/',
        endpoint: `http://127.0.0.1:${relay.port}`,
        forcePathStyle: true,
        accessKeyId: S3.accessKeyId,
      },
      secret: S3.secret,
      schedule: { everySeconds: 3600 },
    },
  });
  expect(added.status).toBe(201);
  expect(added.body.hasSecret).toBe(true);
  const row = await h.tw.adapters.db
    .selectFrom('sources')
    .select(['sealed_secret', 'config'])
    .where('id', '=', added.body.id)
    .executeTakeFirstOrThrow();
  expect(row.sealed_secret).not.toContain(S3.secret);
  expect(JSON.stringify(row.config)).not.toContain(S3.secret);

  const first = await lastSync(null);
  expect(first).toMatchObject({ listed: 2, added: 2, failed: 0 });
  // The document says where it came from: its path, time and the object's user metadata.
  const metadataOfAlpha = async () =>
    (
      await h.tw.adapters.db
        .selectFrom('source_entries as e')
        .innerJoin('documents as d', 'd.id', 'e.document_id')
        .select('d.metadata')
        .where('e.path', '=', 'alpha.md')
        .where('e.source_id', '=', added.body.id)
        .executeTakeFirstOrThrow()
    ).metadata;
  expect(await metadataOfAlpha()).toMatchObject({
    sourcePath: 'alpha.md',
    sourceModified: expect.any(String),
    'source.team': 'ledger',
    'source.reviewed': 'no',
  });

  // An edit and a deletion, then the source goes down just as the next sync starts.
  await put('docs/alpha.md', page('alpha', 'The alpha quorum rule was added.'), { team: 'ledger', reviewed: 'yes' });
  await s3.send(new DeleteObjectCommand({ Bucket: bucket, Key: 'docs/beta.md' }));
  relay.cut();
  const sync = await call(h.baseUrl, 'POST', `/v1/sources/${added.body.id}/sync`, { user: alice });
  expect(sync.status).toBe(202);
  // The listing is retried while the relay is cut: the sync is still running a few seconds later.
  await new Promise((r) => setTimeout(r, 4000));
  const during = await call<{ sources: SourceBody[] }>(h.baseUrl, 'GET', '/v1/datasets/s3-synced/sources', {
    user: alice,
  });
  expect(during.body.sources[0]?.lastSync?.syncId).toBe(first.syncId);
  await relay.restore();
  const second = await lastSync(first.syncId);
  expect(second).toMatchObject({ listed: 1, updated: 1, deleted: 1, failed: 0 });
  expect(await metadataOfAlpha()).toMatchObject({ 'source.reviewed': 'yes' });

  const search = await eventually(
    () =>
      call<{ hits: { text: string }[] }>(h.baseUrl, 'GET', '/v1/datasets/s3-synced/search?q=alpha%20quorum%20rule', {
        user: alice,
      }),
    (res) => res.status === 200 && res.body.hits.some((hit) => hit.text.includes('quorum')),
  );
  expect(search.body.hits.some((hit) => hit.text.includes('beta'))).toBe(false);

  // Another user cannot see, sync or remove it.
  const bob = await newUser(h, 'bob');
  expect((await call(h.baseUrl, 'POST', `/v1/sources/${added.body.id}/sync`, { user: bob })).status).toBe(404);
  const removed = await call<{ deleting: number }>(h.baseUrl, 'DELETE', `/v1/sources/${added.body.id}`, {
    user: alice,
  });
  expect(removed.status).toBe(202);
  expect(removed.body.deleting).toBe(1);
});
