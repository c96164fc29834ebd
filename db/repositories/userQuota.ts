/** Per-user limits on what is stored: bytes (uploads and what they produce) and ACTIVE documents. */
export interface UserQuota {
  maxBytes: number;
  maxDocuments: number;
}
