import { randomBytes } from 'node:crypto';
import { call, newUser, startApi, type ApiHarness, type TestUser } from '../../testkit/harness/apiHarness';

// Signing out of the admin page ends the session on the server, not only in the browser. A copy of the
// cookie taken before sign-out (another tab, a stolen value) is refused afterwards, by this API
// process and by another one sharing SLUICE_SECRET_KEY and the database.

let h: ApiHarness;
let user: TestUser;
beforeAll(async () => {
  h = await startApi({ SLUICE_SECRET_KEY: randomBytes(32).toString('base64') });
  user = await newUser(h, 'signout');
});
afterAll(() => h?.close());

async function signIn(): Promise<{ cookie: string }> {
  const session = await call(h.baseUrl, 'POST', '/admin/session', { body: { apiKey: user.apiKey } });
  expect(session.status).toBe(204);
  return { cookie: (session.headers.get('set-cookie') ?? '').split(';')[0] ?? '' };
}

it('refuses a copied cookie after sign-out, on every API process; other sessions of the key live on', async () => {
  const other = await h.variant((config) => config);
  try {
    const kept = await signIn();
    const copied = await signIn();
    for (const baseUrl of [h.baseUrl, other.baseUrl])
      expect((await call(baseUrl, 'GET', '/v1/datasets', { headers: copied })).status).toBe(200);

    const out = await call(h.baseUrl, 'DELETE', '/admin/session', { headers: { ...copied, 'x-sluice-admin': '1' } });
    expect(out.status).toBe(204);
    expect(out.headers.get('set-cookie')).toMatch(/Max-Age=0/);

    for (const baseUrl of [h.baseUrl, other.baseUrl]) {
      expect((await call(baseUrl, 'GET', '/v1/datasets', { headers: copied })).status).toBe(401);
      const page = await call<string>(baseUrl, 'GET', '/admin', { headers: copied });
      expect(String(page.body)).toContain('id="login-form"');
      expect((await call(baseUrl, 'GET', '/v1/datasets', { headers: kept })).status).toBe(200);
    }
    // Signing out twice, or without a session, is harmless.
    expect((await call(h.baseUrl, 'DELETE', '/admin/session', { headers: copied })).status).toBe(204);
    expect((await call(h.baseUrl, 'DELETE', '/admin/session')).status).toBe(204);
  } finally {
    await other.close();
  }
});
