import type { IngestProgress } from '../contracts/ingest';
import { STAGES } from '../contracts/stages';
import { fitToWidth } from './displayWidth';

const BAR_WIDTH = 24;
const LABEL_COLUMNS = 32;

export function renderProgressLine(label: string, progress: IngestProgress | null): string {
  if (!progress) return `${fitToWidth(label, LABEL_COLUMNS)} [${'·'.repeat(BAR_WIDTH)}] waiting for a worker`;
  const done = STAGES.filter((s) => progress.stages[s] === 'SUCCESS').length;
  const filled = Math.round((done / STAGES.length) * BAR_WIDTH);
  const bar = '█'.repeat(filled) + '░'.repeat(BAR_WIDTH - filled);
  const where =
    progress.status === 'SUCCESS'
      ? `SUCCESS  ${progress.chunkCount} chunks`
      : progress.status === 'FAILED'
        ? `FAILED   ${progress.failureCode ?? ''}`
        : `${progress.currentStage ?? 'PREPARING'}`;
  return `${fitToWidth(label, LABEL_COLUMNS)} [${bar}] ${done}/${STAGES.length} ${where}`;
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
