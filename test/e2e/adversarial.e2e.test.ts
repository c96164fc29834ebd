import { randomUUID } from 'node:crypto';
import { ingestBuffer, waitTerminal } from '../../testkit/harness/ingestHelpers';
import { startTestWorker, type TestWorker } from '../../testkit/harness/testWorker';

/**
 * Generated inputs built to hurt each user-content path (type detection, parsers, chunker,
 * tokenizer, sparse weighting) through the real worker. Each is one a quadratic or exponential
 * pattern, or a spread of an unbounded array, turned into minutes of blocked CPU or a stack
 * overflow before it was fixed: each must now end SUCCESS with its text searchable, and an
 * ordinary document started after it must still succeed.
 */
const scope = { userId: `user-${randomUUID()}`, datasetId: 'adversarial' };
let tw: TestWorker;

beforeAll(async () => {
  tw = await startTestWorker();
});
afterAll(() => tw.shutdown());

const HOSTILE: [string, () => string, string, string][] = [
  ['30 empty HTML comments before plain text', () => `${'<!---->'.repeat(30)}x keepsake`, 'comments.txt', 'keepsake'],
  [
    'a heading followed by 100,000 spaces and a stray #',
    () => `# a${' '.repeat(100_000)}#x\n\nbody of lantern`,
    'heading.md',
    'lantern',
  ],
  ['60,000 dots inside a sentence', () => `Start of walrus${'.'.repeat(60_000)} end`, 'dots.txt', 'walrus'],
  ['100,000 trailing spaces on a line', () => `pelican${' '.repeat(100_000)}x\nnext line`, 'spaces.txt', 'pelican'],
  [
    '20,000 nested div elements',
    () => `<!doctype html><html><body>${'<div>'.repeat(20_000)}marmot${'</div>'.repeat(20_000)}</body></html>`,
    'deep.html',
    'marmot',
  ],
  [
    'a 200,000-row CSV',
    () =>
      `id,name,value\n${Array.from({ length: 200_000 }, (_, i) => `${i},row${i},${i * 7}`).join('\n')}\nlast,ocelot,1`,
    'rows.csv',
    'ocelot',
  ],
  [
    '150,000 lines with no blank line',
    () => `${Array.from({ length: 150_000 }, (_, i) => `line ${i} of text`).join('\n')}\nfinal heron`,
    'lines.txt',
    'heron',
  ],
  ['a million-character word', () => `before ${'q'.repeat(1_000_000)} after gazelle`, 'word.txt', 'gazelle'],
  ['a blockquote 10,000 levels deep', () => `${'> '.repeat(10_000)}quoted narwhal\n`, 'quotes.md', 'narwhal'],
  [
    '50,000 headings',
    () => `${Array.from({ length: 50_000 }, (_, i) => `## h${i}`).join('\n')}\n\nbody of bison`,
    'headings.md',
    'bison',
  ],
  [
    'a table row of 10,000 cells',
    () =>
      `| ${Array.from({ length: 10_000 }, (_, i) => `c${i}`).join(' | ')} |\n| ${Array.from({ length: 10_000 }, () => '---').join(' | ')} |\n| tapir |`,
    'wide.md',
    'tapir',
  ],
];

it.each(HOSTILE)(
  '%s ends SUCCESS with its text, and the worker still serves the next document',
  async (_label, content, name, word) => {
    const bad = await ingestBuffer(tw, content(), name, scope);
    const good = await ingestBuffer(tw, `# Fine\n\nA perfectly ordinary document ${randomUUID()}.\n`, 'fine.md', scope);

    expect(await waitTerminal(tw.client, bad.documentId)).toMatchObject({ status: 'SUCCESS' });
    expect((await waitTerminal(tw.client, good.documentId)).status).toBe('SUCCESS');
    const found = await tw.adapters.db
      .selectFrom('chunks')
      .select('chunk_id')
      .where('document_id', '=', bad.documentId)
      .where('kind', '=', 'child')
      .where('text', 'like', `%${word}%`)
      .executeTakeFirst();
    expect(found).toBeDefined();
  },
  300_000,
);
