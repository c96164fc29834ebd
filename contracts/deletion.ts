export const DELETE_WORKFLOW_TYPE = 'deleteDocument';

export function deleteWorkflowId(documentId: string): string {
  return `delete:${documentId}`;
}

/**
 * Who asks for the deletion: the document must be this user's (and this dataset's, when named), or
 * the deletion is refused as ID_MISMATCH with nothing changed. An operator's CLI names the owner it
 * read from the document row.
 */
export interface DeleteInput {
  documentId: string;
  userId: string;
  datasetId?: string;
  /** The caller's claim to act for userId, where the deployment requires one (crypto/callerClaim.ts). */
  callerClaim?: string;
}

/** What the deletion found and removed; all zeros for a document that was already gone. */
export interface DeleteResult {
  documentId: string;
  existed: boolean;
  objectsDeleted: number;
}

/** The tenant a document belongs to, captured before its rows are gone. */
export interface DocumentOwner {
  documentId: string;
  userId: string;
  datasetId: string;
}
