export const COPY_FIELDS_WORKFLOW_TYPE = 'copyDocumentFields';

/**
 * One copy per metadata version: a later change starts its own run instead of colliding with the
 * one before, and each run copies whatever is newest when it runs (older copies never win).
 */
export function copyFieldsWorkflowId(documentId: string, version: number): string {
  return `fields:${documentId}:${version}`;
}
