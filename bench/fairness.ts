import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Client } from '@temporalio/client';
import { connectClient, startIngestion } from '../client/ingestClient';
import { loadConfig } from '../config/config';
import { createAdapters, type Adapters } from '../composition/adapters';
import { ingestWorkflowId } from '../contracts/ingest';
import { resetBenchDatabase } from './benchDatabase';
import { writeBenchResult } from './benchResults';
import { registerCorpus } from './registerCorpus';
import { benchSettings, sluiceEnv } from './settings';
import { startWorkerProcess } from './workerProcesses';

/**
 * `npm run bench:fairness`: does one tenant's load delay another's small document? Tenant A
 * starts one large document (BENCH_FAIR_A_CHUNKS sections, 20,000) and a backlog of
 * BENCH_FAIR_A_DOCS (150) smaller ones; a second later tenant B starts a 10-page document. B's
 * time to SUCCESS is measured alone and under A's load, with SLUICE_FAIRNESS off (first in, first
 * out on every task queue) and on (the tenant as fairness key), side by side in one run, each phase
 * on a fresh task queue of one worker process with BENCH_FAIR_EMBED_SLOTS (2) embedding slots.
 * Once B is done, A's runs are terminated and the worker killed. JSON in bench-results/fairness.json.
 */
const A_CHUNKS = Number(process.env.BENCH_FAIR_A_CHUNKS ?? 20_000);
const A_DOCS = Number(process.env.BENCH_FAIR_A_DOCS ?? 150);
const EMBED_SLOTS = process.env.BENCH_FAIR_EMBED_SLOTS ?? '2';

const sentence = (i: number) =>
  `Section ${i} explains how the durable pipeline checkpoints its stages, retries a failed dependency and keeps every vector. `;
const section = (i: number, sentences: number) => `## Part ${i}\n\n${sentence(i).repeat(sentences)}\n\n`;
/** About one chunk per section: the default chunk size holds a section of 20 such sentences. */
const markdown = (sections: number, sentences = 20) =>
  Array.from({ length: sections }, (_, i) => section(i, sentences)).join('');

async function runToEnd(client: Client, documentId: string): Promise<{ status: string; chunks: number }> {
  const result = await client.workflow.getHandle(ingestWorkflowId(documentId)).result();
  return { status: result.status, chunks: result.chunkCount };
}

async function timeB(adapters: Adapters, client: Client, config: ReturnType<typeof loadConfig>, label: string) {
  const scope = { userId: 'tenant-b', datasetId: `b-${label}` };
  const [doc] = await registerCorpus(adapters, [{ fileName: 'ten-pages.md', source: { text: markdown(10) } }], scope);
  if (!doc) throw new Error('B was not registered');
  const started = performance.now();
  await startIngestion(client, config, { documentId: doc.documentId, ...scope });
  const result = await runToEnd(client, doc.documentId);
  return { ms: Math.round(performance.now() - started), ...result };
}

async function phase(fairness: 'on' | 'off', base: Record<string, string>, dataDir: string) {
  const env = {
    ...base,
    SLUICE_FAIRNESS: fairness,
    SLUICE_TASK_QUEUE: `bench-fairness-${fairness}-${randomUUID().slice(0, 8)}`,
    SLUICE_EMBED_ACTIVITY_SLOTS: EMBED_SLOTS,
    SLUICE_EMBED_ACTIVITIES_PER_SECOND: '0',
  };
  const config = loadConfig({ ...process.env, ...env });
  const adapters = createAdapters(config);
  // A process of its own, killed once B is measured: A's large document need not drain.
  const worker = await startWorkerProcess(env, path.join(dataDir, `fairness-worker-${fairness}.log`));
  const client = await connectClient(config);
  try {
    const alone = await timeB(adapters, client, config, `${fairness}-alone`);
    const scopeA = { userId: 'tenant-a', datasetId: `a-${fairness}` };
    const files = [
      { fileName: 'large-manual.md', source: { text: markdown(A_CHUNKS) } },
      ...Array.from({ length: A_DOCS }, (_, i) => ({ fileName: `a-${i}.md`, source: { text: markdown(40) } })),
    ];
    const docsA = await registerCorpus(adapters, files, scopeA);
    await Promise.all(docsA.map((d) => startIngestion(client, config, { documentId: d.documentId, ...scopeA })));
    await sleep(1000);
    const underLoad = await timeB(adapters, client, config, `${fairness}-load`);
    const openA: string[] = [];
    for (const d of docsA) {
      const handle = client.workflow.getHandle(ingestWorkflowId(d.documentId));
      if ((await handle.describe()).status.name !== 'RUNNING') continue;
      openA.push(d.documentId);
      await handle.terminate('bench:fairness measured B');
    }
    return {
      fairness,
      bAlone: alone,
      bUnderLoad: underLoad,
      delayFactor: Math.round((underLoad.ms / alone.ms) * 100) / 100,
      aDocumentsStillOpenWhenBFinished: openA.length,
    };
  } finally {
    const exited = new Promise((resolve) => worker.child.once('exit', resolve));
    worker.child.kill('SIGKILL');
    await exited;
    await adapters.close();
    await client.connection.close();
  }
}

async function main(): Promise<void> {
  const s = benchSettings();
  await resetBenchDatabase(s.databaseUrl);
  const base = { ...sluiceEnv(s), SLUICE_EMBEDDER: 'local' };
  const phases = [await phase('off', base, s.dataDir), await phase('on', base, s.dataDir)];
  writeBenchResult('fairness.json', {
    bench: 'fairness',
    at: new Date().toISOString(),
    aLargeDocumentSections: A_CHUNKS,
    aBacklogDocuments: A_DOCS,
    embeddingSlots: Number(EMBED_SLOTS),
    phases,
  });
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
