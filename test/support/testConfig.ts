import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { loadConfig, type SluiceConfig } from '../../config/config';

export const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:54329/sluice_test';

/** A config for one test suite: the test database, a private data dir and task queue. */
export function testConfig(overrides: Record<string, string> = {}): Readonly<SluiceConfig> {
  const dataDir = path.join(os.tmpdir(), `sluice-test-${randomUUID()}`);
  return loadConfig({
    ...process.env,
    DATABASE_URL: TEST_DATABASE_URL,
    SLUICE_DATA_DIR: dataDir,
    SLUICE_TASK_QUEUE: `sluice-test-${randomUUID()}`,
    SLUICE_RETRY_WAIT: '1h',
    SLUICE_SWEEP_EVERY: 'off',
    ...overrides,
  });
}

export const WORKFLOW_BUNDLE_PATH = path.resolve(__dirname, '..', '..', '.sluice', 'test-workflow-bundle.js');
