import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { loadConfig } from '../../config/config';
import { createCpuPool } from '../../cpuPool/pool';
import { createBgeEmbedders } from '../../embedders/bgeEmbedder';
import { createLocalHashEmbedder } from '../../embedders/localHashEmbedder';
import { createLocalModelEmbedder } from '../../embedders/localModelEmbedder';
import { languageOf, type TextLanguage } from '../../search/languageRouting';
import { DEFAULT_FUSION } from '../../search/reciprocalRankFusion';
import { breakdown, rankAll, splitOf, type Split } from './breakdown';
import { CORPUS, evalDocsDir, parseDoc, type ParsedDoc } from './corpus';
import { openEvalDatabase } from './evalDatabase';
import { openEvalStores } from './evalStores';
import { collectDenseLists } from './denseLists';
import { indexLexical } from './indexCorpus';
import { perQuestionRows } from './perQuestion';
import { describeQuestions, labelProblems, loadLabels, relevantChunks } from './labels';
import { buildLevers, LOCAL_LISTS, pick, PREVIOUS_DEFAULT } from './levers';
import { DEFAULT_SEARCH_SETTINGS } from '../../search/searchSettings';
import { markdownReport, type LeverRow, type RankerResult } from './markdownReport';
import { parseArgs } from './options';
import { fusedRanker, type QuestionRun, type Ranker } from './rankers';
import { reportedRankers, SEARCH_DEFAULT, withPassageWeight } from './reportedRankers';
import { chooseSiblingWeight, siblingBoostRanker } from './siblingBoost';
import { lexicalExtras, type QuestionLists } from './retrieveLists';
import { judgeLevers } from './judgeLevers';
import { combineKept } from './combineLevers';
import { checkGoals } from './goals';
import { goalsMarkdown } from './goalsMarkdown';
import { floorFailures } from './floors';
import { ceilingsMarkdown, fusionCeilings } from './ceilings';
import { measureReranker, RERANKED_NAME, rerankGainLine } from './evalReranker';

