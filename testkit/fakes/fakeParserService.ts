import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/**
 * A real HTTP server on 127.0.0.1 speaking the parsing service protocol (parserService/protocol.ts).
 * It fetches each task's source itself from the URL it is given (the presigned S3 URL: no
 * credentials), so a success proves the URL reads the object. What a task does is scripted: the
 * next created tasks take the queued scripts first, then the default.
 */
export type TaskScript =
  | { kind: 'success'; polls?: number; images?: Record<string, Buffer> }
  | { kind: 'fail'; message: string }
  /** Stays `running` forever. */
  | { kind: 'hang' }
  /** Stays `running` until release(). */
  | { kind: 'held' };

interface RemoteTask {
  id: string;
  dataId: string;
  script: TaskScript;
  polls: number;
  released: boolean;
  markdown: string | null;
  sourceError: string | null;
}

export interface CreateRequest {
  authorization: string | undefined;
  body: { url?: unknown; file_name?: unknown; file_type?: unknown; data_id?: unknown };
}

export interface FakeParserService {
  baseUrl: string;
  creates: CreateRequest[];
  /** Task ids of every status poll, in order. */
  polls: string[];
  tasks(): { id: string; dataId: string; polls: number }[];
  queueScripts(...scripts: TaskScript[]): void;
  /** Every request answers 503 while on (an outage); the tasks keep their state. */
  setOutage(on: boolean): void;
  release(taskId: string): void;
  close(): Promise<void>;
}

/** The markdown the service writes for a source: names its size and digest, so a test can check it read the bytes. */
export function serviceMarkdown(source: Buffer): string {
  const digest = createHash('sha256').update(source).digest('hex');
  return `# Parsed by the service\n\nThe source had ${source.length} bytes with digest ${digest}.\n\n![figure one](images/figure-1.png)\n\nThe end of the document.\n`;
}

export async function startFakeParserService(options: { token?: string } = {}): Promise<FakeParserService> {
  const tasks = new Map<string, RemoteTask>();
  const scripts: TaskScript[] = [];
  let outage = false;
  let counter = 0;
  const sockets = new Set<Socket>();

  const send = (res: ServerResponse, status: number, payload: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(payload));
  };

  async function fetchSource(task: RemoteTask, url: string): Promise<void> {
    try {
      const response = await fetch(url);
      if (!response.ok) throw new Error(`HTTP ${response.status}`);
      task.markdown = serviceMarkdown(Buffer.from(await response.arrayBuffer()));
    } catch (error) {
      task.sourceError = `could not read ${url}: ${String(error)}`;
    }
  }

  function stateOf(task: RemoteTask): { state: string; err_msg?: string; images?: string[] } {
    task.polls++;
    const { script } = task;
    if (task.sourceError) return { state: 'failed', err_msg: task.sourceError };
    if (script.kind === 'fail') return { state: 'failed', err_msg: script.message };
    if (script.kind === 'hang' || (script.kind === 'held' && !task.released)) return { state: 'running' };
    if (task.markdown === null) return { state: 'running' };
    if (script.kind === 'success' && task.polls <= (script.polls ?? 1)) return { state: 'running' };
    return { state: 'done', images: Object.keys(script.kind === 'success' ? (script.images ?? {}) : {}) };
  }

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    if (outage) return send(res, 503, { msg: 'service unavailable' });
    if (options.token !== undefined && req.headers.authorization !== `Bearer ${options.token}`)
      return send(res, 401, { msg: 'unauthorized' });
    const url = req.url ?? '';
    if (req.method === 'POST' && url === '/tasks') {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as CreateRequest['body'];
      service.creates.push({ authorization: req.headers.authorization, body });
      const task: RemoteTask = {
        id: `remote-${++counter}`,
        dataId: String(body.data_id),
        script: scripts.shift() ?? { kind: 'success' },
        polls: 0,
        released: false,
        markdown: null,
        sourceError: null,
      };
      tasks.set(task.id, task);
      void fetchSource(task, String(body.url));
      return send(res, 200, { task_id: task.id });
    }
    const match = /^\/tasks\/([^/]+)(\/markdown|\/images\/([^/]+))?$/.exec(url);
    const task = match?.[1] ? tasks.get(decodeURIComponent(match[1])) : undefined;
    if (!match || !task) return send(res, 404, { msg: `no route ${req.method} ${url}` });
    if (match[2] === undefined) {
      service.polls.push(task.id);
      return send(res, 200, stateOf(task));
    }
    if (match[2] === '/markdown') {
      res.writeHead(200, { 'content-type': 'text/markdown; charset=utf-8' });
      return res.end(task.markdown ?? '');
    }
    const image = task.script.kind === 'success' ? task.script.images?.[decodeURIComponent(match[3] ?? '')] : undefined;
    if (!image) return send(res, 404, { msg: 'no such image' });
    res.writeHead(200, { 'content-type': 'image/png' });
    return res.end(image);
  };

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => send(res, 500, { msg: String(error) }));
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  const service: FakeParserService = {
    baseUrl: `http://127.0.0.1:${port}`,
    creates: [],
    polls: [],
    tasks: () => [...tasks.values()].map((t) => ({ id: t.id, dataId: t.dataId, polls: t.polls })),
    queueScripts: (...more) => scripts.push(...more),
    setOutage: (on) => {
      outage = on;
    },
    release: (taskId) => {
      const task = tasks.get(taskId);
      if (task) task.released = true;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
  return service;
}
