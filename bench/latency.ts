import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { loadConfig } from '../config/config';
import { connectClient, startIngestion, waitForResult } from '../client/ingestClient';
import { registerDocument } from '../testkit/harness/registerDocument';
import { createAdapters } from '../composition/adapters';
import { debianDocPath } from '../testkit/fixtures/debianDocs';
import { fixturePdf } from '../testkit/fixtures/pdfFixture';
import { resetBenchDatabase } from './benchDatabase';
import { historySpanMs, median, medianProcess, ROOT, round, startCompiledWorker } from './latencyProbes';

// `npm run bench:latency`: how long a user waits. CLI start-up (compiled and through tsx) beside
// `node -e 0` measured in the same run, and upload accepted → SUCCESS for one small document at
// a time on an idle compiled worker, per embedder. Medians; JSON to bench-results/.
const RUNS = Number(process.env.BENCH_RUNS ?? 7);
const DOCS = Number(process.env.BENCH_DOCS ?? 10);
const EMBEDDERS = (process.env.BENCH_EMBEDDERS ?? 'local-model,local').split(',');
const DATABASE_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:54329/sluice_bench_latency';
const OUT = path.join(ROOT, 'bench-results', process.env.BENCH_OUT ?? 'latency.json');
const HTML_PAGE = 'usr/share/doc/postgresql-doc-15/html/explicit-joins.html';
const COMPILED_CLI = path.join(ROOT, 'dist', 'cli', 'main.js');
const TSX = path.join(ROOT, 'node_modules', '.bin', 'tsx');

type Sample = { wallMs: number; historyMs: number };
type Kind = { name: string; bytes: number; make(n: number): Buffer; fileName: string };

function kinds(): Kind[] {
  const html = fs.readFileSync(debianDocPath('postgresql-doc-15', HTML_PAGE));
  // Each copy differs by a comment, so no document is a duplicate of another.
  const makeHtml = (n: number): Buffer => Buffer.concat([html, Buffer.from(`\n<!-- latency ${n} -->\n`)]);
  const lines = Array.from({ length: 30 }, (_, i) => ({
    text: `Line ${i + 1} of a one-page PDF about durable ingestion and retries.`,
  }));
  const makePdf = (n: number): Buffer => fixturePdf([[{ text: `Latency probe ${n}`, size: 18 }, ...lines]]);
  return [
    { name: `html ${Math.round(html.length / 1024)} KB`, bytes: html.length, make: makeHtml, fileName: 'page.html' },
    { name: 'pdf 1 page', bytes: makePdf(0).length, make: makePdf, fileName: 'page.pdf' },
  ];
}

async function pipelineLatency(
  embedder: string,
  logFile: string,
): Promise<{
  results: Record<string, { p50WallMs: number; p50HistoryMs: number; samples: Sample[] }>;
  documentId: string;
}> {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DATABASE_URL,
    SLUICE_DATA_DIR: fs.mkdtempSync(path.join(os.tmpdir(), 'sluice-latency-')),
    SLUICE_MODEL_DIR: process.env.SLUICE_MODEL_DIR ?? path.join(ROOT, '.sluice', 'models'),
    SLUICE_EMBEDDER: embedder,
    SLUICE_TASK_QUEUE: `sluice-latency-${randomUUID()}`,
    SLUICE_SWEEP_EVERY: 'off',
    SLUICE_LOG_LEVEL: 'WARN',
  };
  const config = loadConfig(env);
  const worker = await startCompiledWorker(env, logFile);
  const adapters = createAdapters(config);
  const client = await connectClient(config);
  const results: Record<string, { p50WallMs: number; p50HistoryMs: number; samples: Sample[] }> = {};
  let documentId = '';
  try {
    await adapters.ensureReady();
    for (const kind of kinds()) {
      const samples: Sample[] = [];
      // Document 0 warms the worker (threads, model, connections) and is not counted.
      for (let n = 0; n <= DOCS; n++) {
        const scope = { userId: 'bench-latency', datasetId: `latency-${embedder}` };
        const doc = await registerDocument(adapters, {
          ...scope,
          fileName: kind.fileName,
          body: Readable.from([kind.make(n)]),
        });
        const start = performance.now();
        await startIngestion(client, config, { documentId: doc.id, ...scope });
        const result = await waitForResult(client, doc.id);
        const wallMs = performance.now() - start;
        if (result.status !== 'SUCCESS')
          throw new Error(`${kind.name} #${n} ended ${result.status}: ${JSON.stringify(result)}`);
        if (n > 0) samples.push({ wallMs: round(wallMs), historyMs: round(await historySpanMs(client, doc.id)) });
        documentId = doc.id;
      }
      results[kind.name] = {
        p50WallMs: round(median(samples.map((s) => s.wallMs))),
        p50HistoryMs: round(median(samples.map((s) => s.historyMs))),
        samples,
      };
    }
  } finally {
    await client.connection.close();
    await adapters.close();
    await worker.stop();
  }
  return { results, documentId };
}

function cliLatency(documentId: string): Record<string, number> {
  const env = { ...process.env, DATABASE_URL };
  return {
    'node -e 0 (reference)': round(medianProcess(RUNS, process.execPath, ['-e', '0'], env)),
    'sluice --help (compiled)': round(medianProcess(RUNS, process.execPath, [COMPILED_CLI, '--help'], env)),
    'sluice --help (bin/sluice)': round(medianProcess(RUNS, path.join(ROOT, 'bin', 'sluice'), ['--help'], env)),
    'sluice --help (tsx)': round(medianProcess(RUNS, TSX, [path.join(ROOT, 'cli', 'main.ts'), '--help'], env)),
    'sluice status <id> (compiled)': round(
      medianProcess(RUNS, process.execPath, [COMPILED_CLI, 'status', documentId], env),
    ),
  };
}

async function main(): Promise<void> {
  if (!fs.existsSync(COMPILED_CLI))
    throw new Error('no compiled CLI: run `npm run build` first (npm run bench:latency does)');
  fs.mkdirSync(path.dirname(OUT), { recursive: true });
  await resetBenchDatabase(DATABASE_URL);
  const pipeline: Record<string, unknown> = {};
  let documentId = '';
  for (const embedder of EMBEDDERS) {
    const run = await pipelineLatency(embedder, path.join(path.dirname(OUT), `latency-worker-${embedder}.log`));
    pipeline[embedder] = run.results;
    documentId = run.documentId;
    for (const [kind, r] of Object.entries(run.results)) {
      console.log(
        `upload accepted → SUCCESS  ${kind.padEnd(12)} embedder ${embedder.padEnd(12)} p50 wall ${r.p50WallMs} ms, p50 history ${r.p50HistoryMs} ms (n=${r.samples.length})`,
      );
    }
  }
  // After the worker has stopped: start-up times on an idle machine.
  const cli = cliLatency(documentId);
  for (const [name, ms] of Object.entries(cli)) console.log(`${name.padEnd(32)} median ${ms} ms (n=${RUNS})`);
  const report = {
    when: new Date().toISOString(),
    node: process.version,
    cpus: os.cpus().length,
    runs: RUNS,
    docs: DOCS,
    cli,
    pipeline,
  };
  fs.writeFileSync(OUT, `${JSON.stringify(report, null, 2)}\n`);
  console.log(`written ${path.relative(process.cwd(), OUT)}`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
