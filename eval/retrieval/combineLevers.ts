import type { TextLanguage } from '../../search/languageRouting';
import type { FusionSettings } from '../../search/reciprocalRankFusion';
import { rankGrid } from './fusionGrid';
import type { LeverRow } from './markdownReport';
import type { Lever } from './levers';
import type { FusionSpec, QuestionRun } from './rankers';

/**
 * The kept levers together: their lists and routing in one spec, and the weights of that
 * combination chosen by the grid on the tuning half (per language when per-language weights
 * were kept and did better on their own than the one re-tuned setting).
 */
export function combineKept(
  levers: readonly Lever[],
  rows: readonly LeverRow[],
  tuning: readonly QuestionRun[],
  languageOf: (chunkId: string) => TextLanguage | null,
  base: FusionSpec,
): { spec: FusionSpec; kept: string[] } {
  const keptNames = rows.filter((r) => r.kept).map((r) => r.name);
  const kept = levers.filter((l) => keptNames.includes(l.name));
  const lists = { ...base.lists };
  let otherLanguageFactor: number | undefined;
  for (const lever of kept) {
    if (lever.name.startsWith('OpenSearch')) continue;
    Object.assign(lists, lever.spec.lists);
    if (lever.spec.otherLanguageFactor !== undefined) otherLanguageFactor = lever.spec.otherLanguageFactor;
  }
  const heldOutObjective = (name: string): number => {
    const row = rows.find((r) => r.name === name);
    return (['en', 'zh'] as const).reduce(
      (s, l) => s + (row?.heldOut.byLanguage[l]?.recallAt5 ?? 0) + (row?.heldOut.byLanguage[l]?.mrrAt10 ?? 0),
      0,
    );
  };
  const perLanguage =
    keptNames.includes('per-language weights') &&
    heldOutObjective('per-language weights') > heldOutObjective('weights re-tuned on the new sets');
  const gridBase = { lists, ...(otherLanguageFactor !== undefined ? { otherLanguageFactor } : {}) };
  const group = (l: TextLanguage): QuestionRun[] => tuning.filter((r) => r.question.language === l);
  let settings: FusionSpec['settings'] = base.settings;
  if (perLanguage) {
    settings = Object.fromEntries(
      (['en', 'zh'] as const).map((l) => [l, rankGrid([group(l)], gridBase, languageOf)[0]?.settings ?? base.settings]),
    ) as Record<TextLanguage, FusionSettings>;
  } else if (kept.some((l) => l.name !== 'language routing')) {
    settings = rankGrid([group('en'), group('zh')], gridBase, languageOf)[0]?.settings ?? settings;
  }
  return { spec: { ...gridBase, settings }, kept: keptNames };
}
