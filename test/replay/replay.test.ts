import fs from 'node:fs';
import path from 'node:path';
import { bundleWorkflowCode, Worker } from '@temporalio/worker';
import { installQuietRuntime } from '../../testkit/harness/quietRuntime';
import { HISTORIES_DIR, historyFromJson } from './histories';

// Histories recorded by `npm run replay:record`, replayed against the workflow
// code as it is now, offline: a change that would make a running workflow take another path
// (reordered or added commands, a removed activity call) fails here instead of in production.

const files = fs
  .readdirSync(HISTORIES_DIR)
  .filter((f) => f.endsWith('.json'))
  .sort();
const results = new Map<string, Error | undefined>();

beforeAll(async () => {
  installQuietRuntime();
  const { code } = await bundleWorkflowCode({
    workflowsPath: require.resolve('../../workflows'),
    logger: { trace() {}, debug() {}, info() {}, warn: console.warn, error: console.error, log() {} },
  });
  const histories = files.map((file) => ({
    workflowId: file,
    history: historyFromJson(fs.readFileSync(path.join(HISTORIES_DIR, file), 'utf8')),
  }));
  for await (const result of Worker.runReplayHistories({ workflowBundle: { code } }, histories)) {
    results.set(result.workflowId, result.error);
  }
});

it('has the recorded histories to replay', () => {
  expect(files).toEqual(
    expect.arrayContaining([
      'chunk-enrichment.json',
      'markdown-enrichment.json',
      'failed-then-retried.json',
      'retry-success.json',
      'small-success.json',
      'source-registered.json',
      'plan-confirmed.json',
      'rebuild-success.json',
      'dataset-rebuild.json',
    ]),
  );
});

it.each(files.map((f) => [f]))('replays %s without a non-determinism error', (file) => {
  expect(results.has(file)).toBe(true);
  expect(results.get(file)).toBeUndefined();
});
