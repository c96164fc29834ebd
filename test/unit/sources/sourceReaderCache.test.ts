import type { SourceRow } from '../../../db/repositories/sources';
import { cachingReaders } from '../../../stores/sources/sourceReaderCache';
import type { SourceReader } from '../../../stores/sources/sourceReader';

const row = (id: string, updatedAt: number) => ({ id, updated_at: new Date(updatedAt) }) as SourceRow;

it('builds one reader per source row version and a new one when the row changes', () => {
  const built: string[] = [];
  const readerOf = cachingReaders((r) => {
    built.push(`${r.id}@${r.updated_at.getTime()}`);
    return { name: r.id } as SourceReader;
  });
  const first = readerOf(row('a', 1));
  expect(readerOf(row('a', 1))).toBe(first);
  readerOf(row('b', 1));
  const changed = readerOf(row('a', 2));
  expect(changed).not.toBe(first);
  expect(built).toEqual(['a@1', 'b@1', 'a@2']);
});

it('keeps at most 64 readers, dropping the least recently used', () => {
  let builds = 0;
  const readerOf = cachingReaders((r) => {
    builds++;
    return { name: r.id } as SourceReader;
  });
  for (let i = 0; i < 65; i++) readerOf(row(`s${i}`, 1));
  readerOf(row('s1', 1));
  expect(builds).toBe(65);
  readerOf(row('s0', 1));
  expect(builds).toBe(66);
});
