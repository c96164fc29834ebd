import { documentFieldValues } from '../../db/repositories/documentFields';
import type { ActivityDeps } from '../deps';
import { mappingFailures } from '../toApplicationFailure';
import { orTransient } from '../transient';

/**
 * Copies the document's current metadata and system fields to the stores that keep a copy to
 * filter by (OpenSearch entries, Qdrant points); each store replaces only an older copy. Returns
 * the version copied, or null when the document is gone (its deletion removes its copies).
 */
export function createCopyDocumentFieldsActivity(deps: Pick<ActivityDeps, 'db' | 'vectors' | 'keywords'>) {
  return mappingFailures(async function copyDocumentFields(documentId: string): Promise<number | null> {
    const found = await documentFieldValues(deps.db, documentId);
    if (!found) return null;
    await orTransient('VECTORIZING_FAILED', 'copying document fields to the vector store', () =>
      deps.vectors.setDocumentFields(found.scope, documentId, found.values),
    );
    await orTransient('KEYWORD_INDEXING_FAILED', 'copying document fields to the keyword index', () =>
      deps.keywords.setDocumentFields(found.scope, documentId, found.values),
    );
    return found.values.version;
  });
}
