import http from 'node:http';
import { randomUUID } from 'node:crypto';
import { call, fileForm, newUser, startApi, type ApiHarness, type TestUser } from '../../testkit/harness/apiHarness';

// Per-user concurrency limits in the API answer 429, so one tenant cannot hold every slot. An upload whose body is
// still streaming holds one of its user's SLUICE_API_MAX_CONCURRENT_UPLOADS slots: the next
// upload of that user is refused with 429 and Retry-After, another user's is not, and the slot
// comes back when the first upload ends.

let h: ApiHarness;
let alice: TestUser;
let bob: TestUser;
beforeAll(async () => {
  h = await startApi({ SLUICE_API_MAX_CONCURRENT_UPLOADS: '1', SLUICE_API_MAX_CONCURRENT_SEARCHES: '2' });
  alice = await newUser(h, 'limit-a');
  bob = await newUser(h, 'limit-b');
});
afterAll(() => h?.close());

const BOUNDARY = 'sluice-limit-boundary';

/** An upload that sends its headers and the start of its file, then waits until `finish()` is called. */
function slowUpload(user: TestUser, datasetId: string) {
  const url = new URL(`${h.baseUrl}/v1/datasets/${datasetId}/documents`);
  const request = http.request(url, {
    method: 'POST',
    headers: { ...user.auth, 'content-type': `multipart/form-data; boundary=${BOUNDARY}` },
  });
  const answered = new Promise<number>((resolve, reject) => {
    request.on('response', (response) => {
      response.resume();
      resolve(response.statusCode ?? 0);
    });
    request.on('error', reject);
  });
  request.write(
    `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="slow.md"\r\nContent-Type: text/markdown\r\n\r\n# Slow\n\n`,
  );
  return {
    answered,
    finish() {
      request.end(`held the upload slot ${randomUUID()}\n\r\n--${BOUNDARY}--\r\n`);
      return answered;
    },
  };
}

const upload = (user: TestUser, datasetId: string) =>
  call<{ error?: { code: string } }>(h.baseUrl, 'POST', `/v1/datasets/${datasetId}/documents`, {
    user,
    body: fileForm([{ name: 'quick.md', content: `# Quick\n\n${randomUUID()}\n` }]),
  });

it('refuses a second concurrent upload of the same user with 429, not another user’s, and frees the slot', async () => {
  const slow = slowUpload(alice, 'limits');
  // The slow upload holds its slot once the API has read its headers: poll until the refusal shows.
  let refused = await upload(alice, 'limits');
  for (let i = 0; i < 50 && refused.status !== 429; i++) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    refused = await upload(alice, 'limits');
  }
  expect(refused.status).toBe(429);
  expect(refused.headers.get('retry-after')).toBe('1');
  expect(JSON.stringify(refused.body)).toContain('TOO_MANY_CONCURRENT_REQUESTS');
  expect(JSON.stringify(refused.body)).toContain('SLUICE_API_MAX_CONCURRENT_UPLOADS');

  expect((await upload(bob, 'limits')).status).toBe(202);
  expect(await slow.finish()).toBe(202);
  expect((await upload(alice, 'limits')).status).toBe(202);
});

it('reads its limits from the configuration', () => {
  expect(h.tw.config.api.perUser).toEqual({ uploads: 1, searches: 2, reembeds: 1, providerTests: 1 });
});
