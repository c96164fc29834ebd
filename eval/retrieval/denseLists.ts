import type { BgeEmbedders } from '../../embedders/bgeEmbedder';
import type { Embedder } from '../../embedders/embedder';
import type { KeywordIndex, TenantScope, VectorStore } from '../../stores/ports';
import type { ParsedDoc } from './corpus';
import { indexDense, indexLanguageDense, titleOf } from './indexCorpus';
import type { EvalQuestion } from './labels';
import { SEARCH_CANDIDATE_LISTS } from './reportedRankers';
import { baseLists, languageDenseList, passageList, spaceList, type QuestionLists } from './retrieveLists';

export interface DenseListsInput {
  stores: { vectors: VectorStore; postgresKeywords: KeywordIndex };
  scope: TenantScope;
  docs: ParsedDoc[];
  questions: EvalQuestion[];
  /** Each question's lists, filled in place (one entry per question, in order). */
  lists: QuestionLists[];
  batchSize: number;
  /** The first dense vector's embedders by list name: `dense:<name>`. */
  embedders: [string, Embedder][];
  /** The real embedder, also embedded with each document's title for that lever. */
  model: Embedder;
  languageEmbedders: BgeEmbedders;
  time: <T>(name: string, work: () => Promise<T>) => Promise<T>;
}

/**
 * Every dense space indexed, then searched with every question: each first-vector embedder (with
 * the sparse and Postgres keyword lists `retrieveCandidates` returns beside it), the real embedder
 * over title-prefixed text, the second dense vector (the bge model of each chunk's language), and
 * the passage windows' list over the candidates of the lists search fuses.
 */
export async function collectDenseLists(input: DenseListsInput): Promise<void> {
  const { stores, scope, docs, questions, lists, batchSize, model, languageEmbedders, time } = input;
  const addEach = async (name: string, listsOf: (question: string) => Promise<QuestionLists>): Promise<void> =>
    time(`search.${name}`, async () => {
      for (const [i, q] of questions.entries()) Object.assign(lists[i] ?? {}, await listsOf(q.question));
    });
  for (const [name, embedder] of input.embedders) {
    await time(`embed.${name}`, () => indexDense(stores.vectors, embedder, embedder.model, scope, docs, batchSize));
    await addEach(name, (question) => baseLists(stores, [name, embedder], scope, question));
  }
  const titleSpace = `${model.model}+title`;
  await time('embed.model+title', () =>
    indexDense(stores.vectors, model, titleSpace, scope, docs, batchSize, (doc, text) => `${titleOf(doc)}\n${text}`),
  );
  await addEach('model+title', async (question) => ({
    'dense:model+title': await spaceList(stores.vectors, model, titleSpace, scope, question),
  }));
  await time('embed.bge', () => indexLanguageDense(stores.vectors, languageEmbedders, scope, docs, batchSize));
  await addEach('bge', (question) =>
    languageDenseList(stores.vectors, stores.postgresKeywords, languageEmbedders, model, scope, question),
  );
  await time('search.window', async () => {
    for (const [i, q] of questions.entries()) {
      const own = lists[i] ?? {};
      Object.assign(
        own,
        await passageList(stores.vectors, languageEmbedders, scope, q.question, own, SEARCH_CANDIDATE_LISTS),
      );
    }
  });
}
