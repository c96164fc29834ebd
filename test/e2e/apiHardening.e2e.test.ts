import { randomBytes } from 'node:crypto';
import { issueApiKey } from '../../api/apiKeys';
import { revokeApiKey } from '../../db/repositories/apiKeys';
import {
  call,
  fileForm,
  newUser,
  startApi,
  waitForDocument,
  type ApiHarness,
  type TestUser,
} from '../../testkit/harness/apiHarness';
import { eventually } from '../../testkit/harness/ingestHelpers';

// The API against hostile or careless clients: event streams per key are capped, and the admin
// page's cookie is a signed, expiring session that a revoked key cannot keep using.

type ErrorBody = { error: { code: string; message: string } };
let h: ApiHarness;
let alice: TestUser;
let documentId: string;

beforeAll(async () => {
  h = await startApi({
    SLUICE_API_SSE_POLL: '100ms',
    SLUICE_API_MAX_STREAMS_PER_KEY: '2',
    SLUICE_SECRET_KEY: randomBytes(32).toString('base64'),
  });
  alice = await newUser(h, 'hardening');
  const r = await call<{ documentId: string }>(h.baseUrl, 'POST', '/v1/datasets/hardening/documents', {
    user: alice,
    body: fileForm([{ name: 'a.md', content: '# A\n\nStreams and sessions.\n' }]),
  });
  expect(r.status).toBe(202);
  documentId = r.body.documentId;
  h.tw.track(documentId);
  await waitForDocument(h, alice, documentId);
});
afterAll(() => h?.close());

const keyIdOf = (apiKey: string) => /^sk_([0-9a-f]{16})_/.exec(apiKey)?.[1] ?? '';

describe('event streams per API key', () => {
  /** Opens a stream that stays open (until=deleted on a finished document) and resolves once the server answered. */
  async function openStream(auth: Record<string, string>) {
    const stop = new AbortController();
    const response = await fetch(`${h.baseUrl}/v1/documents/${documentId}/events?until=deleted`, {
      headers: auth,
      signal: stop.signal,
    });
    return { response, close: () => stop.abort() };
  }

  it('answers 429 beyond the limit, counts per key, and frees a slot when a stream closes', async () => {
    const second = await issueApiKey(h.tw.adapters.db, alice.userId);
    const first = await openStream(alice.auth);
    const other = await openStream(alice.auth);
    const opened = [first, other];
    try {
      expect([first.response.status, other.response.status]).toEqual([200, 200]);
      const refused = await call<ErrorBody>(h.baseUrl, 'GET', `/v1/documents/${documentId}/events?until=deleted`, {
        user: alice,
      });
      expect(refused.status).toBe(429);
      expect(refused.body.error.code).toBe('TOO_MANY_STREAMS');
      expect(refused.headers.get('retry-after')).toBe('5');

      // Another key of the same user has slots of its own.
      const secondKey = await openStream({ authorization: `Bearer ${second.apiKey}` });
      opened.push(secondKey);
      expect(secondKey.response.status).toBe(200);

      // Closing a stream gives its slot back.
      first.close();
      const again = await eventually(
        () => openStream(alice.auth),
        (s) => {
          if (s.response.status === 200) return true;
          s.close();
          return false;
        },
        10_000,
        100,
      );
      opened.push(again);
    } finally {
      for (const s of opened) s.close();
    }
  });
});

describe('admin session cookie', () => {
  const signIn = async (baseUrl: string, apiKey: string, headers: Record<string, string> = {}) => {
    const r = await call(baseUrl, 'POST', '/admin/session', { body: { apiKey }, headers });
    expect(r.status).toBe(204);
    return r.headers.get('set-cookie') ?? '';
  };
  const cookieOf = (setCookie: string) => ({ cookie: setCookie.split(';')[0] ?? '' });
  const signedIn = async (cookie: { cookie: string }) =>
    String((await call<string>(h.baseUrl, 'GET', '/admin', { headers: cookie })).body).includes('id="user-id"');

  it('is a signed, expiring session, not the API key', async () => {
    const setCookie = await signIn(h.baseUrl, alice.apiKey);
    const value = decodeURIComponent(setCookie.split(';')[0]?.split('=')[1] ?? '');
    expect(value).not.toContain(alice.apiKey);
    expect(value).not.toContain(alice.apiKey.slice(-43));
    expect(value.startsWith(`v1.${keyIdOf(alice.apiKey)}.`)).toBe(true);
    expect(setCookie).toMatch(/; HttpOnly/);
    expect(setCookie).toMatch(/; SameSite=Strict/);
    expect(setCookie).toMatch(/; Max-Age=43200/);
    // Plain HTTP and no trusted proxy: no Secure flag, and a forwarded header alone changes nothing.
    expect(setCookie).not.toMatch(/Secure/);
    expect(await signIn(h.baseUrl, alice.apiKey, { 'x-forwarded-proto': 'https' })).not.toMatch(/Secure/);
    expect(await signedIn(cookieOf(setCookie))).toBe(true);
  });

  it('refuses a tampered cookie and the raw key as a cookie', async () => {
    const bob = await newUser(h, 'bob');
    const value = decodeURIComponent((await signIn(h.baseUrl, alice.apiKey)).split(';')[0]?.split('=')[1] ?? '');
    const asBob = value.replace(keyIdOf(alice.apiKey), keyIdOf(bob.apiKey));
    for (const forged of [asBob, `${value.slice(0, -1)}${value.endsWith('A') ? 'B' : 'A'}`, alice.apiKey]) {
      expect(await signedIn({ cookie: `sluice_admin=${encodeURIComponent(forged)}` })).toBe(false);
      const api = await call(h.baseUrl, 'GET', '/v1/datasets', {
        headers: { cookie: `sluice_admin=${encodeURIComponent(forged)}` },
      });
      expect(api.status).toBe(401);
    }
  });

  it('stops working as soon as its key is revoked', async () => {
    const carol = await newUser(h, 'carol');
    const cookie = cookieOf(await signIn(h.baseUrl, carol.apiKey));
    expect((await call(h.baseUrl, 'GET', '/v1/datasets', { headers: cookie })).status).toBe(200);
    await revokeApiKey(h.tw.adapters.db, keyIdOf(carol.apiKey));
    expect((await call(h.baseUrl, 'GET', '/v1/datasets', { headers: cookie })).status).toBe(401);
    expect(await signedIn(cookie)).toBe(false);
  });

  it('is Secure when a trusted proxy says the browser came over TLS', async () => {
    const proxied = await h.variant((c) => ({ ...c, api: { ...c.api, trustProxy: ['127.0.0.1'] } }));
    try {
      expect(await signIn(proxied.baseUrl, alice.apiKey, { 'x-forwarded-proto': 'https' })).toMatch(/; Secure/);
      expect(await signIn(proxied.baseUrl, alice.apiKey)).not.toMatch(/Secure/);
    } finally {
      await proxied.close();
    }
  });
});
