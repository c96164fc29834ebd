import { statusSummary } from '../embedders/providerHttp';
import { readCappedText, ResponseTooLargeError } from '../outbound/cappedBody';
import { fetchErrorCode, outboundFetch, OutboundRefusedError, type OutboundPolicy } from '../outbound/outboundHttp';
import { parseRerankAnswer, RerankAnswerError, rerankRequestBody, type RerankShape } from './rerankProtocol';

/** A user's reranker: where it is, which shape it speaks, and its key (unsealed for the call). */
export interface RerankerSettings {
  baseUrl: string;
  model: string;
  shape: RerankShape;
  apiKey: string | null;
}

export interface RerankCallOptions {
  outbound: OutboundPolicy;
  timeoutMs: number;
  maxResponseBytes: number;
}

/**
 * The reranker could not score the texts. `reason` names no host or key: it goes into the search
 * response, which says the fused order was kept and why.
 */
export class RerankFailedError extends Error {
  override readonly name = 'RerankFailedError';
  constructor(readonly reason: string) {
    super(`the reranker failed: ${reason}`);
  }
}

/**
 * Scores `texts` against `query` in one call under the outbound policy (no redirects, no private
 * addresses unless allowed), the answer size-capped and the call cut at `timeoutMs`. Each score is
 * on 0..1 by the text's index, null for a text the answer left out (rerank/rerankProtocol.ts).
 */
export async function callReranker(
  settings: RerankerSettings,
  query: string,
  texts: string[],
  options: RerankCallOptions,
): Promise<(number | null)[]> {
  let response;
  try {
    response = await outboundFetch(options.outbound, `${settings.baseUrl.replace(/\/+$/, '')}/rerank`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        ...(settings.apiKey ? { authorization: `Bearer ${settings.apiKey}` } : {}),
      },
      body: JSON.stringify(rerankRequestBody(settings.shape, settings.model, query, texts)),
      signal: AbortSignal.timeout(options.timeoutMs),
    });
  } catch (error) {
    if (error instanceof OutboundRefusedError) throw new RerankFailedError(error.message);
    const code = fetchErrorCode(error);
    throw new RerankFailedError(code === 'TIMEOUT' ? `no answer within ${options.timeoutMs} ms` : code);
  }
  if (!response.ok) {
    await response.body?.cancel().catch(() => undefined);
    throw new RerankFailedError(`it answered ${statusSummary(response.status)}`);
  }
  let text: string;
  try {
    text = (await readCappedText(response, options.maxResponseBytes)).text;
  } catch (error) {
    if (error instanceof ResponseTooLargeError)
      throw new RerankFailedError(`its answer is larger than ${options.maxResponseBytes} bytes`);
    const code = fetchErrorCode(error);
    throw new RerankFailedError(
      code === 'TIMEOUT' ? `no answer within ${options.timeoutMs} ms` : 'it broke off its answer',
    );
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text) as unknown;
  } catch {
    throw new RerankFailedError('it answered something other than JSON');
  }
  try {
    return parseRerankAnswer(settings.shape, parsed, texts.length);
  } catch (error) {
    if (error instanceof RerankAnswerError) throw new RerankFailedError(error.message);
    throw error;
  }
}
