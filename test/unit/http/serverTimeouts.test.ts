import net from 'node:net';
import type { Client } from '@temporalio/client';
import { loadConfig } from '../../../config/config';
import { buildApiServer, type ApiServer } from '../../../api/server';
import type { Adapters } from '../../../composition/adapters';

// A client that sends its request slowly or not at all must not hold a connection forever.
// The routes used here fail before touching a store, so the server needs no adapters.

async function serve(env: Record<string, string>): Promise<{ server: ApiServer; port: number }> {
  const server = await buildApiServer(
    { config: loadConfig(env), adapters: {} as Adapters, client: {} as Client },
    { logger: false },
  );
  await server.app.listen({ host: '127.0.0.1', port: 0 });
  return { server, port: (server.app.server.address() as net.AddressInfo).port };
}

/** Opens a raw connection, runs `talk`, and resolves with what the server sent once it closes the connection. */
function converse(port: number, talk: (socket: net.Socket) => void): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    let received = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (received += chunk));
    socket.on('error', () => undefined);
    socket.on('close', () => resolve(received));
    socket.on('connect', () => talk(socket));
    socket.setTimeout(30_000, () => {
      socket.destroy();
      reject(new Error('the server kept the connection open'));
    });
  });
}

const jsonHead = (length: number) =>
  `POST /admin/session HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: ${length}\r\n\r\n`;

describe('request and connection timeouts', () => {
  it('cuts off a request whose body drips in too slowly to finish within the request timeout', async () => {
    const { server, port } = await serve({ SLUICE_API_REQUEST_TIMEOUT: '1s', SLUICE_API_IDLE_TIMEOUT: '20s' });
    let drip: NodeJS.Timeout | undefined;
    let sent = 0;
    try {
      // One byte every 50 ms keeps the connection busy, so only the request timeout can end it.
      const answer = await converse(port, (socket) => {
        socket.write(jsonHead(10_000));
        drip = setInterval(() => {
          if (!socket.destroyed) socket.write('{', () => (sent += 1));
        }, 50);
      });
      expect(answer).toMatch(/^HTTP\/1\.1 408 /);
      expect(sent).toBeLessThan(10_000);
    } finally {
      clearInterval(drip);
      await server.app.close();
    }
  }, 40_000);

  it('closes a connection that goes silent mid-request', async () => {
    const { server, port } = await serve({ SLUICE_API_REQUEST_TIMEOUT: '10m', SLUICE_API_IDLE_TIMEOUT: '1s' });
    try {
      const answer = await converse(port, (socket) => socket.write(`${jsonHead(1000)}{"apiKey":`));
      // Nothing was answered: the socket was simply closed.
      expect(answer).toBe('');
    } finally {
      await server.app.close();
    }
  }, 40_000);

  it('sizes the default request timeout for the largest file at a slow but honest rate', () => {
    const config = loadConfig({ SLUICE_MAX_FILE_BYTES: String(200 * 1024 * 1024) });
    // 200 MiB at 128 KiB/s.
    expect(config.api.requestTimeoutMs).toBe(1600 * 1000);
    expect(loadConfig({ SLUICE_MAX_FILE_BYTES: '1000' }).api.requestTimeoutMs).toBe(5 * 60_000);
    expect(loadConfig({ SLUICE_API_REQUEST_TIMEOUT: '90s' }).api.requestTimeoutMs).toBe(90_000);
    expect(loadConfig({}).api.idleTimeoutMs).toBe(60_000);
  });
});
