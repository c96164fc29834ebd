import type { FailureCode } from '../contracts/failureCodes';

/** Why a file was not stored: its type, its size or the quota (the API answers 415/422, 413, 403). */
export interface UploadRefusal {
  code: FailureCode;
  message: string;
  reason: 'type' | 'size' | 'quota';
  /** True when the rest of the body was left unread. */
  unread: boolean;
}
