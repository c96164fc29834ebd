import { loadConfig } from '../../config/config';
import { migrateToLatest } from '../../db/migrate';
import { createAdapters } from '../../worker/adapters';
import { connectClient } from '../ingestClient';
import { buildApiServer } from './server';

/** The API process: `sluice serve`. It runs no worker; start one with `npm run worker`. */
export async function runApiServer(): Promise<void> {
  const config = loadConfig();
  const adapters = createAdapters(config);
  const client = await connectClient(config);
  try {
    await migrateToLatest(adapters.db);
    await adapters.ensureReady();
    const { app } = await buildApiServer({ config, adapters, client });
    await app.listen({ host: config.api.host, port: config.api.port });
    app.log.info(`sluice API on http://${config.api.host}:${config.api.port} (admin page /admin, OpenAPI /openapi.json)`);
    await new Promise<void>((resolve) => {
      const stop = () => resolve();
      process.once('SIGINT', stop);
      process.once('SIGTERM', stop);
    });
    await app.close();
  } finally {
    await client.connection.close();
    await adapters.close();
  }
}
