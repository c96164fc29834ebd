import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { loadConfig } from '../../config/config';
import { createCpuPool } from '../../cpuPool/pool';
import { singleEmbedderResolver } from '../../embedders/embedderResolver';
import type { Embedder } from '../../embedders/embedder';
import { createLocalHashEmbedder } from '../../embedders/localHashEmbedder';
import { createLocalModelEmbedder } from '../../embedders/localModelEmbedder';
import { retrieveCandidates } from '../../search/hybridSearch';
import { DEFAULT_FUSION, reciprocalRankFusion } from '../../search/reciprocalRankFusion';
import { createPostgresKeywordIndex } from '../../stores/postgresKeywordIndex';
import { createPostgresVectorStore } from '../../stores/postgresVectorStore';
import { CORPUS, parseDoc, type Language } from './corpus';
import { openEvalDatabase } from './evalDatabase';
import {
  crossValidate,
  fusedRank,
  fusedScores,
  PLAIN_RRF,
  rankGrid,
  scoreSetting,
  type QuestionRun,
} from './fusionGrid';
import { indexDense, indexLexical } from './indexCorpus';
import { labelProblems, loadLabels, relevantChunks } from './labels';
import { firstRelevantRank, scoresOf } from './metrics';
import { describeSettings, printGrid, printTable, type EmbedderName, type ScoreTable } from './report';

/** The hashing embedder's default size when it is chosen (SLUICE_EMBEDDER=local, config.ts). */
const HASH_DIMENSION = 256;

interface Options {
  ci: boolean;
  /** Fails the run when fused recall@5 with the real embedder is below this, in any language. */
  minFusedRecall: number | null;
  out: string;
}

function parseArgs(argv: string[]): Options {
  const value = (name: string): string | undefined =>
    argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
  const ci = argv.includes('--ci');
  const floor = value('min-fused-recall');
  return {
    ci,
    minFusedRecall: floor === undefined ? null : Number(floor),
    out: value('out') ?? (ci ? 'retrieval-ci.json' : 'retrieval.json'),
  };
}

interface RunSet {
  language: Language;
  embedder: EmbedderName;
  questions: (QuestionRun & { question: string })[];
}

