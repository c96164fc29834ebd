import fs from 'node:fs';
import path from 'node:path';
import { sourceKey } from '../../../activities/stages/registerSource';
import { IngestInputSchema } from '../../../contracts/ingestSchema';
import { contractFiles } from '../../../contracts/publishedContract';
import { documentIdOfWorkflowId } from '../../../contracts/ingest';
import { SluiceError } from '../../../contracts/sluiceError';

const DOC = '0b7e7a39-3c1f-4a52-9d0e-6f1d2a3b4c5d';
const TASK = '5d1c2b3a-7e6f-4a0b-8c9d-0e1f2a3b4c5d';

describe('published contract', () => {
  it('docs/contract matches the generator (run `npm run contract` after changing a schema)', () => {
    const dir = path.join(__dirname, '..', '..', '..', 'docs', 'contract');
    for (const [name, text] of Object.entries(contractFiles())) {
      expect(fs.readFileSync(path.join(dir, name), 'utf8')).toBe(text);
    }
  });

  it('accepts both input forms and refuses one with neither a document nor a source', () => {
    expect(
      IngestInputSchema.safeParse({ documentId: DOC, userId: 'u', datasetId: 'd', taskId: TASK, retryWait: '1h' })
        .success,
    ).toBe(true);
    expect(
      IngestInputSchema.safeParse({
        source: { uri: 's3://sluice/inbox/a.md' },
        fileName: 'a.md',
        userId: 'u',
        datasetId: 'd',
      }).success,
    ).toBe(true);
    expect(IngestInputSchema.safeParse({ userId: 'u', datasetId: 'd' }).success).toBe(false);
    expect(
      IngestInputSchema.safeParse({ source: { objectKey: 'inbox/a.md' }, userId: 'u', datasetId: 'd' }).success,
    ).toBe(false);
    expect(
      IngestInputSchema.safeParse({
        source: { objectKey: 'a', uri: 's3://b/k' },
        fileName: 'a',
        userId: 'u',
        datasetId: 'd',
      }).success,
    ).toBe(false);
  });

  it('takes document and task ids only as lower-case UUIDs, never as path segments', () => {
    const base = { documentId: DOC, userId: 'u', datasetId: 'd', taskId: TASK };
    expect(IngestInputSchema.safeParse(base).success).toBe(true);
    for (const bad of ['../../tmp/x', 't-1', DOC.toUpperCase(), `${DOC}/..`, '']) {
      expect(IngestInputSchema.safeParse({ ...base, taskId: bad }).success).toBe(false);
      expect(IngestInputSchema.safeParse({ ...base, documentId: bad }).success).toBe(false);
      expect(IngestInputSchema.safeParse({ ...base, retryOfTaskId: bad }).success).toBe(false);
      expect(IngestInputSchema.safeParse({ ...base, reembedOfTaskId: bad }).success).toBe(false);
    }
  });

  it('takes a chunking choice with a source only, within the bounds of the dataset settings', () => {
    const fromSource = { source: { objectKey: 'inbox/a.md' }, fileName: 'a.md', userId: 'u', datasetId: 'd' };
    const choice = { strategy: 'qa', parameters: { childTokens: 200, overlapTokens: 20 } };
    expect(IngestInputSchema.safeParse({ ...fromSource, chunkingChoice: choice }).success).toBe(true);
    expect(IngestInputSchema.safeParse({ ...fromSource, chunkingChoice: {} }).success).toBe(true);
    const registered = { documentId: DOC, userId: 'u', datasetId: 'd', taskId: TASK };
    expect(IngestInputSchema.safeParse({ ...registered, chunkingChoice: choice }).success).toBe(false);
    for (const bad of [
      { strategy: 'auto' },
      { strategy: 'sentences' },
      { parameters: { childTokens: 4 } },
      { parameters: { childTokens: 100, overlapTokens: 80 } },
      { parameters: { colour: 1 } },
    ])
      expect(IngestInputSchema.safeParse({ ...fromSource, chunkingChoice: bad }).success).toBe(false);
  });

  it('reads the document id from the workflow id ingest:<uuid> only', () => {
    expect(documentIdOfWorkflowId(`ingest:${DOC}`)).toBe(DOC);
    expect(documentIdOfWorkflowId('ingest:not-a-uuid')).toBeNull();
    expect(documentIdOfWorkflowId(DOC)).toBeNull();
  });
});

describe('sourceKey', () => {
  const codeOf = (fn: () => unknown) => {
    try {
      fn();
    } catch (error) {
      return error instanceof SluiceError ? `${error.code}:${error.permanent}` : 'other';
    }
    return 'none';
  };

  it('takes an object key, or the key of an s3:// URI in the configured bucket', () => {
    expect(sourceKey({ objectKey: 'inbox/a.md' }, null)).toBe('inbox/a.md');
    expect(sourceKey({ uri: 's3://sluice/inbox/x/y.pdf' }, 'sluice')).toBe('inbox/x/y.pdf');
  });

  it("refuses another bucket, a local store, sluice's own keys and .. as permanent INVALID_INGEST_INPUT", () => {
    expect(codeOf(() => sourceKey({ uri: 's3://other/inbox/a.md' }, 'sluice'))).toBe('INVALID_INGEST_INPUT:true');
    expect(codeOf(() => sourceKey({ uri: 's3://sluice/inbox/a.md' }, null))).toBe('INVALID_INGEST_INPUT:true');
    expect(
      codeOf(() => sourceKey({ objectKey: 'documents/u/0b7e7a39-3c1f-4a52-9d0e-6f1d2a3b4c5d/source' }, 'sluice')),
    ).toBe('INVALID_INGEST_INPUT:true');
    expect(codeOf(() => sourceKey({ objectKey: 'inbox/../documents/x' }, 'sluice'))).toBe('INVALID_INGEST_INPUT:true');
  });
});
