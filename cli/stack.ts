import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { packageRoot } from '../config/packageRoot';
import type { SluiceConfig } from '../config/config';

/**
 * The stack services (scripts/stack.sh) the chosen adapters use: the local profile needs Postgres,
 * Temporal, the model and the bge models of the second dense vector (unless it is off), so a first
 * demo searches the way the retrieval eval measures; it never waits for OpenSearch or SeaweedFS to build.
 */
export function stackServicesFor(config: Pick<Readonly<SluiceConfig>, 'stores' | 'embedding'>): string[] {
  const { stores } = config;
  const services = ['postgres', 'temporal'];
  if (stores.keywordIndex.kind === 'opensearch') services.push('opensearch');
  if (stores.objectStore.kind === 's3') services.push('seaweedfs');
  if (stores.embedder.kind === 'local-model') services.push('model');
  if (config.embedding.languageDense !== 'off') services.push('bge');
  return services;
}

/** Runs the one stack script, which installs and starts what is missing of the adapters' services. */
export function startLocalStack(config: Pick<Readonly<SluiceConfig>, 'stores' | 'embedding'>): void {
  const script = path.join(packageRoot(), 'scripts', 'stack.sh');
  const result = spawnSync('bash', [script, 'start', ...stackServicesFor(config)], { stdio: 'inherit' });
  if (result.status !== 0) throw new Error('the local stack did not start (see the stack: line above)');
}
