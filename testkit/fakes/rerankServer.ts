import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** How the server answers the next requests: scored, slowly, with an error status, or with a wrong shape. */
export type RerankServerMode = 'score' | { delayMs: number } | { status: number } | 'wrong-shape' | 'logits';

export interface RerankServer {
  /** The base URL of the TEI shape (`{url}/rerank`). */
  teiUrl: string;
  /** The base URL of the Cohere shape (`{url}/v1/rerank`, as Cohere's, Jina's and vLLM's). */
  cohereUrl: string;
  /** Every request body received, newest last, with its authorization header. */
  requests: { path: string; body: Record<string, unknown>; authorization: string | undefined }[];
  setMode(mode: RerankServerMode): void;
  close(): Promise<void>;
}

/** The share of the query's words a text holds: a reranker whose order a test can predict. */
export function wordOverlap(query: string, text: string): number {
  const words = (s: string) => new Set(s.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []);
  const q = words(query);
  const t = words(text);
  if (q.size === 0) return 0;
  return [...q].filter((w) => t.has(w)).length / q.size;
}

async function bodyOf(request: IncomingMessage): Promise<Record<string, unknown>> {
  const parts: Buffer[] = [];
  for await (const part of request) parts.push(part as Buffer);
  return JSON.parse(Buffer.concat(parts).toString('utf8')) as Record<string, unknown>;
}

/**
 * A local HTTP server speaking both reranker shapes, TEI's `POST /rerank {query, texts}` →
 * `[{index, score}]` and Cohere's `POST /v1/rerank {model, query, documents, top_n}` →
 * `{results: [{index, relevance_score}]}`, scoring by word overlap; each answer lists the texts
 * best first, as the real servers do.
 */
export async function startRerankServer(): Promise<RerankServer> {
  let mode: RerankServerMode = 'score';
  const requests: RerankServer['requests'] = [];
  const server: Server = createServer((request, response) => {
    void (async () => {
      const body = await bodyOf(request);
      requests.push({ path: request.url ?? '', body, authorization: request.headers.authorization });
      const send = (status: number, value: unknown) => {
        response.writeHead(status, { 'content-type': 'application/json' });
        response.end(JSON.stringify(value));
      };
      const current = mode;
      if (typeof current === 'object' && 'delayMs' in current) await new Promise((r) => setTimeout(r, current.delayMs));
      if (typeof current === 'object' && 'status' in current) return send(current.status, { error: 'down' });
      const query = String(body.query);
      const texts = (request.url === '/rerank' ? body.texts : body.documents) as string[];
      const scored = texts
        .map((text, index) => ({ index, score: wordOverlap(query, text) }))
        .map((s) => (current === 'logits' ? { ...s, score: s.score * 8 - 4 } : s))
        .sort((a, b) => b.score - a.score || a.index - b.index);
      if (current === 'wrong-shape') return send(200, { scores: scored.map((s) => s.score) });
      if (request.url === '/rerank') return send(200, scored);
      if (request.url === '/v1/rerank') {
        const topN = typeof body.top_n === 'number' ? body.top_n : scored.length;
        return send(200, {
          results: scored.slice(0, topN).map((s) => ({ index: s.index, relevance_score: s.score })),
        });
      }
      return send(404, { error: 'not found' });
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    teiUrl: `http://127.0.0.1:${port}`,
    cohereUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    setMode(next) {
      mode = next;
    },
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
