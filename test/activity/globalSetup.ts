import { createDb } from '../../db/connection';
import { migrateToLatest } from '../../db/migrate';
import { TEST_DATABASE_URL } from '../../testkit/harness/testConfig';

/**
 * The activity tier needs only the test database at the latest schema: no workflow bundle, and
 * no schema reset, since every test writes under fresh document ids (and a reset would pull the
 * tables from under an integration run sharing the database).
 */
export default async function globalSetup(): Promise<void> {
  const db = createDb(TEST_DATABASE_URL, 1);
  try {
    await migrateToLatest(db);
  } finally {
    await db.destroy();
  }
}
