import type { Kysely } from 'kysely';
import type { CleaningEnrichmentsTable, Database } from '../database';

export type CleaningEnrichmentKind = CleaningEnrichmentsTable['kind'];

/** The checkpoints of a document's pieces of this kind, by input digest (output null: refused answer). */
export async function findCleaningEnrichments(
  db: Kysely<Database>,
  documentId: string,
  kind: CleaningEnrichmentKind,
  digests: string[],
): Promise<Map<string, string | null>> {
  if (digests.length === 0) return new Map();
  const rows = await db
    .selectFrom('cleaning_enrichments')
    .select(['input_sha256', 'output'])
    .where('document_id', '=', documentId)
    .where('kind', '=', kind)
    .where('input_sha256', 'in', digests)
    .execute();
  return new Map(rows.map((r) => [r.input_sha256, r.output]));
}

/** One piece's checkpoint, stored before the next is asked; writing it again keeps the first. */
export async function saveCleaningEnrichment(
  db: Kysely<Database>,
  row: { documentId: string; kind: CleaningEnrichmentKind; digest: string; output: string | null; model: string },
): Promise<void> {
  await db
    .insertInto('cleaning_enrichments')
    .values({
      document_id: row.documentId,
      kind: row.kind,
      input_sha256: row.digest,
      output: row.output,
      model: row.model,
      created_at: new Date(),
    })
    .onConflict((oc) => oc.columns(['document_id', 'kind', 'input_sha256']).doNothing())
    .execute();
}
