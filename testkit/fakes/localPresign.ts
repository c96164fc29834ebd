import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { pipeline } from 'node:stream/promises';
import type { ObjectStore } from '../../stores/ports';

/**
 * Gives the local object store the presigned URLs only S3 has, for tests on a stack without S3: a
 * real HTTP server on 127.0.0.1 serves each presigned key under an unguessable token, so the
 * parsing service's test server can fetch the source the way it fetches from S3.
 */
export interface PresignServer {
  /** Gives this store presignGet, serving its objects. */
  attach(objects: ObjectStore): void;
  close(): Promise<void>;
}

export async function startPresignServer(): Promise<PresignServer> {
  let store: ObjectStore | null = null;
  const keys = new Map<string, string>();
  const sockets = new Set<Socket>();
  const http = createServer((req, res) => {
    const key = keys.get((req.url ?? '').slice(1));
    if (!key || !store) {
      res.writeHead(404).end();
      return;
    }
    store
      .getStream(key)
      .then((body) => pipeline(body, res))
      .catch(() => res.destroy());
  });
  http.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const { port } = http.address() as AddressInfo;
  return {
    attach(objects) {
      store = objects;
      objects.presignGet = (key) => {
        const token = randomBytes(16).toString('hex');
        keys.set(token, key);
        return Promise.resolve(`http://127.0.0.1:${port}/${token}`);
      };
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        http.close(() => resolve());
      }),
  };
}
