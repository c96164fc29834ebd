import type { Response } from 'undici';
import { readCappedBytes, ResponseTooLargeError } from '../../outbound/cappedBody';
import { fetchErrorCode, outboundFetch, OutboundRefusedError, type OutboundPolicy } from '../../outbound/outboundHttp';
import { parseRobots, ROBOTS_AGENT, type RobotsRule } from './robotsTxt';
import { SourceUnavailable } from './sourceReader';

/** Names sluice's product token, so a site's robots.txt group for `sluice` is the one it means for us. */
const USER_AGENT = `${ROBOTS_AGENT} (document source sync)`;
const LISTING_TIMEOUT_MS = 30_000;
const ROBOTS_CAP_BYTES = 500_000;

/**
 * GET through the outbound policy with a timeout (the body's read included). A redirect is not
 * followed (outboundFetch never does): 'redirect' lets the caller skip or refuse it. A policy
 * refusal is permanent; a network failure or timeout transient.
 */
export async function webGet(
  policy: OutboundPolicy,
  url: string,
  timeoutMs = LISTING_TIMEOUT_MS,
): Promise<Response | 'redirect'> {
  try {
    return await outboundFetch(policy, url, {
      method: 'GET',
      headers: { 'user-agent': USER_AGENT, accept: '*/*' },
      signal: AbortSignal.timeout(timeoutMs),
    });
  } catch (error) {
    if (error instanceof OutboundRefusedError) {
      if (error.refusal === 'redirect') return 'redirect';
      throw new SourceUnavailable(`${url}: ${error.message}`, true);
    }
    throw new SourceUnavailable(`${url} could not be fetched (${fetchErrorCode(error)})`, false, { cause: error });
  }
}

/** A status that answers no page: waited for when the server is busy or failing, permanent otherwise. */
export function statusFailure(status: number, what: string): SourceUnavailable {
  const transient = status === 408 || status === 429 || status >= 500;
  return new SourceUnavailable(`${what}: HTTP ${status}`, !transient);
}

/** The body, at most `capBytes` (ResponseTooLargeError past it); a read cut off by the network is transient. */
export async function readBody(response: Response, capBytes: number, what: string): Promise<Buffer> {
  try {
    return (await readCappedBytes(response, capBytes)).body;
  } catch (error) {
    if (error instanceof ResponseTooLargeError) throw error;
    throw new SourceUnavailable(`${what} could not be read (${fetchErrorCode(error)})`, false, { cause: error });
  }
}

/**
 * The robots.txt rules of `origin` for sluice. None there (a 4xx, or a redirect, which is not
 * followed) allows everything; a server error is waited for, as crawlers do, rather than read as
 * permission.
 */
export async function robotsOf(policy: OutboundPolicy, origin: string): Promise<RobotsRule[]> {
  const url = `${origin}/robots.txt`;
  const response = await webGet(policy, url);
  if (response === 'redirect') return [];
  if (!response.ok) {
    await response.body?.cancel();
    const failure = statusFailure(response.status, url);
    if (failure.permanent) return [];
    throw failure;
  }
  const body = await readBody(response, ROBOTS_CAP_BYTES, url).catch((error: unknown) => {
    if (error instanceof ResponseTooLargeError) throw new SourceUnavailable(`${url} is too large`, true);
    throw error;
  });
  return parseRobots(body.toString('utf8'));
}

/** An http(s) URL without its fragment (the same page), or null for anything else. */
export function pageUrl(raw: string, base?: string): string | null {
  try {
    const url = new URL(raw, base);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
    url.hash = '';
    return url.href;
  } catch {
    return null;
  }
}
