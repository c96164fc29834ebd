import { LANGUAGE_ROUTING } from '../../search/languageRouting';
import { DEFAULT_SEARCH_SETTINGS } from '../../search/searchSettings';
import {
  call,
  fileForm,
  newUser,
  startApi,
  waitForDocument,
  type ApiHarness,
  type TestUser,
} from '../../testkit/harness/apiHarness';

// Hit testing through the HTTP API, everything real: documents ingested by the worker
// with the second dense vector on (the real bge-small models), then POST /v1/datasets/{id}/hit-test
// with and without adjustments, and a dataset's own `search` settings.

type Hit = {
  rank: number;
  fileName: string;
  sectionPath: string[];
  score: number;
  ranks: Record<'dense' | 'languageDense' | 'passage' | 'sparse' | 'keyword' | 'identifier', number | null>;
  languageFactor: number;
};
type HitTestBody = {
  settings: { rrfK: number; weights: Record<string, number>; denseModels: string[] };
  wantedLanguage: { language: 'en' | 'zh'; named: boolean } | null;
  hits: Hit[];
};

let h: ApiHarness;
let user: TestUser;
const DATASET = 'hit-test';
const path = `/v1/datasets/${DATASET}/hit-test`;

const ENGLISH = `# Birds of the valley\n\n## Riverbanks\n\nThe kingfisher digs its nest in the steep clay bank of the river and dives for small fish.\n\n## Meadows\n\nSkylarks sing high above the hay meadows in early summer.\n\n## Ringing\n\nEach ringed bird is entered with \`ring-log --species=kingfisher\` before release.\n`;
const OPERATIONS = `# Running the station\n\n## Routine\n\nThe station opens at dawn and the volunteers check the mist nets. Nets are closed when the wind rises above a light breeze. Each bird is weighed in a cloth bag on a spring balance. Wing length is measured with a stopped ruler. The data sheet is copied into the database every evening. Volunteers under sixteen work with a licensed ringer beside them.\n`;
const CHINESE = `# 山谷的鸟类\n\n## 河岸\n\n翠鸟在河边陡峭的泥岸上挖洞筑巢，潜入水中捕捉小鱼。\n\n## 草地\n\n云雀在初夏的草地上空高声歌唱。\n`;

beforeAll(async () => {
  // The passage windows are off by default (their cost, docs/search.md): this suite turns them on.
  h = await startApi({ SLUICE_LANGUAGE_DENSE: 'on', SLUICE_PASSAGE_WINDOWS: 'on' });
  user = await newUser(h, 'hits');
  for (const [name, content] of [
    ['birds.md', ENGLISH],
    ['birds-zh.md', CHINESE],
    ['operations.md', OPERATIONS],
  ]) {
    const r = await call<{ documentId: string }>(h.baseUrl, 'POST', `/v1/datasets/${DATASET}/documents`, {
      user,
      body: fileForm([{ name: name as string, content: content as string }]),
    });
    expect(r.status).toBe(202);
    h.tw.track(r.body.documentId);
    expect((await waitForDocument(h, user, r.body.documentId)).pipelineStatus).toBe('SUCCESS');
  }
}, 240_000);
afterAll(() => h?.close());

const hitTest = (body: unknown) => call<HitTestBody>(h.baseUrl, 'POST', path, { user, body });

test("shows every retriever's rank, the fused score and the section path of each hit", async () => {
  const r = await hitTest({ query: 'where does the kingfisher build its nest' });
  expect(r.status).toBe(200);
  expect(r.body.settings).toEqual(DEFAULT_SEARCH_SETTINGS);
  const top = r.body.hits[0] as Hit;
  expect(top.fileName).toBe('birds.md');
  expect(top.sectionPath).toEqual(['Birds of the valley', 'Riverbanks']);
  expect(Object.keys(top.ranks).sort()).toEqual([
    'dense',
    'identifier',
    'keyword',
    'languageDense',
    'passage',
    'sparse',
  ]);
  // The English question reaches the English chunk through the English bge model's list.
  expect(top.ranks.languageDense).toBe(1);
  const { weights, rrfK } = r.body.settings;
  const expected = Object.entries(top.ranks).reduce(
    (sum, [list, rank]) => (rank === null ? sum : sum + (weights[list] ?? 0) / (rrfK + rank)),
    0,
  );
  expect(top.languageFactor).toBe(1);
  expect(top.score).toBeCloseTo(expected, 10);
  expect(r.body.hits.map((hit) => hit.rank)).toEqual(r.body.hits.map((_, i) => i + 1));
  expect(r.body.wantedLanguage).toEqual({ language: 'en', named: false });
  // Chinese hits were demoted by the other-language factor, and their scores say so.
  const chinese = r.body.hits.filter((hit) => hit.fileName === 'birds-zh.md');
  expect(chinese.length).toBeGreaterThan(0);
  for (const hit of chinese) expect(hit.languageFactor).toBe(LANGUAGE_ROUTING.otherLanguageFactor);
});

