import { z } from 'zod';
import type { FailureCode } from '../contracts/failureCodes';
import { permanentError, transientError } from '../contracts/sluiceError';
import { isRetryableStatus, statusSummary } from '../embedders/providerHttp';
import { readCappedText, ResponseTooLargeError } from '../outbound/cappedBody';
import { fetchErrorCode, outboundFetch, OutboundRefusedError, type OutboundPolicy } from '../outbound/outboundHttp';

/** A user's chat or vision model on an OpenAI-compatible `/chat/completions` endpoint. */
export interface ChatModelSettings {
  baseUrl: string;
  model: string;
  apiKey: string | null;
}

export type ChatContent =
  string | ({ type: 'text'; text: string } | { type: 'image_url'; image_url: { url: string } })[];

export interface ChatMessage {
  role: 'system' | 'user';
  content: ChatContent;
}

export interface ChatCallOptions {
  outbound: OutboundPolicy;
  maxResponseBytes: number;
  /** The stage's code every failure carries (retryable or not). */
  code: FailureCode;
  timeoutMs?: number;
}

const completionSchema = z.object({
  choices: z.array(z.object({ message: z.object({ content: z.string() }) })).min(1),
});

/**
 * One chat completion; the model's reply is returned as text and nothing else is read from it.
 * The answer is size-capped; the endpoint is called under the outbound policy (no redirects, no
 * private addresses unless allowed). Messages name the status, never the endpoint or the key.
 */
export async function completeChat(
  settings: ChatModelSettings,
  messages: ChatMessage[],
  options: ChatCallOptions,
): Promise<string> {
  const { code } = options;
  let response;
  try {
    response = await outboundFetch(options.outbound, `${settings.baseUrl.replace(/\/+$/, '')}/chat/completions`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        ...(settings.apiKey ? { authorization: `Bearer ${settings.apiKey}` } : {}),
      },
      body: JSON.stringify({ model: settings.model, messages, temperature: 0 }),
      signal: AbortSignal.timeout(options.timeoutMs ?? 120_000),
    });
  } catch (error) {
    if (error instanceof OutboundRefusedError)
      throw permanentError(code, `the model endpoint: ${error.message}`, error);
    throw transientError(code, `the model endpoint: ${fetchErrorCode(error)}`, error);
  }
  if (!response.ok) {
    await response.body?.cancel().catch(() => undefined);
    const message = `the model endpoint answered ${statusSummary(response.status)}`;
    throw isRetryableStatus(response.status) ? transientError(code, message) : permanentError(code, message);
  }
  let text: string;
  try {
    text = (await readCappedText(response, options.maxResponseBytes)).text;
  } catch (error) {
    if (error instanceof ResponseTooLargeError)
      throw transientError(code, `the model's answer is larger than ${options.maxResponseBytes} bytes`);
    throw transientError(code, 'the model endpoint broke off its answer', error);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text) as unknown;
  } catch {
    throw transientError(code, 'the model endpoint answered something other than JSON');
  }
  const completion = completionSchema.safeParse(parsed);
  if (!completion.success) throw transientError(code, 'the model endpoint answered without a message');
  return completion.data.choices[0]?.message.content ?? '';
}
