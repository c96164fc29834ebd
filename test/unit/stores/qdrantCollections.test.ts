import { DENSE_INFIX, denseCollectionName } from '../../../stores/qdrantCollections';

// A model's Qdrant collection name: one per exact (model, dimension), within the characters and
// length every Qdrant version accepts, and recognisable as the base's by its prefix.

const BASE = 'sluice_chunks';

it('gives each exact model name and dimension its own collection', () => {
  const names = [
    { model: 'BAAI/bge-m3', dimension: 1024 },
    { model: 'baai-bge-m3', dimension: 1024 },
    { model: 'BAAI/bge-m3', dimension: 512 },
    { model: 'text-embedding-3-small', dimension: 1536 },
  ].map((m) => denseCollectionName(BASE, m));
  expect(new Set(names).size).toBe(names.length);
  expect(denseCollectionName(BASE, { model: 'BAAI/bge-m3', dimension: 1024 })).toBe(names[0]);
});

it('keeps to safe characters and a bounded length, under the base prefix', () => {
  for (const model of ['org/Model Name:v2?*', '模型', '', 'x'.repeat(5000)]) {
    const name = denseCollectionName(BASE, { model, dimension: 768 });
    expect(name.startsWith(`${BASE}${DENSE_INFIX}`)).toBe(true);
    expect(name).toMatch(/^[a-z0-9_-]+$/);
    expect(name.length).toBeLessThanOrEqual(BASE.length + DENSE_INFIX.length + 48 + 14);
    expect(name).toContain('_768_');
  }
  expect(denseCollectionName(BASE, { model: 'text-embedding-3-small', dimension: 1536 })).toMatch(
    /^sluice_chunks__dense__text-embedding-3-small_1536_[0-9a-f]{8}$/,
  );
});