test('a chunk of several sentences is also ranked by its best passage window', async () => {
  const r = await hitTest({ query: 'what do they use to weigh a bird?' });
  expect(r.status).toBe(200);
  const top = r.body.hits[0] as Hit;
  expect(top.fileName).toBe('operations.md');
  expect(top.ranks.passage).toBe(1);
  // The one-sentence sections have no windows: only the passage windows' own chunk is in that list.
  expect(r.body.hits.filter((hit) => hit.ranks.passage !== null).map((hit) => hit.fileName)).toEqual(['operations.md']);
});

test('a question naming the language of its answer gets every hit in that language first', async () => {
  const r = await hitTest({ query: 'In the Chinese document, where does the kingfisher build its nest?' });
  expect(r.status).toBe(200);
  expect(r.body.wantedLanguage).toEqual({ language: 'zh', named: true });
  const files = r.body.hits.map((hit) => hit.fileName);
  const firstEnglish = files.findIndex((file) => file !== 'birds-zh.md');
  expect(files[0]).toBe('birds-zh.md');
  expect(firstEnglish).toBeGreaterThan(0);
  expect(files.slice(firstEnglish).every((file) => file === 'birds.md' || file === 'operations.md')).toBe(true);
  for (const hit of r.body.hits.slice(firstEnglish)) expect([hit.languageFactor, hit.score]).toEqual([0, 0]);
});

test('a query of identifiers only is answered by the lexical lists: the dense lists are not asked', async () => {
  const r = await hitTest({ query: 'ring-log --species=kingfisher' });
  expect(r.status).toBe(200);
  const top = r.body.hits[0] as Hit;
  expect(top.sectionPath).toEqual(['Birds of the valley', 'Ringing']);
  expect(r.body.hits.every((hit) => hit.ranks.dense === null && hit.ranks.languageDense === null)).toBe(true);
  expect(top.ranks.sparse).toBe(1);
  // Its identifiers are the whole query, so the keyword index is asked once: as the keyword list.
  expect(r.body.hits.some((hit) => hit.ranks.keyword !== null)).toBe(true);
  expect(r.body.hits.every((hit) => hit.ranks.identifier === null)).toBe(true);
  // With words beside the identifier the dense lists count again, and so does the identifier list.
  const worded = await hitTest({ query: 'what does ring-log record about a bird' });
  expect(worded.body.hits.some((hit) => hit.ranks.dense !== null)).toBe(true);
  expect(worded.body.hits.some((hit) => hit.ranks.identifier !== null)).toBe(true);
});

test("weights adjusted for one test change that test only, never the dataset's settings", async () => {
  const only = await hitTest({
    query: '翠鸟在哪里筑巢',
    adjust: { weights: { dense: 0, passage: 0, sparse: 0, keyword: 0 }, rrfK: 10 },
  });
  expect(only.status).toBe(200);
  expect(only.body.hits.length).toBeGreaterThan(0);
  for (const hit of only.body.hits) {
    expect(hit.ranks.dense).toBeNull();
    expect(hit.ranks.sparse).toBeNull();
    expect(hit.ranks.keyword).toBeNull();
    expect(hit.score).toBeCloseTo(1 / (10 + (hit.ranks.languageDense ?? NaN)), 10);
  }
  // A Chinese question searches the Chinese model's vectors only: the Chinese chunk, never English.
  expect(only.body.hits.every((hit) => hit.fileName === 'birds-zh.md')).toBe(true);
  const stored = await call<{ settings: unknown }>(h.baseUrl, 'GET', `/v1/datasets/${DATASET}/settings`, { user });
  expect(stored.body.settings).toEqual({});

  const bad = await hitTest({ query: 'kingfisher', adjust: { weights: { dense: -1 } } });
  expect(bad.status).toBe(400);
  const unknown = await hitTest({ query: 'kingfisher', adjust: { denseModels: ['colbert'] } });
  expect(unknown.status).toBe(400);
});

test("a dataset's own search settings are what its searches and hit tests run with", async () => {
  const search = { rrfK: 60, weights: { keyword: 0 }, denseModels: ['user'], rerank: false, rerankCandidates: 20 };
  const put = await call(h.baseUrl, 'PUT', `/v1/datasets/${DATASET}/settings`, { user, body: { search } });
  expect(put.status).toBe(200);
  const r = await hitTest({ query: 'kingfisher nest' });
  expect(r.body.settings).toEqual({
    rrfK: 60,
    weights: { ...DEFAULT_SEARCH_SETTINGS.weights, keyword: 0 },
    denseModels: ['user'],
    rerank: false,
    rerankCandidates: 20,
  });
  for (const hit of r.body.hits) {
    expect(hit.ranks.keyword).toBeNull();
    expect(hit.ranks.languageDense).toBeNull();
  }
  const plain = await call<{ hits: { fileName: string; score: number }[] }>(
    h.baseUrl,
    'GET',
    `/v1/datasets/${DATASET}/search?q=${encodeURIComponent('kingfisher nest')}`,
    { user },
  );
  expect(plain.body.hits.map((hit) => hit.score)).toEqual(r.body.hits.slice(0, 10).map((hit) => hit.score));
  await call(h.baseUrl, 'PUT', `/v1/datasets/${DATASET}/settings`, { user, body: { search: null } });
});
