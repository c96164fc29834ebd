import type { Client } from '@temporalio/client';
import type { SluiceConfig } from '../config/config';
import type { Adapters } from '../composition/adapters';
import type { ApiMetrics } from './metrics';

/** What every route group needs. The API only stores uploads, starts/signals workflows and reads state. */
export interface ApiContext {
  config: Readonly<SluiceConfig>;
  adapters: Adapters;
  client: Client;
  metrics: ApiMetrics;
}
