import { randomUUID } from 'node:crypto';
import { chunkMarkdown } from '../../chunker/chunkMarkdown';
import { createDb } from '../../db/connection';
import { replaceChunks } from '../../db/repositories/chunks';
import { insertDocument } from '../../db/repositories/documents';
import { singleEmbedderResolver } from '../../embedders/embedderResolver';
import { createLocalHashEmbedder } from '../../embedders/localHashEmbedder';
import { HIT_TEXT_MAX_CHARS, hybridSearch } from '../../search/hybridSearch';
import { createPostgresKeywordIndex } from '../../stores/postgresKeywordIndex';
import { createPostgresVectorStore } from '../../stores/postgresVectorStore';
import { TEST_DATABASE_URL } from '../../testkit/harness/testConfig';
import { tokenize } from '../../tokenizer/tokenize';

// What a hit returns is bounded whatever its chunk holds: a child of 8,192 tokens may hold 131,072
// characters (chunker/charCap.ts), and 50 such hits were 6.5 MB of one search's answer.

const db = createDb(TEST_DATABASE_URL, 2);
afterAll(() => db.destroy());

it('returns a long chunk cut at HIT_TEXT_MAX_CHARS and says so, a short one whole', async () => {
  const keywords = createPostgresKeywordIndex(db);
  await keywords.ensureIndex();
  const scope = { userId: `u-${randomUUID()}`, datasetId: 'hit-text' };
  const documentId = randomUUID();
  await insertDocument(db, {
    id: documentId,
    user_id: scope.userId,
    dataset_id: scope.datasetId,
    file_name: 'long.md',
    size_bytes: 1,
    content_sha256: randomUUID(),
    source_object_key: `sources/${documentId}`,
  });
  const long = `heron${' '.repeat(80_000)}marmalade`;
  const markdown = `# Long\n\n${long}\n\n# Short\n\nheron marmalade in brief`;
  const drafts = chunkMarkdown(documentId, markdown, { maxTokens: 8192, overlapTokens: 0 });
  await replaceChunks(db, { ...scope, documentId, generation: 0 }, drafts);
  const children = drafts.filter((draft) => draft.kind === 'child');
  expect(Math.max(...children.map((child) => child.text.length))).toBeGreaterThan(HIT_TEXT_MAX_CHARS);
  const entries = children.map((c) => ({
    chunkId: c.chunkId,
    documentId,
    fileName: 'long.md',
    text: c.text,
    tokens: tokenize(c.text),
  }));
  expect((await keywords.bulkIndex(scope, entries)).failedChunkIds).toEqual([]);
  const embedder = createLocalHashEmbedder({ dimension: 16 });
  const deps = {
    db,
    vectors: createPostgresVectorStore(db),
    keywords,
    embedders: singleEmbedderResolver(embedder),
    languageEmbedders: null,
  };

  const hits = await hybridSearch(deps, scope, 'heron marmalade', 10);
  expect(hits.map((hit) => [hit.sectionPath[0], hit.textTruncated, hit.text.length]).sort()).toEqual(
    [
      ['Long', true, HIT_TEXT_MAX_CHARS],
      ['Short', false, children.find((c) => c.sectionPath[0] === 'Short')!.text.length],
    ].sort(),
  );
  const longHit = hits.find((hit) => hit.textTruncated)!;
  expect(children.find((c) => c.chunkId === longHit.chunkId)!.text.startsWith(longHit.text)).toBe(true);
});
