import dns from 'node:dns';
import net from 'node:net';
import { Agent, fetch, type Response } from 'undici';
import { isPrivateAddress } from './privateAddress';

/**
 * The one way sluice calls URLs that users choose (embedding providers, the result webhook):
 * no redirect is followed (a 307 would re-send the body, API key included, to another host), and
 * private, loopback and link-local addresses are refused unless the policy allows them. A host
 * name is resolved once, every address it resolves to is checked, and the connection goes to
 * those checked addresses, so a DNS answer that changes between check and connect cannot
 * slip through (DNS rebinding).
 */
export interface OutboundPolicy {
  /** SLUICE_OUTBOUND_ALLOW_PRIVATE: false by default on every profile (tenants choose these URLs). */
  allowPrivate: boolean;
  /**
   * SLUICE_OUTBOUND_ALLOW_HOSTS: hosts (`name` or `name:port`, IP literals too) that may be private,
   * such as a provider inside the cluster. Matched against the URL's host as written.
   */
  allowHosts?: readonly string[];
}

export type OutboundRefusal = 'redirect' | 'private-address' | 'scheme' | 'invalid-url';

/** A request the policy refused. `message` names no host or address; `detail` does, for the log only. */
export class OutboundRefusedError extends Error {
  override readonly name = 'OutboundRefusedError';

  constructor(
    readonly refusal: OutboundRefusal,
    message: string,
    readonly detail: string,
  ) {
    super(message);
  }
}

const PRIVATE_MESSAGE =
  'the address is private, loopback or link-local, and outbound requests there are not allowed (SLUICE_OUTBOUND_ALLOW_HOSTS)';

const privateAddress = (detail: string) => new OutboundRefusedError('private-address', PRIVATE_MESSAGE, detail);

/** dns.lookup, refusing a name if any of its addresses is private; net.connect then uses exactly these addresses. */
const checkedLookup: net.LookupFunction = (hostname, options, callback) => {
  dns.lookup(hostname, { ...options, all: true }, (error, addresses) => {
    if (error) return callback(error, '', 0);
    const refused = addresses.filter((a) => isPrivateAddress(a.address));
    if (refused.length > 0)
      return callback(privateAddress(`${hostname} resolves to ${refused.map((a) => a.address).join(', ')}`), '', 0);
    const [first] = addresses;
    if (!first) return callback(Object.assign(new Error(`no address for ${hostname}`), { code: 'ENOTFOUND' }), '', 0);
    if (options.all) return callback(null, addresses);
    return callback(null, first.address, first.family);
  });
};

// Two connection pools, shared by every client in the process: one that checks every address,
// and one for URLs the policy lets reach private addresses.
const agents = new Map<boolean, Agent>();
function agentFor(mayBePrivate: boolean): Agent {
  let agent = agents.get(mayBePrivate);
  if (!agent) {
    agent = new Agent(mayBePrivate ? {} : { connect: { lookup: checkedLookup } });
    agents.set(mayBePrivate, agent);
  }
  return agent;
}

const defaultPort = (url: URL) => url.port || (url.protocol === 'https:' ? '443' : '80');

/** True when the policy lets this URL reach private addresses: all of them, or its host is allow-listed. */
export function mayReachPrivate(url: URL, policy: OutboundPolicy): boolean {
  if (policy.allowPrivate) return true;
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1').toLowerCase();
  return (policy.allowHosts ?? []).some((entry) => {
    const bracketed = /^\[([^\]]+)\](?::(\d+))?$/.exec(entry);
    const plain = /^([^:]+)(?::(\d+))?$/.exec(entry);
    const [, name, port] = bracketed ?? plain ?? [undefined, entry];
    return name?.toLowerCase() === host && (port === undefined || port === defaultPort(url));
  });
}

/** Refuses what can be refused before connecting: another scheme, or a private IP literal (which skips the lookup). */
function checkUrl(url: URL, mayBePrivate: boolean): void {
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new OutboundRefusedError('scheme', 'only http and https URLs are allowed', `scheme ${url.protocol}`);
  }
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  if (!mayBePrivate && net.isIP(host) !== 0 && isPrivateAddress(host))
    throw privateAddress(`${host} is a private address`);
}

/** The policy's refusal inside a failed fetch (fetch wraps connect errors in a TypeError's cause). */
function refusalIn(error: unknown): OutboundRefusedError | null {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current; depth++) {
    if (current instanceof OutboundRefusedError) return current;
    current = (current as { cause?: unknown }).cause;
  }
  return null;
}

/** A fetch failure as a code that names no host (`ECONNREFUSED`, `ENOTFOUND`, `UND_ERR_SOCKET`), for messages users see. */
export function fetchErrorCode(error: unknown): string {
  let current: unknown = error;
  for (let depth = 0; depth < 4 && current && typeof current === 'object'; depth++) {
    if ((current as { name?: unknown }).name === 'TimeoutError') return 'TIMEOUT';
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && /^[A-Z][A-Z0-9_]{1,40}$/.test(code)) return code;
    current = (current as { cause?: unknown }).cause;
  }
  return 'unknown';
}

export interface OutboundRequest {
  method: 'GET' | 'POST';
  headers: Record<string, string>;
  body?: string;
  signal?: AbortSignal;
}

/**
 * fetch under the policy. Resolves with any non-redirect response (the caller judges its
 * status); rejects with OutboundRefusedError for a refused request or a 3xx answer, and with
 * fetch's own errors otherwise.
 */
export async function outboundFetch(
  policy: OutboundPolicy,
  target: string,
  request: OutboundRequest,
): Promise<Response> {
  let url: URL;
  try {
    url = new URL(target);
  } catch {
    throw new OutboundRefusedError('invalid-url', 'the URL is not valid', 'the URL cannot be parsed');
  }
  const mayBePrivate = mayReachPrivate(url, policy);
  checkUrl(url, mayBePrivate);
  let response: Response;
  try {
    response = await fetch(url, { ...request, redirect: 'manual', dispatcher: agentFor(mayBePrivate) });
  } catch (error) {
    throw refusalIn(error) ?? error;
  }
  if (response.status >= 300 && response.status < 400) {
    await response.body?.cancel();
    throw new OutboundRefusedError(
      'redirect',
      `the server answered HTTP ${response.status} (a redirect), which is not followed`,
      `HTTP ${response.status} to ${response.headers.get('location') ?? '(no Location)'}`,
    );
  }
  return response;
}
