import { randomBytes } from 'node:crypto';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { call, newUser, startApi, type ApiHarness } from '../../testkit/harness/apiHarness';

// The model and embedding `/test` routes call the caller's provider: each user may have
// SLUICE_API_MAX_CONCURRENT_PROVIDER_TESTS of them in flight (one limiter for both routes), so one
// tenant cannot hold the API's connections to slow providers. A model server that holds every
// answer until released shows the slot taken, refused with 429, another user's not, and freed.

const held: ServerResponse[] = [];
const model = createServer((req, res) => {
  req.resume();
  req.on('end', () => held.push(res));
});
const release = () => {
  for (const res of held.splice(0)) {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ choices: [{ message: { role: 'assistant', content: 'OK' } }] }));
  }
};

let h: ApiHarness;
beforeAll(async () => {
  await new Promise<void>((resolve) => model.listen(0, '127.0.0.1', resolve));
  h = await startApi({ SLUICE_SECRET_KEY: randomBytes(32).toString('base64') });
});
afterAll(async () => {
  release();
  await h?.close();
  await new Promise((resolve) => model.close(resolve));
});

it('refuses a second concurrent /test of the same user with 429, not another user’s, and frees the slot', async () => {
  expect(h.tw.config.api.perUser.providerTests).toBe(1);
  const baseUrl = `http://127.0.0.1:${(model.address() as AddressInfo).port}/v1`;
  const [alice, bob] = [await newUser(h, 'tests-a'), await newUser(h, 'tests-b')];
  for (const user of [alice, bob]) {
    const put = await call(h.baseUrl, 'PUT', '/v1/model-configs/chat', {
      user,
      body: { baseUrl, model: 'held-1', apiKey: 'sk-held-0000' },
    });
    expect(put.status).toBe(200);
  }
  const test = (user: typeof alice) => call(h.baseUrl, 'POST', '/v1/model-configs/chat/test', { user });

  const first = test(alice);
  // The first call holds its slot once the model has it.
  for (let i = 0; i < 100 && held.length === 0; i++) await new Promise((resolve) => setTimeout(resolve, 50));
  expect(held.length).toBe(1);
  const refused = await test(alice);
  expect(refused.status).toBe(429);
  expect(JSON.stringify(refused.body)).toContain('SLUICE_API_MAX_CONCURRENT_PROVIDER_TESTS');
  // The embedding route shares the limiter: refused before it looks for a configuration.
  expect((await call(h.baseUrl, 'POST', '/v1/embedding-config/test', { user: alice })).status).toBe(429);

  const other = test(bob);
  for (let i = 0; i < 100 && held.length < 2; i++) await new Promise((resolve) => setTimeout(resolve, 50));
  release();
  expect((await first).status).toBe(200);
  expect((await other).status).toBe(200);
  const again = test(alice);
  for (let i = 0; i < 100 && held.length === 0; i++) await new Promise((resolve) => setTimeout(resolve, 50));
  release();
  expect((await again).status).toBe(200);
});
