import type { IngestProgress } from '../contracts/ingest';
import { STAGES } from '../contracts/stages';
import { formatStageProgress, formatWaiting, type PendingStage } from '../client/pendingStage';
import { fitToWidth } from './displayWidth';

const BAR_WIDTH = 24;
const LABEL_COLUMNS = 32;

/**
 * One document's bar: stages done, and inside a long stage what its heartbeats say (chunks done,
 * the rate, the time left), or what the run waits for.
 */
export function renderProgressLine(
  label: string,
  progress: IngestProgress | null,
  stage: PendingStage | null = null,
): string {
  if (!progress) return `${fitToWidth(label, LABEL_COLUMNS)} [${'·'.repeat(BAR_WIDTH)}] waiting for a worker`;
  const done = STAGES.filter((s) => progress.stages[s] === 'SUCCESS').length;
  const filled = Math.round((done / STAGES.length) * BAR_WIDTH);
  const bar = '█'.repeat(filled) + '░'.repeat(BAR_WIDTH - filled);
  const where =
    progress.status === 'SUCCESS'
      ? `SUCCESS  ${progress.chunkCount} chunks`
      : progress.status === 'FAILED'
        ? `FAILED   ${progress.failureCode ?? ''}`
        : `${progress.currentStage ?? 'PREPARING'}${inStage(progress, stage)}`;
  return `${fitToWidth(label, LABEL_COLUMNS)} [${bar}] ${done}/${STAGES.length} ${where}`;
}

function inStage(progress: IngestProgress, stage: PendingStage | null): string {
  if (progress.waiting) return `  ${formatWaiting(progress.waiting)}`;
  if (stage?.done == null || (stage.unit === null && progress.chunkCount === 0)) return '';
  return `  ${formatStageProgress({ ...stage, done: stage.done }, progress.chunkCount)}`;
}

/**
 * A live block of progress lines: redrawn in place on a terminal, printed only when a line
 * changes otherwise (so CI logs stay readable).
 */
export function createProgressView(out: NodeJS.WriteStream = process.stdout) {
  let drawn = 0;
  const last = new Map<number, string>();
  return {
    update(lines: string[]): void {
      if (out.isTTY) {
        if (drawn > 0) out.write(`\x1b[${drawn}A`);
        for (const line of lines) out.write(`\x1b[2K${line}\n`);
        drawn = lines.length;
        return;
      }
      lines.forEach((line, i) => {
        if (last.get(i) !== line) out.write(`${line}\n`);
        last.set(i, line);
      });
    },
  };
}
