import { cellsOf, findTables, isRagged, replaceTables, wellFormedTable } from '../../../enrichment/markdownTables';
import { cleanDescription, findImageRefs, replaceImageRefs } from '../../../enrichment/markdownImages';

// The pure halves of CLEANING's model enrichments: which tables are broken, which answers may
// replace them, and how an image reference becomes a marked description.

const RAGGED = '| a | b |\n| --- | --- |\n| 1 |\n| 2 | 3 | 4 |';

test('finds pipe tables with a separator row and tells ragged ones apart', () => {
  const tables = findTables(`text\n\n${RAGGED}\n\n| x | y |\n|---|:-:|\n| 1 | 2 |\n\n| not | a table |\n`);
  expect(tables.map((t) => [t.start, t.lines])).toEqual([
    [2, 4],
    [7, 3],
  ]);
  expect(tables.map(isRagged)).toEqual([true, false]);
  expect(cellsOf('| a \\| b | c |')).toEqual(['a \\| b', 'c']);
});

test('accepts only a well-formed table as an answer', () => {
  const good = '| a | b |\n| --- | --- |\n| 1 |  |\n| 2 | 3 |';
  expect(wellFormedTable(good, 1000)).toBe(good);
  expect(wellFormedTable('```markdown\n' + good + '\n```', 1000)).toBe(good);
  expect(wellFormedTable(`Here it is:\n${good}`, 1000)).toBeNull();
  expect(wellFormedTable(RAGGED, 1000)).toBeNull();
  expect(wellFormedTable('| a | b |\n| 1 | 2 |', 1000)).toBeNull();
  expect(wellFormedTable(good, 10)).toBeNull();
});

test('replaces a table by its start line and keeps the rest', () => {
  const markdown = `before\n${RAGGED}\nafter`;
  expect(replaceTables(markdown, new Map([[1, { lines: 4, text: '| new |\n| --- |' }]]))).toBe(
    'before\n| new |\n| --- |\nafter',
  );
});

test('image references become one marked line; a model answer cannot open a heading or a link', () => {
  const markdown = '![fig](images/a.png) and ![](images/b.png) and ![x](http://e.example/c.png)';
  expect(findImageRefs(markdown).map((r) => r.name)).toEqual(['a.png', 'b.png']);
  const out = replaceImageRefs(markdown, new Map([['a.png', cleanDescription('# Title\n\n<!-- page 2 --> [x](y)')]]));
  expect(out).toBe(
    '> **Image description (written by a vision model; image "fig"):** # Title !-- page 2 -- x (y) and ![](images/b.png) and ![x](http://e.example/c.png)',
  );
  expect(cleanDescription('word '.repeat(1000)).length).toBe(1000);
});
