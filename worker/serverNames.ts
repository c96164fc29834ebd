import type { SluiceConfig } from '../config/config';

/** The port a URL or `host:port` address connects to (its scheme's default when it names none). */
function portOf(address: string): number | null {
  try {
    const url = new URL(address.includes('://') ? address : `tcp://${address}`);
    if (url.port !== '') return Number(url.port);
    return url.protocol === 'https:' ? 443 : url.protocol === 'http:' ? 80 : null;
  } catch {
    return null;
  }
}

/**
 * The servers this worker was configured with, by port: a socket error says only which port it
 * failed on, and "waiting for Postgres" is what an operator reads. Two servers on one port (an
 * https default) stay unnamed: a wrong name is worse than none.
 */
export function serverNamesByPort(config: Readonly<SluiceConfig>): (port: number) => string | null {
  const named: [string | undefined, string][] = [
    [config.database.url, 'Postgres'],
    [config.temporal.connection.address, 'Temporal'],
    [config.stores.objectStore.kind === 's3' ? config.stores.objectStore.endpoint : undefined, 'the object store'],
    [config.stores.vectorStore.kind === 'qdrant' ? config.stores.vectorStore.url : undefined, 'Qdrant'],
    [config.stores.keywordIndex.kind === 'opensearch' ? config.stores.keywordIndex.url : undefined, 'OpenSearch'],
    [config.parserService?.url, 'the parsing service'],
  ];
  const byPort = new Map<number, string | null>();
  for (const [address, name] of named) {
    const port = address === undefined ? null : portOf(address);
    if (port === null) continue;
    byPort.set(port, byPort.has(port) && byPort.get(port) !== name ? null : name);
  }
  return (port) => byPort.get(port) ?? null;
}
