import { startHealthServer, type HealthServer, type WorkerHealth } from '../../worker/healthServer';

// The probe endpoint over real HTTP, fed the states a WorkerGroup's Workers go through.
let states: WorkerHealth[] = [];
let server: HealthServer;
beforeAll(async () => {
  server = await startHealthServer('127.0.0.1:0', () => states);
});
afterAll(() => server.close());

const get = async (path: string, method = 'GET') => {
  const response = await fetch(server.url + path, { method });
  return { status: response.status, body: method === 'HEAD' ? '' : await response.text() };
};

describe('worker health server', () => {
  it('is ready only while every Worker of the process polls', async () => {
    states = [
      { taskQueue: 'sluice-ingest', state: 'INITIALIZED' },
      { taskQueue: 'sluice-ingest-embedding', state: 'INITIALIZED' },
    ];
    expect((await get('/readyz')).status).toBe(503);
    states = states.map((w) => ({ ...w, state: 'RUNNING' }));
    const ready = await get('/readyz');
    expect(ready.status).toBe(200);
    expect(JSON.parse(ready.body)).toEqual({ status: 'ready', workers: states });
    // SIGTERM: one Worker drains, the process must leave the rollout's ready set.
    states = [states[0]!, { taskQueue: 'sluice-ingest-embedding', state: 'DRAINING' }];
    expect(await get('/readyz')).toMatchObject({ status: 503, body: expect.stringContaining('DRAINING') });
    states = [];
    expect((await get('/readyz')).status).toBe(503);
  });

  it('stays alive whatever the Workers do, and answers nothing else', async () => {
    states = [{ taskQueue: 'q', state: 'FAILED' }];
    expect(await get('/livez')).toMatchObject({ status: 200 });
    expect((await get('/livez', 'HEAD')).status).toBe(200);
    expect((await get('/metrics')).status).toBe(404);
    expect((await get('/readyz', 'POST')).status).toBe(405);
  });
});
