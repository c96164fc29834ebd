import { runDescription, runOf } from '../../client/startRun';

// What the Temporal Web UI shows of an ingestion run (staticSummary / staticDetails), the same
// for every way a run starts.

const doc = { id: 'd-1', user_id: 'alice', dataset_id: 'handbook', file_name: 'report.pdf', size_bytes: '2048' };

it('names the file, its size, the dataset and the user, and what kind of start it was', () => {
  const first = runDescription({ ...runOf(doc), taskId: 't-1' });
  expect(first.staticSummary).toBe('ingest report.pdf (2048 bytes) in handbook');
  expect(first.staticDetails.split('\n')).toEqual([
    '**File:** report.pdf',
    '**Size:** 2048 bytes',
    '**Dataset:** handbook',
    '**User:** alice',
    '**Document:** d-1',
    '**Task:** t-1',
  ]);
  expect(runDescription({ ...runOf(doc), taskId: 't-2', retryOfTaskId: 't-1' }).staticSummary).toMatch(
    /^retry report\.pdf/,
  );
  expect(runDescription({ ...runOf(doc), taskId: 't-3', reembedOfTaskId: 't-1' }).staticDetails).toContain(
    '**Re-embed of task:** t-1',
  );
  expect(runDescription({ documentId: 'd-2', userId: 'bob', datasetId: 'x', taskId: 't' }).staticSummary).toBe(
    'ingest document d-2 in x',
  );
});

it('keeps the summary one line however the file is named', () => {
  const { staticSummary } = runDescription({
    ...runOf({ ...doc, file_name: `a\nb\r\u0007${'x'.repeat(300)}` }),
    taskId: 't',
  });
  expect([...staticSummary].filter((c) => c.charCodeAt(0) < 0x20)).toEqual([]);
  expect(staticSummary.length).toBeLessThan(160);
});

it('shows a hostile file name, dataset and user literally in the summary and the details', () => {
  const { staticSummary, staticDetails } = runDescription({
    documentId: 'd-3',
    userId: '<script>alert(1)</script>',
    datasetId: '**hr** [x](javascript:y)',
    taskId: 't',
    file: { name: '<img src=x onerror=alert(1)>_q_\u202e.pdf', sizeBytes: 1 },
  });
  expect(staticSummary).toBe(
    'ingest \\<img src=x onerror=alert(1)\\>\\_q\\_.pdf (1 bytes) in \\*\\*hr\\*\\* \\[x\\](javascript:y)',
  );
  expect(staticDetails.split('\n').slice(0, 4)).toEqual([
    '**File:** \\<img src=x onerror=alert(1)\\>\\_q\\_.pdf',
    '**Size:** 1 bytes',
    '**Dataset:** \\*\\*hr\\*\\* \\[x\\](javascript:y)',
    '**User:** \\<script\\>alert(1)\\</script\\>',
  ]);
});
