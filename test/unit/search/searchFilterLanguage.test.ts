import { metadataOfPairs, metadataProblem } from '../../../contracts/documentMetadata';
import { FilterInvalid, parseDocumentFilter } from '../../../contracts/searchFilter';
import { encodedRange, encodedTerm, sortableNumber } from '../../../stores/fieldEncoding';
import { decodeSearchCursor, encodeSearchCursor } from '../../../search/searchCursor';
import { highlightPattern, highlightsOf, MAX_HIGHLIGHTS } from '../../../search/highlights';

describe('the filter language', () => {
  it('takes conditions and combinators on metadata and system fields', () => {
    const filter = {
      and: [
        { field: 'meta.team', in: ['a', 'b'] },
        { not: { field: 'meta.draft', eq: true } },
        {
          or: [
            { field: 'pageCount', range: { gte: 2 } },
            { field: 'createdAt', range: { lt: '2026-01-01' } },
          ],
        },
        { field: 'meta.expires', exists: false },
      ],
    };
    expect(parseDocumentFilter(filter)).toEqual(filter);
  });

  it.each([
    [{ field: 'owner', eq: 'x' }, /a system field .* or meta.<key>/],
    [{ field: 'meta.bad key', eq: 'x' }, /meta.<key>/],
    [{ field: 'meta.year', range: { gte: 2020, lt: '2024-01-01' } }, /all numbers or all dates/],
    [{ field: 'meta.year', range: {} }, /a range needs a bound/],
    [{ field: 'meta.day', range: { gte: 'yesterday' } }, /ISO 8601/],
    [{ field: 'pageCount', eq: 'ten' }, /pageCount takes numbers/],
    [{ field: 'createdAt', eq: 3 }, /createdAt takes ISO 8601 UTC dates/],
    [{ field: 'documentId', range: { gte: '2026-01-01' } }, /documentId takes eq, in or exists/],
    [{ field: 'meta.team', eq: 'a', in: ['b'] }, /filter/],
    [{ and: [] }, /filter/],
  ])('refuses %j, saying why', (filter, message) => {
    expect(() => parseDocumentFilter(filter)).toThrow(FilterInvalid);
    expect(() => parseDocumentFilter(filter)).toThrow(message);
  });

  it('bounds depth, size and values', () => {
    let deep: unknown = { field: 'meta.a', eq: 1 };
    for (let i = 0; i < 6; i += 1) deep = { not: deep };
    expect(() => parseDocumentFilter(deep)).toThrow(/nested deeper than 6/);
    const wide = { or: Array.from({ length: 70 }, (_, i) => ({ field: 'meta.a', eq: i })) };
    expect(() => parseDocumentFilter(wide)).toThrow(/more than 64 conditions/);
    const many = {
      or: Array.from({ length: 3 }, () => ({ field: 'meta.a', in: Array.from({ length: 4000 }, (_, i) => i) })),
    };
    expect(() => parseDocumentFilter(many)).toThrow(/more than 10000 values/);
  });
});

describe('metadata', () => {
  it('is bounded in keys, types and size, with the first problem named', () => {
    expect(metadataProblem({ team: 'a', year: 2026, ok: true, tags: ['x', 'y'] })).toBeNull();
    expect(metadataProblem({ team: { nested: 1 } })).toMatch(/^team:/);
    expect(metadataProblem({ '1st': 'a' })).toMatch(/a key of letters/);
    expect(metadataProblem(Object.fromEntries(Array.from({ length: 33 }, (_, i) => [`k${i}`, i])))).toMatch(
      /at most 32 keys/,
    );
    expect(metadataProblem({ a: 'x'.repeat(513) })).toMatch(/^a:/);
    expect(
      metadataProblem(Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`k${i}`, 'x'.repeat(500)]))),
    ).toMatch(/8192 bytes/);
  });

  it('reads the CLI pairs: numbers and booleans as such, repeated keys as a list', () => {
    expect(metadataOfPairs(['team=search', 'year=2026', 'draft=false', 'tag=a', 'tag=b', 'v=1.2.3'])).toEqual({
      team: 'search',
      year: 2026,
      draft: false,
      tag: ['a', 'b'],
      v: '1.2.3',
    });
    expect(() => metadataOfPairs(['novalue'])).toThrow(/key=value/);
  });
});

describe('field encoding for indexes that keep a copy', () => {
  it('writes numbers so that their byte order is their numeric order', () => {
    const numbers = [-1e300, -1000.5, -1, -0.001, 0, 1e-9, 0.5, 1, 2, 10, 1e300];
    const encoded = numbers.map(sortableNumber);
    expect([...encoded].sort()).toEqual(encoded);
    expect(sortableNumber(-0)).toBe(sortableNumber(0));
  });

  it('keeps a number apart from the string of its digits, and ranges within their type', () => {
    expect(encodedTerm('meta.v', 3)).not.toBe(encodedTerm('meta.v', '3'));
    const range = encodedRange('meta.v', { gte: 2 });
    expect(encodedTerm('meta.v', 5) >= (range.gte as string)).toBe(true);
    expect(encodedTerm('meta.v', 5) < (range.lt as string)).toBe(true);
    expect(encodedTerm('meta.v', '5') < (range.lt as string)).toBe(false);
    expect(encodedTerm('meta.w', 5) >= (range.gte as string) && encodedTerm('meta.w', 5) < (range.lt as string)).toBe(
      false,
    );
  });
});

describe('search cursors', () => {
  const search = { query: 'lamp', datasets: ['a', 'b'], filter: { field: 'meta.x', eq: 1 }, minScore: undefined };

  it('carry an offset for their own search only', () => {
    const cursor = encodeSearchCursor(search, 20);
    expect(decodeSearchCursor({ ...search, datasets: ['b', 'a'] }, cursor)).toBe(20);
    expect(() => decodeSearchCursor({ ...search, query: 'lamps' }, cursor)).toThrow(/another search/);
    expect(() => decodeSearchCursor({ ...search, filter: null }, cursor)).toThrow(/another search/);
    expect(() => decodeSearchCursor(search, 'garbage')).toThrow(/not a search cursor/);
    const forged = Buffer.from(JSON.stringify({ o: -5, f: 'x' })).toString('base64url');
    expect(() => decodeSearchCursor(search, forged)).toThrow(/not a search cursor/);
  });
});

describe('highlights', () => {
  it("mark the query's terms as whole words, CJK terms anywhere, overlaps merged", () => {
    const text = 'Support the PORT: port 5432; 数据库连接池';
    const spans = highlightsOf(text, highlightPattern('port 数据库连接池'));
    expect(spans.map(({ start, end }) => text.slice(start, end))).toEqual(['PORT', 'port', '数据库连接池']);
  });

  it('are bounded whatever the text, and empty for a query without terms', () => {
    const spans = highlightsOf('lamp '.repeat(10_000), highlightPattern('lamp'));
    expect(spans).toHaveLength(MAX_HIGHLIGHTS);
    expect(highlightsOf('anything', highlightPattern('   '))).toEqual([]);
  });
});
