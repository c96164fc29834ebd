import type { TemporalConnectionSettings } from './temporalConnectionConfig';

/**
 * The options both SDK connections (the client's Connection, the worker's NativeConnection)
 * take, from the one resolved setting, so the worker, the API, the CLI, the benches and the
 * tests all connect alike.
 */
export function connectionOptions(settings: TemporalConnectionSettings) {
  return {
    address: settings.address,
    tls: settings.tls,
    ...(settings.apiKey ? { apiKey: settings.apiKey } : {}),
    ...(settings.metadata ? { metadata: settings.metadata } : {}),
  };
}

/** Names the server and what was offered, so a refused handshake says what was tried; no secret. */
export function connectionFailure(settings: TemporalConnectionSettings, error: unknown): Error {
  const offered = [settings.tls === false ? 'without TLS' : 'with TLS'];
  if (typeof settings.tls === 'object' && settings.tls.clientCertPair) offered.push('client certificate');
  if (settings.apiKey) offered.push('API key');
  const reason = error instanceof Error ? error.message : String(error);
  return new Error(`cannot connect to Temporal at ${settings.address} (${offered.join(', ')}): ${reason}`, {
    cause: error,
  });
}
