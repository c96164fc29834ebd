import { sql, type Kysely } from 'kysely';

// A dataset has no row of its own (documents name it); its settings do, once someone sets them.
// One JSON document per (user, dataset), validated by contracts/datasetSettings.ts on write.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('dataset_settings')
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('dataset_id', 'text', (c) => c.notNull())
    .addColumn('settings', 'jsonb', (c) => c.notNull().defaultTo(sql`'{}'::jsonb`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('dataset_settings_pk', ['user_id', 'dataset_id'])
    .execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('dataset_settings').execute();
}
