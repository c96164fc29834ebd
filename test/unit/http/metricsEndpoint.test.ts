import http from 'node:http';
import type net from 'node:net';
import type { Client } from '@temporalio/client';
import { loadConfig } from '../../../config/config';
import { createApiMetrics } from '../../../api/metrics';
import { buildApiServer, type ApiServer } from '../../../api/server';
import type { Adapters } from '../../../composition/adapters';

// /metrics is off unless a token is configured, answers only that token, and does not scrape
// the worker on every hit.

const TOKEN = 'metrics-token-0123456789abcdef';

/** A stand-in for the worker's Prometheus endpoint that counts its scrapes. */
async function fakeWorkerEndpoint(): Promise<{ url: string; scrapes: () => number; close(): Promise<void> }> {
  let scrapes = 0;
  const server = http.createServer((_req, res) => {
    scrapes += 1;
    res.writeHead(200, { 'content-type': 'text/plain' }).end(`temporal_worker_fake_total ${scrapes}\n`);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/metrics`,
    scrapes: () => scrapes,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

async function serve(env: Record<string, string>): Promise<{ server: ApiServer; baseUrl: string }> {
  const server = await buildApiServer(
    { config: loadConfig(env), adapters: {} as Adapters, client: {} as Client },
    { logger: false },
  );
  await server.app.listen({ host: '127.0.0.1', port: 0 });
  return { server, baseUrl: `http://127.0.0.1:${(server.app.server.address() as net.AddressInfo).port}` };
}

describe('/metrics', () => {
  it('is off when no token is configured', async () => {
    const { server, baseUrl } = await serve({});
    try {
      const r = await fetch(`${baseUrl}/metrics`);
      expect(r.status).toBe(404);
      expect(await r.text()).not.toContain('sluice_http_request_duration_seconds');
    } finally {
      await server.app.close();
    }
  });

  it('answers only the configured bearer token', async () => {
    const { server, baseUrl } = await serve({ SLUICE_METRICS_TOKEN: TOKEN });
    try {
      const attempts: Record<string, string>[] = [
        {},
        { authorization: 'Bearer wrong-token-0123456789abcdef' },
        { authorization: `Basic ${TOKEN}` },
      ];
      for (const headers of attempts) {
        const refused = await fetch(`${baseUrl}/metrics`, { headers });
        expect(refused.status).toBe(401);
        expect(await refused.text()).not.toContain('sluice_http_request_duration_seconds');
      }
      const r = await fetch(`${baseUrl}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
      expect(r.status).toBe(200);
      expect(await r.text()).toContain('sluice_http_request_duration_seconds');
    } finally {
      await server.app.close();
    }
  });

  it('scrapes the worker once for a burst of hits', async () => {
    const worker = await fakeWorkerEndpoint();
    const { server, baseUrl } = await serve({ SLUICE_METRICS_TOKEN: TOKEN, SLUICE_WORKER_METRICS_URL: worker.url });
    try {
      const bodies = await Promise.all(
        Array.from({ length: 10 }, () =>
          fetch(`${baseUrl}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } }).then((r) => r.text()),
        ),
      );
      for (const body of bodies) expect(body).toContain('temporal_worker_fake_total 1');
      expect(worker.scrapes()).toBe(1);
    } finally {
      await server.app.close();
      await worker.close();
    }
  });

  it('scrapes the worker again once the cached scrape is older than its time to live', async () => {
    const worker = await fakeWorkerEndpoint();
    let now = 1_000_000;
    const metrics = createApiMetrics({ workerMetricsUrl: worker.url, workerScrapeTtlMs: 5000, now: () => now });
    try {
      expect((await metrics.render()).body).toContain('temporal_worker_fake_total 1');
      now += 4999;
      expect((await metrics.render()).body).toContain('temporal_worker_fake_total 1');
      now += 2;
      expect((await metrics.render()).body).toContain('temporal_worker_fake_total 2');
      expect(worker.scrapes()).toBe(2);
    } finally {
      await worker.close();
    }
  });
});
