import { randomUUID } from 'node:crypto';
import { embeddingTaskQueue } from '../../contracts/taskQueues';
import { freePort } from '../../testkit/harness/apiHarness';
import { eventually, ingestBuffer, sectionedMarkdown, waitTerminal } from '../../testkit/harness/ingestHelpers';
import { installQuietRuntime } from '../../testkit/harness/quietRuntime';
import { startTestWorker, type TestWorker } from '../../testkit/harness/testWorker';

// The worker's own metrics (stage durations, chunks, failures by code) come out of the Temporal
// Runtime's Prometheus endpoint, next to the Runtime's metrics; VECTORIZING runs on its own queue.

const scope = { userId: `user-${randomUUID()}`, datasetId: 'metrics' };
let tw: TestWorker;
let metricsUrl: string;

beforeAll(async () => {
  const port = await freePort();
  metricsUrl = `http://127.0.0.1:${port}/metrics`;
  installQuietRuntime({ prometheusBindAddress: `127.0.0.1:${port}` });
  tw = await startTestWorker();
});
afterAll(() => tw.shutdown());

/** The value of the first series whose line has every one of `parts`. */
function series(text: string, name: string, parts: string[]): number | null {
  const line = text.split('\n').find((l) => l.startsWith(`${name}{`) && parts.every((p) => l.includes(p)));
  return line ? Number(line.slice(line.lastIndexOf(' ') + 1)) : null;
}

it('exports stage durations, chunks and failures by code beside the Runtime metrics', async () => {
  const ok = await ingestBuffer(tw, sectionedMarkdown(12, 'metrics'), 'ok.md', scope);
  // Markup only: the parser finds no text, a permanent EMPTY_DOCUMENT at CLEANING.
  const empty = await ingestBuffer(tw, '<p> </p>', 'empty.html', scope);
  expect((await waitTerminal(tw.client, ok.documentId)).status).toBe('SUCCESS');
  expect((await waitTerminal(tw.client, empty.documentId)).failureCode).toBe('EMPTY_DOCUMENT');

  const queue = `taskQueue="${tw.config.temporal.taskQueue}"`;
  const text = await eventually(
    async () => (await fetch(metricsUrl)).text(),
    (t) => (series(t, 'sluice_task_failures', ['code="EMPTY_DOCUMENT"', queue]) ?? 0) >= 1,
    20_000,
    200,
  );
  expect(series(text, 'sluice_stage_duration_count', ['stage="CLEANING"', 'outcome="success"', queue])).toBe(1);
  expect(series(text, 'sluice_stage_duration_count', ['stage="CLEANING"', 'outcome="failure"', queue])).toBe(1);
  expect(series(text, 'sluice_stage_duration_sum', ['stage="CLEANING"', 'outcome="success"', queue])).toBeGreaterThan(
    0,
  );
  expect(
    series(text, 'sluice_chunks_processed', [
      'stage="VECTORIZING"',
      `taskQueue="${embeddingTaskQueue(tw.config.temporal.taskQueue)}"`,
    ]),
  ).toBe(12);
  expect(series(text, 'sluice_chunks_processed', ['stage="SPARSE_VECTORIZING"', queue])).toBe(12);
  expect(
    series(text, 'sluice_stage_failures', ['stage="CLEANING"', 'code="EMPTY_DOCUMENT"', 'retryable="false"', queue]),
  ).toBe(1);
  expect(series(text, 'sluice_task_failures', ['stage="CLEANING"', 'code="EMPTY_DOCUMENT"', queue])).toBe(1);
  // Buckets reach the durations a large document's stage can take (the Runtime's default stops at 10 s).
  expect(
    series(text, 'sluice_stage_duration_bucket', ['stage="CLEANING"', 'outcome="success"', 'le="900000"', queue]),
  ).toBe(1);
  // The Runtime's own worker metrics are on the same endpoint.
  expect(text).toMatch(/^temporal_activity_execution_latency/m);
});
