import { tableCell, toPipeTable } from '../../../parsers/markdownTable';
import { inTime } from '../adversarial/inTime';

describe('tableCell', () => {
  it('puts a cell on one line and escapes pipes', () => {
    expect(tableCell('  a \t\n\n  b | c\r\nd  ')).toBe('a b \\| c d');
    expect(tableCell('keeps  inner\tspacing')).toBe('keeps  inner\tspacing');
  });

  it('handles long whitespace runs without a newline in linear time', async () => {
    // `\s*\n+\s*` rescanned a run of spaces from every start when no newline followed.
    const spaces = ' '.repeat(300_000);
    expect(await inTime(() => tableCell(`a${spaces}b`))).toBe(`a${spaces}b`);
    expect(tableCell(`a${spaces}\n${spaces}b`)).toBe('a b');
  });
});

describe('toPipeTable', () => {
  it('pads the header to the widest row and leaves short body rows to the reader', () => {
    expect(toPipeTable([['a'], ['1', '2', '3'], ['4']])).toBe('| a |  |  |\n| --- | --- | --- |\n| 1 | 2 | 3 |\n| 4 |');
  });

  it('renders hundreds of thousands of rows (no spreading them into a call)', () => {
    const rows = Array.from({ length: 300_000 }, (_, i) => [`r${i}`, String(i)]);
    const lines = toPipeTable(rows).split('\n');
    expect(lines).toHaveLength(300_001);
    expect(lines[1]).toBe('| --- | --- |');
    expect(lines[300_000]).toBe('| r299999 | 299999 |');
  });
});
