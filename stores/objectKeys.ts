/** Object keys are built from ids only, never from user-supplied file names. */
export const objectKeys = {
  source: (userId: string, documentId: string) => `documents/${encodeId(userId)}/${documentId}/source`,
  /**
   * A source copied by one attempt of a registration that may overlap another attempt (a run from
   * a named source): each attempt writes its own key, and the row keeps the winner's.
   */
  sourceOfAttempt: (userId: string, documentId: string, attemptId: string) =>
    `documents/${encodeId(userId)}/${documentId}/sources/${attemptId}`,
  /** The new content of a replacement, stored under the id of the task that ingests it. */
  version: (userId: string, documentId: string, taskId: string) =>
    `documents/${encodeId(userId)}/${documentId}/versions/${taskId}`,
  markdown: (userId: string, documentId: string, taskId: string) =>
    `documents/${encodeId(userId)}/${documentId}/markdown/${taskId}.md`,
  /** An image the parsing service returned, in its task's images folder (parsedImagesOf). */
  parsedImage: (userId: string, documentId: string, taskId: string, name: string) =>
    `documents/${encodeId(userId)}/${documentId}/markdown/${taskId}.images/${name}`,
  /** The folder of a task's parsed images (removed with its markdown by a predecessor's clean-up). */
  parsedImagesOf: (userId: string, documentId: string, taskId: string) =>
    `documents/${encodeId(userId)}/${documentId}/markdown/${taskId}.images/`,
  tokenPlan: (userId: string, documentId: string, taskId: string) =>
    `documents/${encodeId(userId)}/${documentId}/tokens/${taskId}.jsonl`,
  documentPrefix: (userId: string, documentId: string) => `documents/${encodeId(userId)}/${documentId}/`,
  /** Where every document's objects live. */
  allDocuments: 'documents/',
  /** The document an object belongs to, read back from its key; null for a key sluice did not build. */
  documentOf(key: string): { documentId: string; prefix: string } | null {
    const match = DOCUMENT_KEY.exec(key);
    return match?.[1] && match[2] ? { prefix: match[1], documentId: match[2] } : null;
  },
};

// documents/<encoded user id>/<document uuid>/...: the shape documentPrefix builds.
const DOCUMENT_KEY = /^(documents\/[A-Za-z0-9_.-]+\/([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\/)/;

/**
 * User ids come from the caller; keep only key-safe characters and escape each other UTF-16
 * unit as `.` + 4 hex digits. Fixed width keeps the encoding injective: no two ids share a key.
 */
function encodeId(id: string): string {
  return id.replace(/[^A-Za-z0-9_-]/g, (ch) => `.${ch.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
