import { metadataProblem } from '../../../contracts/documentMetadata';
import { sourceMetadata } from '../../../activities/sources/sourceMetadata';

it("says a synced document's path, time and the source's own metadata, within the metadata bounds", () => {
  const meta = sourceMetadata('guides/pump.md', '2026-12-07T10:00:00.000Z', { team: 'ops', 'x y': 'z'.repeat(600) });
  expect(meta).toEqual({
    sourcePath: 'guides/pump.md',
    sourceModified: '2026-12-07T10:00:00.000Z',
    'source.team': 'ops',
    'source.x_y': 'z'.repeat(512),
  });
  expect(metadataProblem(meta)).toBeNull();
});

it('keeps at most 16 of the source’s keys and leaves out the time when the source has none', () => {
  const own = Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`k${i}`, 'v']));
  const meta = sourceMetadata('a'.repeat(700), null, own);
  expect(Object.keys(meta)).toHaveLength(17);
  expect(meta.sourceModified).toBeUndefined();
  expect(meta.sourcePath).toHaveLength(512);
  expect(metadataProblem(meta)).toBeNull();
});
