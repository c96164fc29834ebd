import { firstRelevantRank, RECALL_AT } from './metrics';
import type { QuestionRun, Ranker } from './rankers';

/** Shares of one language's questions, each against what some reordering of the lists could reach. */
export interface Ceiling {
  questions: number;
  /** The fused ranking's recall@5. */
  fusedTop5: number;
  /** Answer in some single list's top 5: what choosing, per question, the right list would give. */
  someListTop5: number;
  /** Answer anywhere in the lists (each up to its depth): what a perfect reordering would give. */
  amongCandidates: number;
}

/**
 * How much of the goal is ordering and how much is the lists: a fusion only reorders the lists'
 * candidates, so no fusion of them passes `amongCandidates`. It passes `someListTop5` only by
 * lifting answers that no list ranks in its top 5 through the lists' agreement below it, which the
 * held-out questions show it seldom does. Measured per question language over the runs given.
 */
export function fusionCeilings(
  runs: readonly QuestionRun[],
  fused: Ranker,
  lists: readonly string[],
): Record<string, Ceiling> {
  const counts = new Map<string, { questions: number; fused: number; someList: number; candidates: number }>();
  for (const run of runs) {
    const c = counts.get(run.question.language) ?? { questions: 0, fused: 0, someList: 0, candidates: 0 };
    const fusedRank = firstRelevantRank(
      fused.rank(run).map((chunkId) => ({ chunkId })),
      run.relevant,
    );
    const ranks = lists.map((name) => firstRelevantRank(run.lists[name] ?? [], run.relevant));
    c.questions += 1;
    if (fusedRank !== null && fusedRank <= RECALL_AT) c.fused += 1;
    if (ranks.some((rank) => rank !== null && rank <= RECALL_AT)) c.someList += 1;
    if (ranks.some((rank) => rank !== null)) c.candidates += 1;
    counts.set(run.question.language, c);
  }
  return Object.fromEntries(
    [...counts.entries()].sort().map(([language, c]) => [
      language,
      {
        questions: c.questions,
        fusedTop5: c.fused / c.questions,
        someListTop5: c.someList / c.questions,
        amongCandidates: c.candidates / c.questions,
      },
    ]),
  );
}

/** The ceilings as a report section: the fused figure beside what reordering could reach. */
export function ceilingsMarkdown(title: string, ceilings: Record<string, Ceiling>): string {
  const share = (n: number): string => n.toFixed(3);
  return [
    `### ${title}\n`,
    '| question language | questions | fused recall@5 | answer in some list’s top 5 | answer among the candidates |',
    '|---|---|---|---|---|',
    ...Object.entries(ceilings).map(
      ([language, c]) =>
        `| ${language} | ${c.questions} | ${share(c.fusedTop5)} | ${share(c.someListTop5)} | ${share(c.amongCandidates)} |`,
    ),
    '',
  ].join('\n');
}
