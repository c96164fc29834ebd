import type { ProcessLimits } from './processLimits';

/**
 * A running task's wall-clock limit: `timeoutMs` from its start; for a task marked long (a
 * document that may be OCR'd), one `ocrPageMs` more for each page it begins to OCR, never past
 * `longTimeoutMs` from its start. So a text PDF keeps the parse limit however long a scan may take.
 */
export class TaskDeadline {
  private readonly started = Date.now();
  private allowedMs: number;
  private ocrPages = 0;
  private timer: NodeJS.Timeout;

  constructor(
    private readonly limits: ProcessLimits,
    private readonly long: boolean,
    private readonly onExpired: () => void,
  ) {
    this.allowedMs = limits.timeoutMs;
    this.timer = setTimeout(onExpired, this.allowedMs);
  }

  /** The task began another page of OCR. */
  ocrPageStarted(): void {
    if (!this.long || this.limits.ocrPageMs === undefined) return;
    this.ocrPages++;
    this.allowedMs = Math.min(this.limits.longTimeoutMs ?? Infinity, this.allowedMs + this.limits.ocrPageMs);
    clearTimeout(this.timer);
    this.timer = setTimeout(this.onExpired, Math.max(0, this.started + this.allowedMs - Date.now()));
  }

  stop(): void {
    clearTimeout(this.timer);
  }

  /** The limit the task ran under, and the settings that made it, for its failure. */
  describe(): { ms: number; setting: string } {
    if (this.ocrPages === 0) return { ms: this.allowedMs, setting: 'SLUICE_PARSE_TIMEOUT' };
    if (this.limits.longTimeoutMs !== undefined && this.allowedMs >= this.limits.longTimeoutMs)
      return { ms: this.allowedMs, setting: 'SLUICE_OCR_DOCUMENT_TIMEOUT' };
    return {
      ms: this.allowedMs,
      setting: `SLUICE_PARSE_TIMEOUT plus SLUICE_OCR_PAGE_TIMEOUT for each of the ${this.ocrPages} pages it OCR'd`,
    };
  }
}