/** The passage windows' weights the tuning families choose from. */
const PASSAGE_WEIGHTS = [0, 0.5, 1, 1.5, 2];
/** The hashing embedder's default size when it is chosen (SLUICE_EMBEDDER=local, config.ts). */
const HASH_DIMENSION = 256;
const SCOPE = { userId: 'eval', datasetId: 'retrieval' };
async function main(): Promise<void> {
  const options = parseArgs(process.argv.slice(2));
  const config = loadConfig();
  const chunking = options.chunkMaxTokens
    ? {
        ...config.chunking,
        maxTokens: options.chunkMaxTokens,
        overlapTokens: Math.min(config.chunking.overlapTokens, Math.floor(options.chunkMaxTokens / 4)),
      }
    : config.chunking;
  const started = Date.now();
  const timings: Record<string, number> = {};
  const time = async <T>(name: string, work: () => Promise<T>): Promise<T> => {
    const t = Date.now();
    const result = await work();
    timings[name] = Date.now() - t;
    return result;
  };
  const cpu = createCpuPool({ threads: config.worker.cpuThreads, limits: config.parsing });
  const db = await openEvalDatabase(config.database.url);
  const stores = openEvalStores(db);
  const model = createLocalModelEmbedder({
    modelDir: config.embedding.localModel.dir,
    threads: config.embedding.localModel.threads,
    maxTokens: config.embedding.localModel.maxTokens,
  });
  const { dir, threads, maxTokens } = config.embedding.localModel;
  // Throws naming `bash scripts/stack.sh start` when the bge models are not installed.
  const languageEmbedders = createBgeEmbedders({ modelDir: dir, threads, maxTokens });
  const embedders: [string, typeof model | ReturnType<typeof createLocalHashEmbedder>][] = [
    ['hash', createLocalHashEmbedder({ dimension: HASH_DIMENSION })],
    ['model', model],
  ];
  let docs: ParsedDoc[] = [];
  const runs: QuestionRun[] = [];
  try {
    docs = await time('parse', async () => {
      const parsed = [];
      for (const doc of CORPUS.filter((d) => d.ci || !options.ci))
        parsed.push(
          await parseDoc(cpu, doc, chunking, options.chunking, evalDocsDir(config.dataDir), options.childTokens),
        );
      return parsed;
    });
    const present = new Set(docs.map((d) => d.doc.id));
    const labels = loadLabels().filter((l) => present.has(l.doc));
    const resized = options.chunkMaxTokens !== null || Object.keys(options.childTokens).length > 0;
    const problems = labelProblems(labels, docs, resized);
    if (problems.length > 0)
      throw new Error(`${problems.length} labels do not match the parsed documents:\n  ${problems.join('\n  ')}`);
    const relevant = relevantChunks(labels, docs);
    const keywordIndexes = [stores.postgresKeywords, ...(stores.openSearchKeywords ? [stores.openSearchKeywords] : [])];
    await time('indexLexical', () => indexLexical(cpu, { vectors: stores.vectors, keywordIndexes }, SCOPE, docs));
    const questions = describeQuestions(labels);
    const lists = questions.map(() => ({}) as QuestionLists);
    await time('search.lexical', async () => {
      for (const [i, q] of questions.entries())
        Object.assign(lists[i] ?? {}, await lexicalExtras(stores, SCOPE, q.question));
    });
    // The Postgres vector store keeps one dense vector per chunk: each space is indexed, then searched.
    await collectDenseLists({
      stores,
      scope: SCOPE,
      docs,
      questions,
      lists,
      batchSize: config.embedding.batchSize,
      embedders,
      model,
      languageEmbedders,
      time,
    });
    questions.forEach((question, i) =>
      runs.push({ question, lists: lists[i] ?? {}, relevant: relevant.get(question.id) ?? new Set<string>() }),
    );
  } finally {
    await model.close();
    await languageEmbedders.close();
    await cpu.close();
    await stores.openSearchKeywords?.close();
    await db.destroy();
  }

  const chunkLanguage = new Map<string, TextLanguage | null>();
  for (const d of docs) for (const c of d.children) chunkLanguage.set(c.chunkId, languageOf(c.text));
  const languageOfChunk = (id: string): TextLanguage | null => chunkLanguage.get(id) ?? null;
  const hasOpenSearch = runs.some((r) => r.lists['keyword:opensearch'] !== undefined);
  const rankers = reportedRankers(hasOpenSearch, languageOfChunk);
  const bySplit = (split: Split): QuestionRun[] => runs.filter((r) => splitOf(r) === split);
  const evaluate = (ranker: Ranker): RankerResult => {
    const result = { name: ranker.name } as RankerResult;
    for (const split of ['heldOut', 'tuning', 'tunedSets'] as const) {
      const part = bySplit(split);
      result[split] = breakdown(part, rankAll(part, ranker, languageOfChunk));
    }
    return result;
  };
  const tuningRuns = [...bySplit('tuning'), ...bySplit('tunedSets')];
  const parents = new Map(docs.flatMap((d) => d.children.map((c) => [c.chunkId, c.parentId] as const)));
  const parentOf = (id: string): string | null => parents.get(id) ?? null;
  const siblingWeight = chooseSiblingWeight(tuningRuns, SEARCH_DEFAULT, languageOfChunk, parentOf);
  rankers.splice(
    2,
    0,
    siblingBoostRanker(
      `fused (search default), siblings × ${siblingWeight}`,
      SEARCH_DEFAULT,
      languageOfChunk,
      parentOf,
      siblingWeight,
    ),
  );
  const rerankLine = options.reranker
    ? await measureReranker(options.reranker, runs, languageOfChunk, docs, config.outbound, rankers)
    : null;
  const results = rankers.map(evaluate);
  const levers = buildLevers(tuningRuns, languageOfChunk, true).filter(
    (l) => hasOpenSearch || !Object.values(l.spec.lists).includes('keyword:opensearch'),
  );
  const previous = results.find((r) => r.name === 'fused (previous default)') as RankerResult;
  const leverRows: LeverRow[] = judgeLevers(levers, previous, (spec, name) =>
    evaluate(fusedRanker(name, spec, languageOfChunk)),
  );
  const combined = combineKept(levers, leverRows, tuningRuns, languageOfChunk, {
    lists: LOCAL_LISTS,
    settings: PREVIOUS_DEFAULT,
  });
  const combinedResult = evaluate(fusedRanker('fused (kept levers)', combined.spec, languageOfChunk));
  const singles = results.filter((r) => !r.name.startsWith('fused'));
  const named = (name: string): RankerResult => results.find((r) => r.name === name) as RankerResult;
  const goals = {
    'search default': checkGoals(results[0] as RankerResult, singles),
    'passage windows on': checkGoals(named('fused, passage windows on'), singles),
    'search default, no second dense vector': checkGoals(
      named('fused (search default, no second dense vector)'),
      singles,
    ),
    'kept levers together': checkGoals(combinedResult, singles),
  };
  const passageWeight = pick(PASSAGE_WEIGHTS, withPassageWeight, tuningRuns, languageOfChunk);
  const passageLine = `Passage windows' weight chosen on the tuning families from ${PASSAGE_WEIGHTS.join(', ')}: ${passageWeight} (search runs ${DEFAULT_SEARCH_SETTINGS.weights.passage}).`;
  // The search default's own lists: what its fusion reorders.
  const ceilings = fusionCeilings(bySplit('heldOut'), rankers[0] as Ranker, Object.values(SEARCH_DEFAULT.lists));
  const ceilingLines = ceilingsMarkdown(
    'Held-out families: the search default against what reordering its lists could reach',
    ceilings,
  );
  const rerankGain = rerankLine
    ? `\n\n${rerankLine}\n${rerankGainLine(named('fused (search default)'), named(RERANKED_NAME))}`
    : '';
  const markdown = `${markdownReport([combinedResult, ...results], leverRows, 'search default')}\n${goalsMarkdown(goals, combined)}\n${passageLine}\n\n${ceilingLines}${rerankGain}`;
  console.log(markdown);
  const elapsedMs = Date.now() - started;
  console.log(
    `${options.ci ? 'reduced (CI) run' : 'full run'}: ${runs.length} questions, ${docs.reduce((n, d) => n + d.children.length, 0)} chunks, ${(elapsedMs / 1000).toFixed(1)} s`,
  );

  const outDir = path.join(__dirname, '..', '..', 'bench-results');
  mkdirSync(outDir, { recursive: true });
  const out = path.join(outDir, options.out);
  const perQuestion = perQuestionRows(runs, rankers, docs, languageOfChunk);
  writeFileSync(
    out,
    `${JSON.stringify(
      {
        ci: options.ci,
        chunking,
        chunkingMode: options.chunking,
        childTokens: options.childTokens,
        corpus: docs.map((d) => ({
          doc: d.doc.id,
          set: d.doc.set,
          strategy: d.plan.strategy,
          reason: d.plan.reason,
          chunks: d.children.length,
          markdownChars: d.markdown.length,
        })),
        embedders: [
          ...embedders.map(([name, e]) => ({ name, model: e.model, dimension: e.dimension })),
          ...(['en', 'zh'] as const).map((l) => ({
            name: `bge:${l}`,
            model: languageEmbedders.of(l).model,
            dimension: languageEmbedders.of(l).dimension,
          })),
        ],
        defaultFusion: DEFAULT_FUSION,
        results,
        levers: leverRows,
        keptLevers: { names: combined.kept, spec: combined.spec, result: combinedResult },
        goals,
        ceilings,
        passageWeight: { chosen: passageWeight, searchRuns: DEFAULT_SEARCH_SETTINGS.weights.passage },
        timingsMs: timings,
        elapsedMs,
        perQuestion,
      },
      null,
      2,
    )}\n`,
  );
  writeFileSync(out.replace(/\.json$/, '.md'), markdown);
  console.log(`results: ${out}`);

  const failures = floorFailures(runs, rankers[0] as Ranker, languageOfChunk, options.floors);
  for (const failure of failures) console.error(`FAIL: ${failure}`);
  if (failures.length > 0) process.exitCode = 1;
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? (error.stack ?? error.message) : error);
  process.exit(1);
});
