import type { Kysely } from 'kysely';

// A dense search reads one model's vectors of one tenant's dataset (stores/postgresVectorStore.ts):
// the tenant index gains the model and dimension, so a dataset half re-embedded is not scanned whole.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createIndex('dense_vectors_tenant_model_idx')
    .on('dense_vectors')
    .columns(['user_id', 'dataset_id', 'model', 'dimension'])
    .execute();
  await db.schema.dropIndex('dense_vectors_tenant_idx').execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema
    .createIndex('dense_vectors_tenant_idx')
    .on('dense_vectors')
    .columns(['user_id', 'dataset_id'])
    .execute();
  await db.schema.dropIndex('dense_vectors_tenant_model_idx').execute();
}
