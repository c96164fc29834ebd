/**
 * Failure text has two readers. Tenants read failure_reason (the API, the admin page, the CLI):
 * it gets the code and a message with no URL, address or host name in it. Operators read the
 * worker log: it gets the details (provider answers, hosts), but never credentials.
 */

/** Longest text we scan: the reason is cut to 512 characters anyway, and bounding keeps each pass linear and cheap. */
const SCAN_MAX = 4000;

const URL_PATTERN = /\b[a-z][a-z0-9+.-]{0,20}:\/\/[^\s"'<>()[\]{}]*/gi;
const USERINFO_PATTERN = /\b([a-z][a-z0-9+.-]{0,20}:\/\/)[^\s"'<>/@]*@/gi;
const BEARER_PATTERN = /\b(bearer|basic)\s+[^\s"',;]+/gi;
// A presigned URL's query is a credential: whoever holds it reads the object until it expires.
const PRESIGNED_PATTERN = /\b(X-Amz-(?:Signature|Credential|Security-Token))=[^&\s"'<>]*/gi;
const IPV4_PATTERN = /\b\d{1,3}(?:\.\d{1,3}){3}(?::\d{1,5})?\b/g;
const BRACKETED_IPV6_PATTERN = /\[[0-9a-f:.%]{2,60}\](?::\d{1,5})?/gi;
const IPV6_PATTERN = /(?<![\w:])(?:[0-9a-f]{0,4}:){2,7}[0-9a-f]{1,4}(?:%\w{1,20})?/gi;
const HOST_PORT_PATTERN = /\b[a-z0-9-]{1,63}(?:\.[a-z0-9-]{1,63}){1,10}:\d{2,5}\b/gi;
const DNS_FAILURE_PATTERN = /\b(ENOTFOUND|EAI_AGAIN|EAI_NONAME|EAI_FAIL)\s+[^\s,;)]+/g;

const bounded = (text: string) => (text.length > SCAN_MAX ? `${text.slice(0, SCAN_MAX)}…` : text);

/** For the log: the text with URL credentials and bearer/basic tokens blanked. */
export function redactCredentials(text: string): string {
  return bounded(text)
    .replace(USERINFO_PATTERN, '$1[redacted]@')
    .replace(BEARER_PATTERN, '$1 [redacted]')
    .replace(PRESIGNED_PATTERN, '$1=[redacted]');
}

/** For tenants: no credentials, URLs, IP addresses, host:port pairs or names a DNS lookup failed on. */
export function safeForTenant(text: string): string {
  return redactCredentials(text)
    .replace(URL_PATTERN, '[url]')
    .replace(BRACKETED_IPV6_PATTERN, '[address]')
    .replace(IPV4_PATTERN, '[address]')
    .replace(IPV6_PATTERN, '[address]')
    .replace(HOST_PORT_PATTERN, '[address]')
    .replace(DNS_FAILURE_PATTERN, '$1 [host]');
}

/** An error and its causes, one line each, for the log (credentials blanked). */
export function describeForLog(error: unknown): string {
  const lines: string[] = [];
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current !== undefined && current !== null; depth++) {
    const line = current instanceof Error ? `${current.name}: ${current.message}` : String(current);
    lines.push(redactCredentials(line));
    current = current instanceof Error ? current.cause : undefined;
  }
  return lines.join('\n  caused by ');
}
