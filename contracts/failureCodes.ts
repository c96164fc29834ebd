/**
 * The one list of failure codes (DESIGN.md §3, §4). Activities throw ApplicationFailure with
 * `type` set to one of these; the workflow records it; tests assert on it.
 */
export const FAILURE_CODES = [
  'SOURCE_FILE_NOT_FOUND',
  'UNSUPPORTED_FILE_TYPE',
  'FILE_TOO_LARGE',
  'PARSE_ENGINE_FAILED',
  'PARSED_FILE_UPLOAD_FAILED',
  'TEMP_DISK_FULL',
  'EMPTY_DOCUMENT',
  'CHUNKING_FAILED',
  'LLM_CONFIG_MISSING',
  'EMBEDDING_DIMENSION_UNSUPPORTED',
  'VECTORIZING_FAILED',
  'PRETOKENIZE_FAILED',
  'ENSURE_INDEX_FAILED',
  'KEYWORD_DELETE_FAILED',
  'KEYWORD_INDEXING_FAILED',
  'SPARSE_VECTORIZING_FAILED',
  'DOCUMENT_NOT_FOUND',
  'DOCUMENT_DELETING',
  'TASK_SUPERSEDED',
  'INTERRUPTED_TASK',
  'RETRY_VALIDATION_FAILED',
  'RESULT_NOTIFY_FAILED',
  'INTERNAL_UNKNOWN_ERROR',
  // Parsing real uploads: each is a property of the file, so all are permanent.
  /** A password is needed to read the document's text. */
  'ENCRYPTED_DOCUMENT',
  /** The file is damaged: truncated, or its structure cannot be read. */
  'CORRUPT_DOCUMENT',
  /**
   * A legacy binary Office file (Word 97–2003 DOC, Excel XLS, PowerPoint PPT): not read; saved
   * again as DOCX, XLSX or PPTX it is. Named apart from UNSUPPORTED_FILE_TYPE so a caller can say so.
   */
  'LEGACY_OFFICE_FORMAT',
  /** Text whose bytes are not valid in any encoding we detect (e.g. broken UTF-16). */
  'INVALID_TEXT_ENCODING',
  /** Parsing took longer than the per-document limit (SLUICE_PARSE_TIMEOUT). */
  'PARSE_TIMEOUT',
  /**
   * An attachment of an EML or MBOX file past SLUICE_MAIL_MAX_ATTACHMENTS: not made a document;
   * recorded on its message, which is ingested all the same.
   */
  'TOO_MANY_ATTACHMENTS',
  // Starting from a named source: registration's refusals, like an upload's.
  /** The user's quota (documents or bytes) has no room for the file. */
  'QUOTA_EXCEEDED',
  /** The workflow input does not match the published contract (docs/contract). */
  'INVALID_INGEST_INPUT',
  // A dependency restarting or cut off (Postgres, Temporal, the index, the object store).
  /** A server sluice depends on did not answer; always retryable. */
  'DEPENDENCY_UNAVAILABLE',
  // The reviewable chunking plan.
  /** A `confirmPlan` refused: no plan is waiting, or the strategy or parameters are not valid. */
  'PLAN_VALIDATION_FAILED',
  /**
   * A caller named an id that is not the named document's or user's: a task id of another
   * document, or a deletion for a user who does not own the document. Refused, nothing changed.
   */
  'ID_MISMATCH',
  /**
   * The deployment requires a signed caller claim (SLUICE_REQUIRE_CALLER_CLAIM) and the input had
   * none, or one that is not the named user's. Refused, nothing changed.
   */
  'CALLER_CLAIM_INVALID',
  // Synced sources (docs/sources.md).
  /**
   * A source's listing or a file of it could not be read: retryable while the source is down
   * (within the outage budget), permanent when waiting will not help (a folder outside the allowed
   * roots, a bucket that does not exist, credentials refused).
   */
  'SOURCE_UNAVAILABLE',
  /** A run was working on the document when the sync had new content for it: the next sync tries again. */
  'DOCUMENT_BUSY',
] as const;

export type FailureCode = (typeof FAILURE_CODES)[number];

export function isFailureCode(value: unknown): value is FailureCode {
  return typeof value === 'string' && (FAILURE_CODES as readonly string[]).includes(value);
}

/** failure_reason is bounded so a pathological message cannot bloat rows or history. */
export const FAILURE_REASON_MAX = 512;

export function formatFailureReason(code: FailureCode, message: string): string {
  const full = `${code}: ${message}`;
  return full.length <= FAILURE_REASON_MAX ? full : `${full.slice(0, FAILURE_REASON_MAX - 1)}…`;
}

/** What a stage's failure is called when nothing more specific is known (e.g. a timeout). */
export const STAGE_DEFAULT_FAILURE: Record<
  'CLEANING' | 'CHUNKING' | 'VECTORIZING' | 'PRETOKENIZE' | 'KEYWORD_INDEXING' | 'SPARSE_VECTORIZING',
  FailureCode
> = {
  CLEANING: 'PARSE_ENGINE_FAILED',
  CHUNKING: 'CHUNKING_FAILED',
  VECTORIZING: 'VECTORIZING_FAILED',
  PRETOKENIZE: 'PRETOKENIZE_FAILED',
  KEYWORD_INDEXING: 'KEYWORD_INDEXING_FAILED',
  SPARSE_VECTORIZING: 'SPARSE_VECTORIZING_FAILED',
};
