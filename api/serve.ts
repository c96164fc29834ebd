import type { Client } from '@temporalio/client';
import { openAdapters, type Adapters } from '../composition/adapters';
import { loadConfig, type SluiceConfig } from '../config/config';
import { connectClient } from '../client/ingestClient';
import { buildApiServer } from './server';

/** The API process: `sluice serve`. It runs no worker; start one with `npm run worker`. */
export async function runApiServer(): Promise<void> {
  const config = loadConfig();
  const adapters = await openAdapters(config);
  try {
    const client = await connectClient(config);
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
