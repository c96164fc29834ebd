import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A real HTTP server on 127.0.0.1 that speaks the OpenAI embeddings API, for tests of the
 * OpenAI-compatible embedder. Vectors are derived from each input text, so a test can recompute
 * them; the answer lists them in reverse order (with correct `index`es) to prove re-ordering.
 * Faults are scripted per request: the next requests take the queued faults first.
 */
export type Fault =
  | { kind: 'rate-limit'; retryAfter: string }
  | { kind: 'server-error'; status?: number }
  | { kind: 'bad-request' }
  | { kind: 'wrong-dimension' }
  | { kind: 'hang' };

export interface ReceivedRequest {
  at: number;
  authorization: string | undefined;
  body: { model?: unknown; input?: unknown; encoding_format?: unknown; dimensions?: unknown };
  inputs: string[];
}

export interface FakeEmbeddingServer {
  /** Base URL to give the embedder, like `https://api.openai.com/v1`. */
  baseUrl: string;
  requests: ReceivedRequest[];
  /** Highest number of requests being handled at the same time. */
  maxInFlight: number;
  queueFaults(...faults: Fault[]): void;
  /** Every request from now on gets this fault (until cleared with null). */
  setStandingFault(fault: Fault | null): void;
  close(): Promise<void>;
}

/** The vector the fake server returns for `text`. */
export function fakeVector(text: string, dimension: number): number[] {
  const digest = createHash('sha256').update(text, 'utf8').digest();
  return Array.from({ length: dimension }, (_, i) => ((digest[i % digest.length] ?? 0) - 127.5) / 128);
}

export async function startFakeEmbeddingServer(options: {
  apiKey: string | null;
  dimension: number;
  delayMs?: number;
}): Promise<FakeEmbeddingServer> {
  const faults: Fault[] = [];
  let standing: Fault | null = null;
  let inFlight = 0;

  const send = (res: ServerResponse, status: number, payload: unknown, headers: Record<string, string> = {}) => {
    res.writeHead(status, { 'content-type': 'application/json', ...headers });
    res.end(JSON.stringify(payload));
  };

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    if (req.method !== 'POST' || req.url !== '/v1/embeddings')
      return send(res, 404, { error: { message: `no route ${req.method} ${req.url}` } });
    const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as ReceivedRequest['body'];
    const inputs = Array.isArray(body.input) ? body.input.map(String) : [String(body.input)];
    server.requests.push({ at: Date.now(), authorization: req.headers.authorization, body, inputs });

    if (options.apiKey !== null && req.headers.authorization !== `Bearer ${options.apiKey}`) {
      // Like some providers, echo the key that was sent: the client must not let it through.
      const sent = (req.headers.authorization ?? '').replace(/^Bearer /, '');
      return send(res, 401, {
        error: { message: `Incorrect API key provided: ${sent}`, type: 'invalid_request_error' },
      });
    }
    const fault = faults.shift() ?? standing;
    if (options.delayMs) await new Promise((resolve) => setTimeout(resolve, options.delayMs));
    switch (fault?.kind) {
      case 'hang':
        return; // never answer; close() drops the socket
      case 'rate-limit':
        return send(res, 429, { error: { message: 'Rate limit reached' } }, { 'retry-after': fault.retryAfter });
      case 'server-error':
        return send(res, fault.status ?? 500, { error: { message: 'The server had an error' } });
      case 'bad-request':
        return send(res, 400, { error: { message: "'input' is invalid" } });
      default: {
        const dimension = fault?.kind === 'wrong-dimension' ? options.dimension + 1 : options.dimension;
        const data = inputs
          .map((text, index) => ({ object: 'embedding', index, embedding: fakeVector(text, dimension) }))
          .reverse();
        return send(res, 200, {
          object: 'list',
          data,
          model: body.model,
          usage: { prompt_tokens: 0, total_tokens: 0 },
        });
      }
    }
  };

  const httpServer = createServer((req, res) => {
    inFlight++;
    server.maxInFlight = Math.max(server.maxInFlight, inFlight);
    res.on('close', () => inFlight--);
    handle(req, res).catch((err: unknown) => send(res, 500, { error: { message: String(err) } }));
  });
  await new Promise<void>((resolve) => httpServer.listen(0, '127.0.0.1', resolve));
  const { port } = httpServer.address() as AddressInfo;

  const server: FakeEmbeddingServer = {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests: [],
    maxInFlight: 0,
    queueFaults: (...more) => void faults.push(...more),
    setStandingFault: (fault) => void (standing = fault),
    close: () =>
      new Promise<void>((resolve, reject) => {
        httpServer.closeAllConnections();
        httpServer.close((err) => (err ? reject(err) : resolve()));
      }),
  };
  return server;
}
