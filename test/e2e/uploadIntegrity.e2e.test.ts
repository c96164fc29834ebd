import type { Readable } from 'node:stream';
import type { SluiceConfig } from '../../config/config';
import { usageOf } from '../../db/repositories/documentCatalog';
import type { ObjectStore } from '../../stores/ports';
import {
  call,
  fileForm,
  newUser,
  objectFilesOf,
  startApi,
  type ApiHarness,
  type TestUser,
} from '../../testkit/harness/apiHarness';
import { refusingInserts } from '../../testkit/fakes/refuseInserts';

// Uploads racing for one user's quota, and uploads whose row cannot be written: the quota is
// never overspent, and no object outlives a row that was not written.
let h: ApiHarness;

type UploadBody = { documentId: string; duplicate: boolean };
type ErrorBody = { error: { code: string; message: string } };

beforeAll(async () => {
  h = await startApi();
});
afterAll(() => h?.close());

/**
 * Holds every upload's write until `parties` of them have arrived: each request has then read
 * the quota before streaming, and none has written its row yet (the window the race needs).
 */
function writesAfterAllArrive(objects: ObjectStore, parties: number): ObjectStore {
  let arrived = 0;
  let release = () => {};
  const allArrived = new Promise<void>((resolve) => {
    release = resolve;
  });
  return {
    ...objects,
    async putStream(key: string, body: Readable) {
      arrived += 1;
      if (arrived === parties) release();
      await allArrived;
      return objects.putStream(key, body);
    },
  };
}

/**
 * Every party of a race must be in flight at once (the store waits for all of them), so the
 * per-user concurrency limit, whose own 429 is tested elsewhere, is lifted above the party count.
 */
function racingUploads(c: SluiceConfig): SluiceConfig['api'] {
  return { ...c.api, perUser: { ...c.api.perUser, uploads: 16 } };
}

/** A markdown file of exactly `bytes` bytes, different for each `tag`. */
function markdownOf(bytes: number, tag: string): string {
  const head = `# ${tag}\n\n`;
  return head + 'q'.repeat(bytes - head.length - 1) + '\n';
}

async function uploadAll(baseUrl: string, user: TestUser, files: string[]) {
  const responses = await Promise.all(
    files.map((content, i) =>
      call<UploadBody & ErrorBody>(baseUrl, 'POST', '/v1/datasets/race/documents', {
        user,
        body: fileForm([{ name: `f${i}.md`, content }]),
      }),
    ),
  );
  for (const r of responses) if (r.status === 202) h.tw.track(r.body.documentId);
  return responses;
}

describe('concurrent uploads against the per-user quota', () => {
  it('on bytes: of five 1000-byte uploads into 3000 bytes, exactly three are stored', async () => {
    const parties = 5;
    const api = await h.variant(
      (c) => ({ ...c, quota: { maxBytes: 3000, maxDocuments: 100 }, api: racingUploads(c) }),
      {
        ...h.tw.adapters,
        objects: writesAfterAllArrive(h.tw.adapters.objects, parties),
      },
    );
    try {
      const user = await newUser(h, 'race-bytes');
      const files = Array.from({ length: parties }, (_, i) => markdownOf(1000, `file ${i}`));
      const responses = await uploadAll(api.baseUrl, user, files);
      expect(responses.map((r) => r.status).sort()).toEqual([202, 202, 202, 403, 403]);
      for (const r of responses.filter((x) => x.status === 403)) {
        expect(r.body.error).toMatchObject({ code: 'QUOTA_EXCEEDED', message: expect.stringContaining('(0 bytes)') });
      }
      expect(await usageOf(h.tw.adapters.db, user.userId)).toEqual({ documents: 3, bytes: 3000 });
      // The refused ones were streamed in full before the check: their objects are gone again.
      expect(await objectFilesOf(h.tw.config, user.userId)).toHaveLength(3);
    } finally {
      await api.close();
    }
  });

  it('on documents: of four uploads with room for two, exactly two are stored', async () => {
    const parties = 4;
    const api = await h.variant(
      (c) => ({ ...c, quota: { maxBytes: 1024 * 1024, maxDocuments: 2 }, api: racingUploads(c) }),
      {
        ...h.tw.adapters,
        objects: writesAfterAllArrive(h.tw.adapters.objects, parties),
      },
    );
    try {
      const user = await newUser(h, 'race-docs');
      const files = Array.from({ length: parties }, (_, i) => markdownOf(200, `note ${i}`));
      const responses = await uploadAll(api.baseUrl, user, files);
      expect(responses.map((r) => r.status).sort()).toEqual([202, 202, 403, 403]);
      for (const r of responses.filter((x) => x.status === 403)) {
        expect(r.body.error).toMatchObject({ code: 'QUOTA_EXCEEDED', message: expect.stringContaining('2 documents') });
      }
      expect((await usageOf(h.tw.adapters.db, user.userId)).documents).toBe(2);
      expect(await objectFilesOf(h.tw.config, user.userId)).toHaveLength(2);
    } finally {
      await api.close();
    }
  });

  it('still turns the same content uploaded at once into one document, and a duplicate costs no quota', async () => {
    const parties = 3;
    const api = await h.variant(
      (c) => ({ ...c, quota: { maxBytes: 1024 * 1024, maxDocuments: 1 }, api: racingUploads(c) }),
      {
        ...h.tw.adapters,
        objects: writesAfterAllArrive(h.tw.adapters.objects, parties),
      },
    );
    try {
      const user = await newUser(h, 'race-same');
      const same = markdownOf(300, 'same content');
      const responses = await uploadAll(api.baseUrl, user, [same, same, same]);
      expect(responses.map((r) => r.status).sort()).toEqual([200, 200, 202]);
      expect(new Set(responses.map((r) => r.body.documentId)).size).toBe(1);
      expect(await objectFilesOf(h.tw.config, user.userId)).toHaveLength(1);
    } finally {
      await api.close();
    }
  });
});

it('removes the uploaded object when its document row cannot be written', async () => {
  const api = await h.variant((c) => c, { ...h.tw.adapters, db: refusingInserts(h.tw.adapters.db, 'documents') });
  try {
    const user = await newUser(h, 'no-row');
    const r = await call<ErrorBody>(api.baseUrl, 'POST', '/v1/datasets/lost/documents', {
      user,
      body: fileForm([{ name: 'a.md', content: markdownOf(500, 'lost') }]),
    });
    expect(r.status).toBe(500);
    expect(r.body.error.code).toBe('INTERNAL');
    expect(await objectFilesOf(h.tw.config, user.userId)).toEqual([]);
    expect(await usageOf(h.tw.adapters.db, user.userId)).toEqual({ documents: 0, bytes: 0 });
  } finally {
    await api.close();
  }
});
