import type { Client } from '@temporalio/client';
import type { SluiceConfig } from '../config/config';
import type { Adapters } from '../composition/adapters';
import type { ApiMetrics } from './metrics';
import type { TenantLimiter } from './tenantLimiter';

/** What every route group needs. The API only stores uploads, starts/signals workflows and reads state. */
export interface ApiContext {
  config: Readonly<SluiceConfig>;
  adapters: Adapters;
  client: Client;
  metrics: ApiMetrics;
  /** Per-user caps shared by every route of a kind: a hit test is a search, both `/test` routes call a provider. */
  limiters: { searches: TenantLimiter; providerTests: TenantLimiter };
}
