import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A real HTTP server on 127.0.0.1 whose every answer is an endless-looking JSON body: the start
 * of an embeddings answer, then `0.1,` repeated up to `totalBytes`. It writes only as fast as
 * the client reads (back-pressure), so `sentBytes` tells how much of the body a client pulled
 * before it stopped.
 */
export interface FloodServer {
  url: string;
  /** Body bytes the sockets accepted, over all requests so far. */
  sentBytes(): number;
  requests(): number;
  close(): Promise<void>;
}

const PIECE = Buffer.from('0.1,'.repeat(16 * 1024));
const HEAD = Buffer.from('{"object":"list","data":[{"object":"embedding","index":0,"embedding":[');

export async function startFloodServer(options: {
  totalBytes: number;
  status?: number;
  /** Announce the length in Content-Length (default: chunked, no length). */
  declareLength?: boolean;
}): Promise<FloodServer> {
  let sent = 0;
  let requests = 0;
  const pump = (res: ServerResponse, remaining: number): void => {
    let left = remaining;
    while (left > 0 && !res.destroyed) {
      const piece = left >= PIECE.length ? PIECE : PIECE.subarray(0, left);
      left -= piece.length;
      sent += piece.length;
      if (!res.write(piece)) {
        res.once('drain', () => pump(res, left));
        return;
      }
    }
    if (!res.destroyed) res.end();
  };
  const server = createServer((req, res) => {
    requests++;
    req.resume();
    req.on('end', () => {
      res.writeHead(options.status ?? 200, {
        'content-type': 'application/json',
        ...(options.declareLength ? { 'content-length': String(options.totalBytes) } : {}),
      });
      res.on('error', () => undefined);
      sent += HEAD.length;
      res.write(HEAD);
      pump(res, options.totalBytes - HEAD.length);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    sentBytes: () => sent,
    requests: () => requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
