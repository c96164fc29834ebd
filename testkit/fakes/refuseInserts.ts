import { InsertQueryNode, type Kysely, type KyselyPlugin } from 'kysely';
import type { Database } from '../../db/database';

/**
 * The same database, except that every INSERT into `table` fails before it reaches Postgres:
 * a row that cannot be written, for tests of what its caller leaves behind.
 */
export function refusingInserts(db: Kysely<Database>, table: keyof Database): Kysely<Database> {
  const plugin: KyselyPlugin = {
    transformQuery({ node }) {
      if (InsertQueryNode.is(node) && node.into?.table.identifier.name === table)
        throw new Error(`insert into ${table} refused by the test`);
      return node;
    },
    transformResult: async ({ result }) => result,
  };
  return db.withPlugin(plugin);
}
