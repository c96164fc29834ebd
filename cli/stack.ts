import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { packageRoot } from '../config/packageRoot';
import type { StoresConfig } from '../config/storesConfig';

/**
 * The stack services (scripts/stack.sh) the chosen adapters use: the local profile needs Postgres,
 * Temporal and the model, and never waits for OpenSearch or SeaweedFS to build.
 */
export function stackServicesFor(stores: Readonly<StoresConfig>): string[] {
  const services = ['postgres', 'temporal'];
  if (stores.keywordIndex.kind === 'opensearch') services.push('opensearch');
  if (stores.objectStore.kind === 's3') services.push('seaweedfs');
  if (stores.embedder.kind === 'local-model') services.push('model');
  return services;
}

/** Runs the one stack script, which installs and starts what is missing of the adapters' services. */
export function startLocalStack(stores: Readonly<StoresConfig>): void {
  const script = path.join(packageRoot(), 'scripts', 'stack.sh');
  const result = spawnSync('bash', [script, 'start', ...stackServicesFor(stores)], { stdio: 'inherit' });
  if (result.status !== 0) throw new Error('the local stack did not start (see the stack: line above)');
}
