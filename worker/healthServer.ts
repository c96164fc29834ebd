import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** One Worker of the process as the probes see it: its task queue and the SDK's state. */
export interface WorkerHealth {
  taskQueue: string;
  state: string;
}

export interface HealthServer {
  /** http://host:port of the bound server (the port the OS chose when 0 was asked). */
  url: string;
  close(): Promise<void>;
}

/**
 * The worker's probe endpoint (SLUICE_WORKER_HEALTH_BIND), for Kubernetes and any supervisor:
 * `/livez` answers while the event loop does (a wedged process is restarted); `/readyz` answers
 * 200 only while every Worker of the process is RUNNING, i.e. polling, and 503 before that and
 * once SIGTERM has made them drain, so a rollout waits for new pods to poll before it stops old
 * ones. It serves no data beyond the task queues and states, and reads no request body.
 */
export async function startHealthServer(bind: string, workers: () => readonly WorkerHealth[]): Promise<HealthServer> {
  const server = http.createServer((req, res) => {
    const path = (req.url ?? '').split('?')[0];
    const send = (status: number, body: object) => {
      res.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store' });
      res.end(req.method === 'HEAD' ? undefined : JSON.stringify(body));
    };
    if (req.method !== 'GET' && req.method !== 'HEAD') return send(405, { error: 'GET only' });
    if (path === '/livez') return send(200, { status: 'alive' });
    if (path === '/readyz') {
      const states = workers();
      const ready = states.length > 0 && states.every((w) => w.state === 'RUNNING');
      return send(ready ? 200 : 503, { status: ready ? 'ready' : 'not ready', workers: states });
    }
    return send(404, { error: 'not found' });
  });
  // Probes are tiny: a slow or idle client is dropped rather than held.
  server.requestTimeout = 5_000;
  server.headersTimeout = 5_000;
  server.keepAliveTimeout = 1_000;
  const separator = bind.lastIndexOf(':');
  const host = bind.slice(0, separator);
  const port = Number(bind.slice(separator + 1));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  return {
    url: `http://${host}:${address.port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
