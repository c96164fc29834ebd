import { permanentError, transientError, type SluiceError } from '../contracts/sluiceError';
import { readCappedBytes, readCappedText, ResponseTooLargeError } from '../outbound/cappedBody';
import { fetchErrorCode, outboundFetch, OutboundRefusedError, type OutboundPolicy } from '../outbound/outboundHttp';
import { isRetryableStatus, statusSummary } from '../embedders/providerHttp';
import { createdTaskSchema, taskStatusSchema, type RemoteTaskStatus } from './protocol';

export interface ParserServiceOptions {
  baseUrl: string;
  token: string | null;
  outbound: OutboundPolicy;
  /** Per request: a call that hangs is cut and counts as the service being unavailable. */
  requestTimeoutMs?: number;
}

export interface CreateTaskRequest {
  /** The presigned source URL: a bearer secret, sent in the body only, never in a message. */
  sourceUrl: string;
  fileName: string;
  fileType: string;
  dataId: string;
}

export interface ParserServiceClient {
  createTask(request: CreateTaskRequest): Promise<string>;
  getTask(remoteTaskId: string): Promise<RemoteTaskStatus>;
  getMarkdown(remoteTaskId: string, capBytes: number): Promise<string>;
  getImage(remoteTaskId: string, name: string, capBytes: number): Promise<Buffer>;
}

const STATUS_BODY_CAP = 64 * 1024;

/**
 * Every failure is PARSE_ENGINE_FAILED: retryable for what may pass (network, timeouts, 408, 429,
 * 5xx), permanent for a refusal (other 4xx, a policy refusal, an answer outside the protocol).
 * Messages name the step and the status, never the service's address or the source URL.
 */
export function createParserServiceClient(options: ParserServiceOptions): ParserServiceClient {
  const timeoutMs = options.requestTimeoutMs ?? 30_000;
  const headers = (json: boolean): Record<string, string> => ({
    ...(json ? { 'content-type': 'application/json' } : {}),
    ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
  });

  async function call(step: string, path: string, init: { method: 'GET' | 'POST'; body?: string }) {
    let response;
    try {
      response = await outboundFetch(options.outbound, `${options.baseUrl}${path}`, {
        method: init.method,
        headers: headers(init.body !== undefined),
        body: init.body,
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (error) {
      if (error instanceof OutboundRefusedError)
        throw permanentError('PARSE_ENGINE_FAILED', `parsing service ${step}: ${error.message}`, error);
      throw transientError('PARSE_ENGINE_FAILED', `parsing service ${step}: ${fetchErrorCode(error)}`, error);
    }
    if (response.ok) return response;
    await response.body?.cancel().catch(() => undefined);
    const message = `parsing service ${step}: ${statusSummary(response.status)}`;
    throw isRetryableStatus(response.status)
      ? transientError('PARSE_ENGINE_FAILED', message)
      : permanentError('PARSE_ENGINE_FAILED', message);
  }

  async function readJson(step: string, response: Awaited<ReturnType<typeof call>>): Promise<unknown> {
    const text = await readCapped(step, () => readCappedText(response, STATUS_BODY_CAP));
    try {
      return JSON.parse(text.text) as unknown;
    } catch {
      throw outsideProtocol(step, 'the answer is not JSON');
    }
  }

  const taskPath = (id: string) => `/tasks/${encodeURIComponent(id)}`;

  return {
    async createTask(request) {
      const body = JSON.stringify({
        url: request.sourceUrl,
        file_name: request.fileName,
        file_type: request.fileType,
        data_id: request.dataId,
      });
      const json = await readJson('create task', await call('create task', '/tasks', { method: 'POST', body }));
      const parsed = createdTaskSchema.safeParse(json);
      if (!parsed.success) throw outsideProtocol('create task', 'no valid task_id in the answer');
      return parsed.data.task_id;
    },

    async getTask(remoteTaskId) {
      const json = await readJson('task status', await call('task status', taskPath(remoteTaskId), { method: 'GET' }));
      const parsed = taskStatusSchema.safeParse(json);
      if (!parsed.success) throw outsideProtocol('task status', 'the answer has no valid state');
      return parsed.data;
    },

    async getMarkdown(remoteTaskId, capBytes) {
      const response = await call('markdown', `${taskPath(remoteTaskId)}/markdown`, { method: 'GET' });
      return (await readCapped('markdown', () => readCappedText(response, capBytes), 'FILE_TOO_LARGE')).text;
    },

    async getImage(remoteTaskId, name, capBytes) {
      const response = await call('image', `${taskPath(remoteTaskId)}/images/${encodeURIComponent(name)}`, {
        method: 'GET',
      });
      return (await readCapped('image', () => readCappedBytes(response, capBytes), 'FILE_TOO_LARGE')).body;
    },
  };
}

/**
 * A body past its cap: the document's output (markdown, an image) is too large for its source,
 * FILE_TOO_LARGE; a status answer that large is the service breaking its protocol.
 */
async function readCapped<T>(
  step: string,
  read: () => Promise<T>,
  tooLarge: 'FILE_TOO_LARGE' | 'PARSE_ENGINE_FAILED' = 'PARSE_ENGINE_FAILED',
): Promise<T> {
  try {
    return await read();
  } catch (error) {
    if (error instanceof ResponseTooLargeError)
      throw permanentError(tooLarge, `parsing service ${step}: ${error.message}`);
    throw transientError('PARSE_ENGINE_FAILED', `parsing service ${step}: the answer broke off`, error);
  }
}

function outsideProtocol(step: string, what: string): SluiceError {
  return permanentError('PARSE_ENGINE_FAILED', `parsing service ${step}: ${what}`);
}