async function main(): Promise<void> {
  const options = parseArgs(process.argv.slice(2));
  const config = loadConfig();
  const started = Date.now();
  const cpu = createCpuPool({ threads: config.worker.cpuThreads, limits: config.parsing });
  const db = await openEvalDatabase(config.database.url);
  const model = createLocalModelEmbedder({
    modelDir: config.embedding.localModel.dir,
    threads: config.embedding.localModel.threads,
    maxTokens: config.embedding.localModel.maxTokens,
  });
  const embedders: [EmbedderName, Embedder][] = [
    ['hash', createLocalHashEmbedder({ dimension: HASH_DIMENSION })],
    ['model', model],
  ];
  const stores = { vectors: createPostgresVectorStore(db), keywords: createPostgresKeywordIndex(db) };
  const languages: Language[] = options.ci ? ['en'] : ['en', 'zh'];
  const runs: RunSet[] = [];
  const corpusStats: { doc: string; chunks: number; markdownChars: number }[] = [];
  const timings: Record<string, number> = {};
  /** What came back instead of a missed answer, for reading the misses in the JSON. */
  const preview = new Map<string, string>();
  try {
    for (const language of languages) {
      let t = Date.now();
      const docs = [];
      for (const doc of CORPUS.filter((d) => d.language === language && (d.ci || !options.ci)))
        docs.push(await parseDoc(cpu, doc, config.chunking));
      for (const d of docs) {
        corpusStats.push({ doc: d.doc.id, chunks: d.children.length, markdownChars: d.markdown.length });
        for (const c of d.children)
          preview.set(
            c.chunkId,
            `${d.doc.id} › ${c.sectionPath.join(' › ')} | ${c.text.slice(0, 160).replace(/\s+/g, ' ')}`,
          );
      }
      const present = new Set(docs.map((d) => d.doc.id));
      const labels = loadLabels(language).filter((l) => present.has(l.doc));
      const problems = labelProblems(labels, docs);
      if (problems.length > 0)
        throw new Error(`${problems.length} labels do not match the parsed documents:\n  ${problems.join('\n  ')}`);
      const relevant = relevantChunks(labels, docs);
      timings[`${language}.parse`] = Date.now() - t;
      t = Date.now();
      const scope = { userId: 'eval', datasetId: `retrieval-${language}` };
      await indexLexical(cpu, stores, scope, docs);
      timings[`${language}.indexLexical`] = Date.now() - t;
      for (const [name, embedder] of embedders) {
        t = Date.now();
        await indexDense(stores.vectors, embedder, scope, docs, config.embedding.batchSize);
        timings[`${language}.${name}.embed`] = Date.now() - t;
        t = Date.now();
        const deps = { ...stores, embedders: singleEmbedderResolver(embedder) };
        const questions = [];
        for (const label of labels) {
          const lists = await retrieveCandidates(deps, scope, label.question);
          questions.push({
            id: label.id,
            question: label.question,
            lists,
            relevant: relevant.get(label.id) ?? new Set<string>(),
          });
        }
        timings[`${language}.${name}.search`] = Date.now() - t;
        runs.push({ language, embedder: name, questions });
      }
    }
  } finally {
    await model.close();
    await cpu.close();
    await db.destroy();
  }

  const table: ScoreTable = {};
  const perQuestion: Record<string, unknown>[] = [];
  for (const run of runs) {
    const rows = (table[run.language] ??= {});
    for (const retriever of ['dense', 'sparse', 'keyword'] as const) {
      (rows[retriever] ??= {})[run.embedder] = scoresOf(
        run.questions.map((q) => firstRelevantRank(q.lists[retriever], q.relevant)),
      );
    }
    // The best rank any one retriever gave the answer: how far fusion is from using each list at its best.
    const bestOfThree = run.questions.map((q) => {
      const ranks = (['dense', 'sparse', 'keyword'] as const)
        .map((r) => firstRelevantRank(q.lists[r], q.relevant))
        .filter((r) => r !== null);
      return ranks.length > 0 ? Math.min(...ranks) : null;
    });
    (rows['best rank of the three'] ??= {})[run.embedder] = scoresOf(bestOfThree);
    (rows['fused (tuned default)'] ??= {})[run.embedder] = fusedScores(run.questions, DEFAULT_FUSION);
    (rows['fused (plain RRF k=60)'] ??= {})[run.embedder] = fusedScores(run.questions, PLAIN_RRF);
    for (const q of run.questions) {
      perQuestion.push({
        language: run.language,
        embedder: run.embedder,
        id: q.id,
        question: q.question,
        ranks: {
          dense: firstRelevantRank(q.lists.dense, q.relevant),
          sparse: firstRelevantRank(q.lists.sparse, q.relevant),
          keyword: firstRelevantRank(q.lists.keyword, q.relevant),
          fused: fusedRank(q, DEFAULT_FUSION),
        },
        topFused: reciprocalRankFusion(q.lists, DEFAULT_FUSION)
          .slice(0, 3)
          .map((h) => preview.get(h.chunkId) ?? h.chunkId),
      });
    }
  }
  const targets = runs.filter((r) => r.embedder === 'model').map((r) => r.questions);
  const grid = rankGrid(targets);
  const plain = scoreSetting(targets, PLAIN_RRF);
  const chosen = scoreSetting(targets, DEFAULT_FUSION);
  const heldOut = crossValidate(targets);

  printTable(table, languages);
  printGrid(grid, plain, chosen, heldOut);
  const elapsedMs = Date.now() - started;
  console.log(`\n${options.ci ? 'reduced (CI) run' : 'full run'} in ${(elapsedMs / 1000).toFixed(1)} s`);

  const outDir = path.join(__dirname, '..', '..', 'bench-results');
  mkdirSync(outDir, { recursive: true });
  const out = path.join(outDir, options.out);
  writeFileSync(
    out,
    `${JSON.stringify(
      {
        ci: options.ci,
        corpus: corpusStats,
        embedders: embedders.map(([name, e]) => ({ name, model: e.model, dimension: e.dimension })),
        chunking: config.chunking,
        defaultFusion: DEFAULT_FUSION,
        table,
        grid: {
          size: grid.length,
          ranked: grid,
          plainRrf: plain,
          tunedDefault: chosen,
          heldOut,
          defaultDescribed: describeSettings(DEFAULT_FUSION),
        },
        timingsMs: timings,
        elapsedMs,
        perQuestion,
      },
      null,
      2,
    )}\n`,
  );
  console.log(`results: ${out}`);

  if (options.minFusedRecall !== null) {
    const failures = languages.filter(
      (l) => (table[l]?.['fused (tuned default)']?.model?.recallAt5 ?? 0) < (options.minFusedRecall ?? 0),
    );
    if (failures.length > 0) {
      console.error(
        `FAIL: fused recall@5 with the real embedder is below ${options.minFusedRecall} for ${failures.join(', ')}`,
      );
      process.exitCode = 1;
    } else {
      console.log(
        `fused recall@5 with the real embedder is at least ${options.minFusedRecall} in ${languages.join(', ')}`,
      );
    }
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? (error.stack ?? error.message) : error);
  process.exit(1);
});
