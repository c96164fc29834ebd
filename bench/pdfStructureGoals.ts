import type { Row } from './pdfStructureReport';

/**
 * The goals sluice's PDF parser is measured against, on the held-out split over all renderers:
 * structure close to what pymupdf4llm recovers or better, nothing lost, and speed of the order of
 * a plain-text reader. A goal whose figure is missing from the run (a side or split left out) is
 * reported as unknown rather than met or missed.
 */
export interface Goal {
  goal: string;
  value: number | null;
  target: number;
  met: boolean | null;
}

export function checkGoals(rows: Row[]): Goal[] {
  const heldOut = (side: string) =>
    rows.find((row) => row.side === side && row.split === 'heldout' && row.renderer === 'all');
  const sluice = heldOut('sluice');
  const pymupdf4llm = heldOut('pymupdf4llm');
  const pdfParse = heldOut('pdf-parse');
  const ratio = (peer: Row | undefined) =>
    sluice && peer && peer.pagesPerSecond > 0
      ? Math.round((sluice.pagesPerSecond / peer.pagesPerSecond) * 100) / 100
      : null;
  const goals: [string, number | null, number][] = [
    ['table cell F1', sluice?.cellF1 ?? null, 90],
    ['lists %', sluice?.lists ?? null, 90],
    ['code %', sluice?.code ?? null, 90],
    ['headings with level %', sluice?.headings ?? null, 95],
    ['words kept %', sluice?.words ?? null, 100],
    ['pages/s over pymupdf4llm', ratio(pymupdf4llm), 10],
    ['pages/s over pdf-parse', ratio(pdfParse), 0.5],
  ];
  return goals.map(([goal, value, target]) => ({ goal, value, target, met: value === null ? null : value >= target }));
}

export function formatGoals(goals: Goal[]): string {
  const verdict = (met: boolean | null) => (met === null ? 'unknown' : met ? 'met' : 'missed');
  return goals
    .map(({ goal, value, target, met }) => `${goal}: ${value ?? '-'} (goal >= ${target}) ${verdict(met)}`)
    .join('\n');
}
