import {
  call,
  fileForm,
  newUser,
  startApi,
  waitForDocument,
  type ApiHarness,
  type TestUser,
} from '../../testkit/harness/apiHarness';
import { storeProfiles } from '../../testkit/harness/profiles';

// Metadata and filters end to end over the HTTP API, on a real worker, on both store profiles:
// metadata given at upload (query parameter or multipart field), filtered search over one or
// several datasets, hits an application can cite (metadata, highlights, parent passage), cursor
// pages and a threshold, and a metadata change that reaches every store's filter without re-embedding.

type Hit = {
  chunkId: string;
  documentId: string;
  datasetId: string;
  text: string;
  score: number;
  metadata?: Record<string, unknown>;
  highlights?: { start: number; end: number }[];
  parent?: { text: string } | null;
  ranks: Record<string, number>;
};
type SearchBody = { hits: Hit[]; nextCursor: string | null };
type ErrorBody = { error: { code: string; message: string } };

const QUERY = 'lighthouse keeper lamp';

describe.each(storeProfiles())('%s', (_name, overrides) => {
  let h: ApiHarness;
  let user: TestUser;
  const dataset = 'filters';
  const docs: Record<string, string> = {};

  async function upload(name: string, text: string, metadata?: object, asField = false, target = dataset) {
    const form = new FormData();
    if (metadata && asField) form.append('metadata', JSON.stringify(metadata));
    for (const [key, value] of fileForm([{ name, content: text }]).entries()) form.append(key, value);
    const query = metadata && !asField ? `?metadata=${encodeURIComponent(JSON.stringify(metadata))}` : '';
    return call<{ documentId: string } & ErrorBody>(h.baseUrl, 'POST', `/v1/datasets/${target}/documents${query}`, {
      user,
      body: form,
    });
  }

  const search = (body: Record<string, unknown>) =>
    call<SearchBody & ErrorBody>(h.baseUrl, 'POST', '/v1/search', {
      user,
      body: { query: QUERY, datasets: [dataset], ...body },
    });

  beforeAll(async () => {
    h = await startApi(overrides);
    user = await newUser(h, 'filters');
    const notes: [string, string, object | undefined, boolean][] = [
      [
        'north',
        'The lighthouse keeper trims the lamp wick at dusk on the north cape.',
        { team: 'a', year: 2021 },
        false,
      ],
      [
        'south',
        'On the south cape the lighthouse lamp turns all night; the keeper sleeps by day.',
        { team: 'b', year: 2024 },
        true,
      ],
      [
        'east',
        'The east lighthouse has no keeper now: its lamp runs on its own.',
        { team: 'a', tags: ['automated'] },
        false,
      ],
      ['west', 'Fishing boats leave the west harbour before the lighthouse lamp goes out.', undefined, false],
    ];
    for (const [name, text, metadata, asField] of notes) {
      const r = await upload(`${name}.md`, `# ${name}\n\n${text}\n`, metadata, asField);
      expect(r.status).toBe(202);
      docs[name] = r.body.documentId;
      h.tw.track(r.body.documentId);
    }
    const other = await upload(
      'far.md',
      '# far\n\nA lighthouse keeper on a far island tends the lamp.\n',
      { team: 'a' },
      false,
      'filters-2',
    );
    docs.far = other.body.documentId;
    h.tw.track(other.body.documentId);
    for (const id of Object.values(docs)) expect((await waitForDocument(h, user, id)).pipelineStatus).toBe('SUCCESS');
  });
  afterAll(() => h.close());

  it('keeps the metadata given at upload, as a query parameter or a multipart field', async () => {
    const north = await call<{ metadata: object; source: string }>(h.baseUrl, 'GET', `/v1/documents/${docs.north}`, {
      user,
    });
    expect(north.body.metadata).toEqual({ team: 'a', year: 2021 });
    expect(north.body.source).toBe('upload');
    const south = await call<{ metadata: object }>(h.baseUrl, 'GET', `/v1/documents/${docs.south}`, { user });
    expect(south.body.metadata).toEqual({ team: 'b', year: 2024 });
  });

  it('refuses metadata past its bounds before anything is stored', async () => {
    const r = await upload('bad.md', '# bad\n\ntext\n', { 'not a key': 1 });
    expect(r.status).toBe(400);
    expect(r.body.error.code).toBe('METADATA_INVALID');
    const nested = await upload('bad.md', '# bad\n\ntext\n', { team: { nested: true } });
    expect(nested.body.error.code).toBe('METADATA_INVALID');
  });

  it('searches only the documents that pass the filter, each hit with its metadata, highlights and parent', async () => {
    const r = await search({ filter: { field: 'meta.team', eq: 'a' }, include: ['metadata', 'highlights', 'parent'] });
    expect(r.status).toBe(200);
    expect(new Set(r.body.hits.map((hit) => hit.documentId))).toEqual(new Set([docs.north, docs.east]));
    for (const hit of r.body.hits) {
      expect(hit.metadata?.team).toBe('a');
      const marked = (hit.highlights ?? []).map(({ start, end }) => hit.text.slice(start, end).toLowerCase());
      expect(marked.length).toBeGreaterThan(0);
      expect(marked.every((term) => ['lighthouse', 'keeper', 'lamp'].includes(term))).toBe(true);
      expect(hit).toHaveProperty('parent');
    }
    const ranged = await search({
      filter: { and: [{ field: 'meta.year', range: { gte: 2022 } }, { not: { field: 'meta.tags', exists: true } }] },
    });
    expect(new Set(ranged.body.hits.map((hit) => hit.documentId))).toEqual(new Set([docs.south]));
  });

  it('fuses several datasets into one list, the filter holding in each', async () => {
    const r = await search({ datasets: [dataset, 'filters-2'], filter: { field: 'meta.team', eq: 'a' }, limit: 20 });
    expect(new Set(r.body.hits.map((hit) => hit.documentId))).toEqual(new Set([docs.north, docs.east, docs.far]));
    expect(r.body.hits.find((hit) => hit.documentId === docs.far)?.datasetId).toBe('filters-2');
  });

  it('pages with a cursor that belongs to its own search, and cuts at a threshold', async () => {
    const all = await search({ limit: 50 });
    const first = await search({ limit: 2 });
    expect(first.body.hits.map((hit) => hit.chunkId)).toEqual(all.body.hits.slice(0, 2).map((hit) => hit.chunkId));
    expect(first.body.nextCursor).not.toBeNull();
    const second = await search({ limit: 2, cursor: first.body.nextCursor });
    expect(second.body.hits.map((hit) => hit.chunkId)).toEqual(all.body.hits.slice(2, 4).map((hit) => hit.chunkId));
    const foreign = await call<ErrorBody>(h.baseUrl, 'POST', '/v1/search', {
      user,
      body: { query: 'another query', datasets: [dataset], cursor: first.body.nextCursor },
    });
    expect(foreign.status).toBe(400);
    expect(foreign.body.error.code).toBe('CURSOR_INVALID');
    const best = all.body.hits[0]?.score ?? 0;
    const cut = await search({ limit: 50, minScore: best });
    expect(cut.body.hits.length).toBeGreaterThan(0);
    expect(cut.body.hits.every((hit) => hit.score >= best)).toBe(true);
    expect(cut.body.hits.length).toBeLessThan(all.body.hits.length);
    expect(cut.body.nextCursor).toBeNull();
  });

  it('refuses a filter that is not valid, saying where', async () => {
    const r = await search({ filter: { field: 'meta.year', range: { gte: 2020, lt: '2024-01-01' } } });
    expect(r.status).toBe(400);
    const get = await call<ErrorBody>(
      h.baseUrl,
      'GET',
      `/v1/datasets/${dataset}/search?q=lamp&filter=${encodeURIComponent('{"field":"pageCount","eq":"ten"}')}`,
      { user },
    );
    expect(get.status).toBe(400);
    expect(get.body.error.code).toBe('FILTER_INVALID');
    expect(get.body.error.message).toMatch(/pageCount takes numbers/);
  });

  it('a metadata change reaches every list without re-embedding', async () => {
    const before = await call<{ chunks: { dense: number } }>(h.baseUrl, 'GET', `/v1/documents/${docs.west}`, { user });
    const patched = await call<{ metadata: object; metadataVersion: number }>(
      h.baseUrl,
      'PATCH',
      `/v1/documents/${docs.west}/metadata`,
      { user, body: { team: 'a', year: 2020 } },
    );
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ metadata: { team: 'a', year: 2020 }, metadataVersion: 1 });
    // The copy OpenSearch filters on follows in a background workflow: wait until the keyword list,
    // filtered, finds the document by a word only it holds.
    const deadline = Date.now() + 60_000;
    let keyword: number | undefined;
    while (keyword === undefined && Date.now() < deadline) {
      const r = await search({ query: 'harbour', filter: { field: 'meta.team', eq: 'a' }, limit: 10 });
      keyword = r.body.hits.find((hit) => hit.documentId === docs.west)?.ranks.keyword;
      if (keyword === undefined) await new Promise((resolve) => setTimeout(resolve, 500));
    }
    expect(keyword).toBe(1);
    const stale = await search({ query: 'harbour', filter: { field: 'meta.team', eq: 'b' }, limit: 10 });
    expect(stale.body.hits.map((hit) => hit.documentId)).not.toContain(docs.west);
    const after = await call<{ chunks: { dense: number } }>(h.baseUrl, 'GET', `/v1/documents/${docs.west}`, { user });
    expect(after.body.chunks).toEqual(before.body.chunks);
    const removed = await call<{ metadata: object }>(h.baseUrl, 'PATCH', `/v1/documents/${docs.west}/metadata`, {
      user,
      body: { year: null },
    });
    expect(removed.body.metadata).toEqual({ team: 'a' });
  });
});
