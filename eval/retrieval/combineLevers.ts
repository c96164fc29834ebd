import type { TextLanguage } from '../../search/languageRouting';
import type { FusionSettings } from '../../search/reciprocalRankFusion';
import { rankGrid } from './fusionGrid';
import type { LeverRow } from './markdownReport';
import { IDENTIFIER_QUERY_LEVER, NAMED_LANGUAGE_LEVER, SECOND_DENSE_LEVER, type Lever } from './levers';
import type { FusionSpec, QuestionRun } from './rankers';

/** Levers that change no list and no weight, only how a question's fusion is routed. */
const ROUTING_LEVERS = ['language routing', NAMED_LANGUAGE_LEVER, IDENTIFIER_QUERY_LEVER];

/**
 * The kept levers together: their lists and routing in one spec, and the weights of that
 * combination chosen by the grid on the tuning families (per language when per-language weights
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
  let namedLanguageFactor: number | undefined;
  let identifierQueryDenseFactor: number | undefined;
  // The second dense vector keeps the weight its lever chose: a fifth tuned list would make the grid six times larger.
  const fixed: Record<string, number> = {};
  for (const lever of kept) {
    if (lever.name.startsWith('OpenSearch')) continue;
    Object.assign(lists, lever.spec.lists);
    const secondWeight = 'k' in lever.spec.settings ? lever.spec.settings.weights.languageDense : undefined;
    if (lever.name === SECOND_DENSE_LEVER && secondWeight !== undefined) fixed.languageDense = secondWeight;
    if (lever.spec.otherLanguageFactor !== undefined) otherLanguageFactor = lever.spec.otherLanguageFactor;
    if (lever.spec.namedLanguageFactor !== undefined) namedLanguageFactor = lever.spec.namedLanguageFactor;
    if (lever.spec.identifierQueryDenseFactor !== undefined)
      identifierQueryDenseFactor = lever.spec.identifierQueryDenseFactor;
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
  const gridBase = {
    lists,
    ...(otherLanguageFactor !== undefined ? { otherLanguageFactor } : {}),
    ...(namedLanguageFactor !== undefined ? { namedLanguageFactor } : {}),
    ...(identifierQueryDenseFactor !== undefined ? { identifierQueryDenseFactor } : {}),
  };
  const group = (l: TextLanguage): QuestionRun[] => tuning.filter((r) => r.question.language === l);
  let settings: FusionSpec['settings'] = base.settings;
  if (perLanguage) {
    settings = Object.fromEntries(
      (['en', 'zh'] as const).map((l) => [
        l,
        rankGrid([group(l)], gridBase, languageOf, fixed)[0]?.settings ?? base.settings,
      ]),
    ) as Record<TextLanguage, FusionSettings>;
  } else if (kept.some((l) => !ROUTING_LEVERS.includes(l.name))) {
    settings = rankGrid([group('en'), group('zh')], gridBase, languageOf, fixed)[0]?.settings ?? settings;
  }
  return { spec: { ...gridBase, settings }, kept: keptNames };
}
