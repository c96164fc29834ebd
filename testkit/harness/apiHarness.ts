import { randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import type { SluiceConfig } from '../../config/config';
import { createUserWithKey } from '../../api/apiKeys';
import { buildApiServer, type ApiServer } from '../../api/server';
import { eventually } from './ingestHelpers';
import { testConfig } from './testConfig';
import { startTestWorker, type TestWorker } from './testWorker';

export interface ApiHarness {
  tw: TestWorker;
  api: ApiServer;
  baseUrl: string;
  /** Another API server over the same worker and stores, with a different config (limits, quotas). */
  variant(
    change: (config: Readonly<SluiceConfig>) => SluiceConfig,
    adapters?: TestWorker['adapters'],
  ): Promise<{ baseUrl: string; close(): Promise<void> }>;
  close(): Promise<void>;
}

/**
 * A real worker (dev server, Postgres, local stores) and the real API server on an ephemeral
 * port. The API shares the worker's client and adapters only because both live in this test
 * process: the API code itself never runs an activity.
 */
export async function startApi(overrides: Record<string, string> = {}): Promise<ApiHarness> {
  const tw = await startTestWorker({ config: testConfig(overrides) });
  const servers: ApiServer[] = [];
  const listen = async (config: Readonly<SluiceConfig>, adapters = tw.adapters) => {
    const server = await buildApiServer({ config, adapters, client: tw.client }, { logger: false });
    await server.app.listen({ host: '127.0.0.1', port: 0 });
    servers.push(server);
    const address = server.app.server.address() as net.AddressInfo;
    return { server, baseUrl: `http://127.0.0.1:${address.port}` };
  };
  const main = await listen(tw.config);
  return {
    tw,
    api: main.server,
    baseUrl: main.baseUrl,
    async variant(change, adapters) {
      const { server, baseUrl } = await listen(change(tw.config), adapters);
      return { baseUrl, close: () => server.app.close() };
    },
    async close() {
      for (const server of servers) await server.app.close();
      await tw.shutdown();
    },
  };
}

export interface TestUser {
  userId: string;
  apiKey: string;
  auth: { authorization: string };
}

export async function newUser(h: ApiHarness, prefix = 'user'): Promise<TestUser> {
  const userId = `${prefix}-${randomUUID()}`;
  const { apiKey } = await createUserWithKey(h.tw.adapters.db, userId);
  return { userId, apiKey, auth: { authorization: `Bearer ${apiKey}` } };
}

export function fileForm(
  files: { name: string; content: Buffer | string }[],
  field = files.length === 1 ? 'file' : 'files',
): FormData {
  const form = new FormData();
  for (const f of files) form.append(field, new Blob([Buffer.from(f.content)]), f.name);
  return form;
}

export interface JsonResponse<T = unknown> {
  status: number;
  body: T;
  headers: Headers;
  ms: number;
}

export async function call<T = Record<string, unknown>>(
  baseUrl: string,
  method: string,
  url: string,
  options: { user?: TestUser; body?: FormData | unknown; headers?: Record<string, string> } = {},
): Promise<JsonResponse<T>> {
  const headers: Record<string, string> = { ...(options.user?.auth ?? {}), ...(options.headers ?? {}) };
  let body: FormData | string | undefined;
  if (options.body instanceof FormData) body = options.body;
  else if (options.body !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(options.body);
  }
  const started = performance.now();
  const response = await fetch(`${baseUrl}${url}`, { method, headers, body });
  const text = await response.text();
  const ms = performance.now() - started;
  let parsed: unknown = text;
  if ((response.headers.get('content-type') ?? '').includes('application/json')) parsed = JSON.parse(text);
  return { status: response.status, body: parsed as T, headers: response.headers, ms };
}

export type DocumentBody = {
  documentId: string;
  fileName: string;
  pipelineStatus: string;
  taskId: string | null;
  stages: { stage: string; status: string; ms: number | null }[];
  chunks: { active: number; dense: number; sparse: number; keyword: number };
  failure: { code: string; reason: string | null; stage: string | null } | null;
  lifecycle: string;
  workflowUrl: string;
};

/** Polls GET /v1/documents/{id} until the pipeline is SUCCESS or FAILED (optionally of a given task). */
export async function waitForDocument(
  h: ApiHarness,
  user: TestUser,
  documentId: string,
  taskId?: string,
): Promise<DocumentBody> {
  const response = await eventually(
    () => call<DocumentBody>(h.baseUrl, 'GET', `/v1/documents/${documentId}`, { user }),
    (r) =>
      r.status === 200 &&
      (taskId === undefined || r.body.taskId === taskId) &&
      ['SUCCESS', 'FAILED'].includes(r.body.pipelineStatus),
    120_000,
    200,
  );
  return response.body;
}

/** The files uploads left under the objects directory for the user. */
export async function objectFilesOf(config: Readonly<SluiceConfig>, userId: string): Promise<string[]> {
  const encoded = userId.replace(/[^A-Za-z0-9_-]/g, (ch) => `.${ch.charCodeAt(0).toString(16).padStart(4, '0')}`);
  const dir = path.join(config.objectsDir, 'documents', encoded);
  const entries = await fs.readdir(dir, { recursive: true, withFileTypes: true }).catch(() => []);
  // Only what uploads write (sources, partial files): markdown and token plans are written later
  // by pipelines of earlier tests that may still be running, and would make comparisons racy.
  return entries
    .filter((e) => e.isFile())
    .map((e) => path.join(e.parentPath, e.name))
    .filter((file) => !/[/\\](markdown|tokens)[/\\]/.test(file));
}

/** A free TCP port on loopback (for the Temporal Runtime's Prometheus endpoint). */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}
