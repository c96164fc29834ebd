import { csvGiantCell, csvRows, csvWideRow } from '../../../bench/adversarialInputs';
import { csvToMarkdown } from '../../../parsers/csvToMarkdown';

describe('csvToMarkdown on large inputs', () => {
  it('renders a 200,000-row CSV as one table of 200,002 lines', () => {
    // Spreading every row's width into Math.max overflowed the stack (PARSE_ENGINE_FAILED).
    const lines = csvToMarkdown(csvRows(200_000)).split('\n');
    expect(lines).toHaveLength(200_002);
    expect(lines[0]).toBe('| id | name | double |');
    expect(lines[200_001]).toBe('| 199999 | name199999 | 399998 |');
  });

  it('pads only the header of a very wide table', () => {
    const lines = csvToMarkdown(csvWideRow(100_000)).split('\n');
    expect(lines).toHaveLength(3);
    expect(lines[0]).toMatch(/^\| h0 \| h1 \|.* \| h99999 \|$/);
    expect(lines[2]).toBe('| only | two |');
  });

  it('flattens a giant multi-line cell into one table cell', () => {
    const markdown = csvToMarkdown(csvGiantCell(1_000_000));
    const lines = markdown.split('\n');
    expect(lines).toHaveLength(3);
    expect(lines[2]).toMatch(/^\| word word word .* word end \| x \|$/);
  });
});
