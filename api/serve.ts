import type { Client } from '@temporalio/client';
import { openAdapters, type Adapters } from '../composition/adapters';
import { untilAvailable } from '../composition/untilAvailable';
import { loadConfig, type SluiceConfig } from '../config/config';
import { connectClient } from '../client/ingestClient';
import { buildApiServer } from './server';

/** The API process: `sluice serve`. It runs no worker; start one with `npm run worker`. */
export async function runApiServer(): Promise<void> {
  const config = loadConfig();
  // Started during an outage (a restart of the whole deployment), the API waits for its dependencies.
  const adapters = await untilAvailable('opening the stores', () => openAdapters(config), console.warn);
  try {
    const client = await untilAvailable('connecting to Temporal', () => connectClient(config), console.warn);
    try {
      await listenUntilSignalled(config, adapters, client);
    } finally {
      await client.connection.close();
    }
  } finally {
    await adapters.close();
  }
}

async function listenUntilSignalled(config: Readonly<SluiceConfig>, adapters: Adapters, client: Client): Promise<void> {
  const { app } = await buildApiServer({ config, adapters, client });
  await app.listen({ host: config.api.host, port: config.api.port });
  app.log.info(`sluice API on http://${config.api.host}:${config.api.port} (admin page /admin, OpenAPI /openapi.json)`);
  await new Promise<void>((resolve) => {
    const stop = () => resolve();
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
  await app.close();
}
