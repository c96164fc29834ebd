import type { DocumentFieldValues } from '../../contracts/documentFields';
import { documentFieldValues } from '../../db/repositories/documentFields';
import type { TenantScope } from '../../stores/ports';
import type { ActivityDeps } from '../deps';
import { orTransient } from '../transient';

/**
 * The document's metadata and system fields as they are now, for the copy a stage writes with its
 * entries or points (contracts/documentFields.ts). Null when the row is gone: the run is then
 * being deleted and its copies with it.
 */
export async function currentFields(
  deps: Pick<ActivityDeps, 'db'>,
  documentId: string,
): Promise<DocumentFieldValues | null> {
  return (await documentFieldValues(deps.db, documentId))?.values ?? null;
}

/**
 * After a stage wrote the document's points or entries: where the metadata changed since `copied`
 * (the version the stage wrote, or none), the copy is set again from what is current. A metadata
 * change that lands while a stage writes is thus never lost: either its own copy run sees the
 * stage's writes, or this read sees the change.
 */
export async function refreshCopiedFields(
  deps: Pick<ActivityDeps, 'db' | 'vectors' | 'keywords'>,
  store: 'vectors' | 'keywords',
  scope: TenantScope,
  documentId: string,
  copied: number | null,
): Promise<void> {
  const now = await currentFields(deps, documentId);
  if (!now || now.version === copied) return;
  await orTransient(
    store === 'vectors' ? 'VECTORIZING_FAILED' : 'KEYWORD_INDEXING_FAILED',
    'copying document fields',
    () => deps[store].setDocumentFields(scope, documentId, now),
  );
}
