import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { loadConfig, type SluiceConfig } from '../../config/config';

export const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:54329/sluice_test';

/** Where `bash scripts/stack.sh start` installed the local embedding model (its `env` exports this). */
export const STACK_MODEL_DIR =
  process.env.SLUICE_MODEL_DIR ??
  path.join(process.env.SLUICE_DATA_DIR ?? path.resolve(__dirname, '..', '..', '.sluice'), 'models');

/**
 * A config for one test suite: the test database, a private data dir and task queue. The
 * hashing embedder and no second dense vector, explicitly: the local profile's default model costs seconds per document.
 * A suite that tests the model asks for it (SLUICE_EMBEDDER: 'local-model').
 */
export function testConfig(overrides: Record<string, string> = {}): Readonly<SluiceConfig> {
  const dataDir = path.join(os.tmpdir(), `sluice-test-${randomUUID()}`);
  return loadConfig({
    ...process.env,
    DATABASE_URL: TEST_DATABASE_URL,
    SLUICE_DATA_DIR: dataDir,
    SLUICE_EMBEDDER: 'local',
    // No second dense vector unless a suite asks for it: bge costs tens of milliseconds a chunk.
    SLUICE_LANGUAGE_DENSE: 'off',
    SLUICE_MODEL_DIR: STACK_MODEL_DIR,
    SLUICE_TASK_QUEUE: `sluice-test-${randomUUID()}`,
    SLUICE_RETRY_WAIT: '1h',
    SLUICE_SWEEP_EVERY: 'off',
    // The fake embedding servers and webhook receivers of the tests listen on loopback, which
    // outbound HTTP refuses on every profile unless the host is allow-listed.
    SLUICE_OUTBOUND_ALLOW_HOSTS: '127.0.0.1',
    ...overrides,
  });
}

export const WORKFLOW_BUNDLE_PATH = path.resolve(__dirname, '..', '..', '.sluice', 'test-workflow-bundle.js');
