import type { Client } from '@temporalio/client';
import type { Adapters } from '../composition/adapters';
import type { SluiceConfig } from '../config/config';

// Every module beyond commander loads inside the action that needs it: `sluice --help` and
// `sluice status` stay well under a second instead of loading the worker, parsers and adapters.

let loadedConfig: SluiceConfig | undefined;
export async function config(): Promise<SluiceConfig> {
  loadedConfig ??= (await import('../config/config.js')).loadConfig();
  return loadedConfig;
}

/** The user an option names, else the deployment's default user (SLUICE_USER_ID). */
export async function userOf(opts: { user?: string }): Promise<string> {
  return opts.user ?? (await config()).defaultUserId;
}

export async function withAdapters<T>(run: (adapters: Adapters, cfg: SluiceConfig) => Promise<T>): Promise<T> {
  const cfg = await config();
  const { openAdapters } = await import('../composition/adapters.js');
  const adapters = await openAdapters(cfg);
  try {
    return await run(adapters, cfg);
  } finally {
    await adapters.close();
  }
}

export async function withClient<T>(cfg: SluiceConfig, run: (client: Client) => Promise<T>): Promise<T> {
  const { connectClient } = await import('../client/ingestClient.js');
  const client = await connectClient(cfg);
  try {
    return await run(client);
  } finally {
    await client.connection.close();
  }
}

export const userHelp = ['-u, --user <id>', 'user the documents belong to (default: SLUICE_USER_ID)'] as const;
