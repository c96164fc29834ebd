import type { Lever } from './levers';
import type { LeverRow, RankerResult } from './markdownReport';
import type { FusionSpec } from './rankers';

const objective = (r: RankerResult): number =>
  (['en', 'zh'] as const).reduce(
    (sum, l) => sum + (r.heldOut.byLanguage[l]?.recallAt5 ?? 0) + (r.heldOut.byLanguage[l]?.mrrAt10 ?? 0),
    0,
  );
const wrongTops = (r: RankerResult): number => Object.values(r.heldOut.wrongLanguageTop).reduce((a, b) => a + b, 0);

/**
 * Each lever scored on the held-out half against the baseline: kept when it raises recall@5 +
 * MRR@10 summed over the two languages without adding wrong-language top hits, or when it removes
 * wrong-language top hits without lowering that sum.
 */
export function judgeLevers(
  levers: Lever[],
  baseline: RankerResult,
  evaluate: (spec: FusionSpec, name: string) => RankerResult,
): LeverRow[] {
  const base = objective(baseline);
  const baseWrong = wrongTops(baseline);
  return levers.map((lever) => {
    const result = evaluate(lever.spec, lever.name);
    const gain = objective(result) - base;
    const wrong = wrongTops(result);
    const kept = (gain > 0 && wrong <= baseWrong) || (wrong < baseWrong && gain >= 0);
    const why = `R@5+MRR summed over languages ${gain >= 0 ? '+' : ''}${gain.toFixed(3)}, wrong-language tops ${baseWrong} → ${wrong}`;
    return {
      name: lever.name,
      what: lever.what,
      chosen: lever.chosen,
      heldOut: result.heldOut,
      tuning: result.tuning,
      kept,
      why,
    };
  });
}
