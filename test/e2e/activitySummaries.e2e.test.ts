import { randomUUID } from 'node:crypto';
import { defaultPayloadConverter } from '@temporalio/common';
import type { temporal } from '@temporalio/proto';
import { ingestWorkflowId } from '../../contracts/ingest';
import { ingestBuffer, waitTerminal } from '../../testkit/harness/ingestHelpers';
import { testConfig } from '../../testkit/harness/testConfig';
import { startTestWorker, type TestWorker } from '../../testkit/harness/testWorker';

// Operators read a run's timeline in the Web UI: every stage activity carries a summary naming the
// stage and the document's file, so the timeline reads as the pipeline.
type HistoryEvent = temporal.api.history.v1.IHistoryEvent;

let tw: TestWorker;
const scope = { userId: `summaries-${randomUUID()}`, datasetId: 'summaries' };

beforeAll(async () => {
  // Every stage a normal activity: each one is an ActivityTaskScheduled event with its summary.
  tw = await startTestWorker({
    config: testConfig({ SLUICE_LOCAL_STAGE_MAX_SOURCE_BYTES: '0', SLUICE_LOCAL_STAGE_MAX_CHUNKS: '0' }),
  });
});
afterAll(async () => {
  await tw.shutdown();
});

function summaryOf(event: HistoryEvent): string | undefined {
  const payload = event.userMetadata?.summary;
  return payload ? defaultPayloadConverter.fromPayload<string>(payload) : undefined;
}

it('gives every scheduled stage activity the summary "<STAGE> <file name>"', async () => {
  const { documentId } = await ingestBuffer(
    tw,
    `# Quarterly report\n\nRevenue grew ${randomUUID()}.\n`,
    'q3_report.md',
    scope,
  );
  expect((await waitTerminal(tw.client, documentId)).status).toBe('SUCCESS');
  const { events } = await tw.client.workflow.getHandle(ingestWorkflowId(documentId)).fetchHistory();
  const scheduled = (events ?? []).filter((e) => e.activityTaskScheduledEventAttributes);
  expect(scheduled.map(summaryOf)).toEqual([
    'CLEANING q3_report.md',
    // The chunking plan's step (workflows/planGate.ts), a normal activity for this document.
    'plan chunking q3_report.md',
    'CHUNKING q3_report.md',
    'VECTORIZING q3_report.md',
    'PRETOKENIZE q3_report.md',
    'KEYWORD_INDEXING q3_report.md',
    'SPARSE_VECTORIZING q3_report.md',
  ]);
});
