/** Object keys are built from ids only, never from user-supplied file names. */
export const objectKeys = {
  source: (userId: string, documentId: string) => `documents/${encodeId(userId)}/${documentId}/source`,
  markdown: (userId: string, documentId: string, taskId: string) =>
    `documents/${encodeId(userId)}/${documentId}/markdown/${taskId}.md`,
  tokenPlan: (userId: string, documentId: string, taskId: string) =>
    `documents/${encodeId(userId)}/${documentId}/tokens/${taskId}.jsonl`,
  documentPrefix: (userId: string, documentId: string) => `documents/${encodeId(userId)}/${documentId}/`,
};

/**
 * User ids come from the caller; keep only key-safe characters and escape each other UTF-16
 * unit as `.` + 4 hex digits. Fixed width keeps the encoding injective: no two ids share a key.
 */
function encodeId(id: string): string {
  return id.replace(/[^A-Za-z0-9_-]/g, (ch) => `.${ch.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
