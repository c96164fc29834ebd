import type { FusionSettings } from '../../search/reciprocalRankFusion';
import type { Language } from './corpus';
import type { GridPoint } from './fusionGrid';
import type { Scores } from './metrics';

export type EmbedderName = 'hash' | 'model';

/** language → row → embedder → scores */
export type ScoreTable = Record<string, Record<string, Partial<Record<EmbedderName, Scores>>>>;

const pct = (x: number): string => x.toFixed(3);

export function describeSettings(s: FusionSettings): string {
  const w = s.weights;
  return `k=${s.k} dense=${w.dense ?? 1} sparse=${w.sparse ?? 1} keyword=${w.keyword ?? 1}`;
}

export function printTable(table: ScoreTable, languages: Language[]): void {
  for (const language of languages) {
    const rows = table[language] ?? {};
    const n = Object.values(rows)[0]?.model?.questions ?? Object.values(rows)[0]?.hash?.questions ?? 0;
    console.log(`\n${language}: ${n} questions`);
    console.log(`${'retriever'.padEnd(26)}  hash R@5  hash MRR  model R@5  model MRR`);
    for (const [row, byEmbedder] of Object.entries(rows)) {
      const cell = (e: EmbedderName, pick: (s: Scores) => number, width: number): string => {
        const s = byEmbedder[e];
        return (s ? pct(pick(s)) : '-').padStart(width);
      };
      console.log(
        `${row.padEnd(26)}${cell('hash', (s) => s.recallAt5, 10)}${cell('hash', (s) => s.mrrAt10, 10)}${cell('model', (s) => s.recallAt5, 11)}${cell('model', (s) => s.mrrAt10, 11)}`,
      );
    }
  }
}

type Scored = Pick<GridPoint, 'settings' | 'recallAt5' | 'mrrAt10' | 'recallAt5PerSet'>;

export function printGrid(
  points: GridPoint[],
  plain: Scored,
  chosen: Scored,
  heldOut: { recallAt5: number; mrrAt10: number; plainRecallAt5: number; plainMrrAt10: number },
  top = 10,
): void {
  console.log(
    `\nfusion grid: ${points.length} settings on the real embedder; objective = mean over languages of R@5 + MRR@10, averaged over each cell's grid neighbours; R@5 per language in brackets`,
  );
  for (const p of points.slice(0, top)) {
    const perSet = p.recallAt5PerSet.map(pct).join('/');
    console.log(
      `  smoothed ${pct(p.smoothed)}  R@5 ${pct(p.recallAt5)} (${perSet})  MRR ${pct(p.mrrAt10)}  ${describeSettings(p.settings)}`,
    );
  }
  const worst = points[points.length - 1];
  if (worst)
    console.log(
      `  ... worst: smoothed ${pct(worst.smoothed)}  R@5 ${pct(worst.recallAt5)}  ${describeSettings(worst.settings)}`,
    );
  for (const [name, p] of [
    ['plain RRF (old default)', plain],
    ['search default now     ', chosen],
  ] as const) {
    console.log(
      `${name}: R@5 ${pct(p.recallAt5)} (${p.recallAt5PerSet.map(pct).join('/')})  MRR ${pct(p.mrrAt10)}  ${describeSettings(p.settings)}`,
    );
  }
  console.log(
    `two-fold held-out: tuned R@5 ${pct(heldOut.recallAt5)} MRR ${pct(heldOut.mrrAt10)} vs plain RRF R@5 ${pct(heldOut.plainRecallAt5)} MRR ${pct(heldOut.plainMrrAt10)}`,
  );
}
