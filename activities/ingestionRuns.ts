/** What deletion and the stuck-task sweep need to know about ingestion runs (a Temporal port). */
export interface IngestionRuns {
  /** Requests cancellation of the document's open run and resolves once it has closed. */
  cancelAndWait(documentId: string, onWaiting: () => void): Promise<void>;
  /** True while the document's `ingest:` workflow has an open run. */
  isOpen(documentId: string): Promise<boolean>;
}
