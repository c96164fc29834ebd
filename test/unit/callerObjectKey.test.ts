import { sourceKey } from '../../activities/stages/registerSource';
import type { IngestSource } from '../../contracts/ingestSchema';
import { SluiceError } from '../../contracts/sluiceError';

// A source key a caller names is refused by its shape, before any store is asked, whichever store
// is configured: the same keys as an objectKey (either store) and inside an s3:// URI (S3).

const DOC = '0b7e7a39-3c1f-4a52-9d0e-6f1d2a3b4c5d';

function codeOf(source: IngestSource, bucket: string | null): string {
  try {
    sourceKey(source, bucket);
  } catch (error) {
    return error instanceof SluiceError ? `${error.code}:${error.permanent}` : 'other';
  }
  return 'accepted';
}

const HOSTILE = [
  `./documents/u/${DOC}/source`,
  `inbox/./../documents/u/${DOC}/source`,
  `inbox/.`,
  `/documents/u/${DOC}/source`,
  `inbox//a.md`,
  `inbox/a.md/`,
  `inbox\\..\\documents\\u\\${DOC}\\source`,
  `inbox\\a.md`,
  `%2e%2e/documents/u/${DOC}/source`,
  `inbox/%2E%2E/documents/x`,
  `inbox%2f..%2fdocuments/x`,
  `Documents/u/${DOC}/source`,
  `DOCUMENTS/x`,
  `inbox/a\u0000.md`,
  'documents',
];

it.each(HOSTILE)('refuses %j as a local objectKey, an S3 objectKey and in an s3:// URI', (key) => {
  expect(codeOf({ objectKey: key }, null)).toBe('INVALID_INGEST_INPUT:true');
  expect(codeOf({ objectKey: key }, 'sluice')).toBe('INVALID_INGEST_INPUT:true');
  expect(codeOf({ uri: `s3://sluice/${key}` }, 'sluice')).toBe('INVALID_INGEST_INPUT:true');
});

it('keeps ordinary keys, dots inside names and other percent-escapes', () => {
  for (const key of [
    'inbox/a.md',
    'inbox/v1.2/report..final.pdf',
    'inbox/a%20b.pdf',
    'my-documents/a.md',
    '.hidden/a',
  ]) {
    expect(codeOf({ objectKey: key }, null)).toBe('accepted');
    expect(codeOf({ uri: `s3://sluice/${key}` }, 'sluice')).toBe('accepted');
  }
});
