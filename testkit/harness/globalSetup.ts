import fs from 'node:fs/promises';
import path from 'node:path';
import { bundleWorkflowCode } from '@temporalio/worker';
import { sql } from 'kysely';
import { createDb } from '../../db/connection';
import { migrateToLatest } from '../../db/migrate';
import { TEST_DATABASE_URL, WORKFLOW_BUNDLE_PATH } from './testConfig';

/**
 * Once per test run: a clean test database at the latest schema, and the workflow code bundled
 * once (every test worker loads the same bundle instead of re-bundling).
 */
export default async function globalSetup(): Promise<void> {
  const db = createDb(TEST_DATABASE_URL, 1);
  try {
    await sql`DROP SCHEMA IF EXISTS public CASCADE`.execute(db);
    await sql`CREATE SCHEMA public`.execute(db);
    await migrateToLatest(db);
  } finally {
    await db.destroy();
  }
  const { code } = await bundleWorkflowCode({
    workflowsPath: require.resolve('../../workflows'),
    logger: { trace() {}, debug() {}, info() {}, warn: console.warn, error: console.error, log() {} },
  });
  await fs.mkdir(path.dirname(WORKFLOW_BUNDLE_PATH), { recursive: true });
  // Written aside and renamed, so a worker of a concurrent run never loads half a bundle.
  const partial = `${WORKFLOW_BUNDLE_PATH}.${process.pid}.partial`;
  await fs.writeFile(partial, code);
  await fs.rename(partial, WORKFLOW_BUNDLE_PATH);
}
