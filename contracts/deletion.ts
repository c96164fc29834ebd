export const DELETE_WORKFLOW_TYPE = 'deleteDocument';

export function deleteWorkflowId(documentId: string): string {
  return `delete:${documentId}`;
}

export interface DeleteInput {
  documentId: string;
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
