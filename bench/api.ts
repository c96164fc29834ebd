import fs from 'node:fs';
import http from 'node:http';
import type net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { createUserWithKey } from '../api/apiKeys';
import { buildApiServer } from '../api/server';
import { connectClient } from '../client/ingestClient';
import { loadConfig } from '../config/config';
import { ingestWorkflowId } from '../contracts/ingest';
import { migrateToLatest } from '../db/migrate';
import { createAdapters } from '../composition/adapters';

/**
 * `npm run bench:api`: upload latency of the HTTP API for small and large files. The API only
 * streams the body into the object store, records the row and starts the workflow, so the
 * time after the last byte should not grow with the file. No worker runs: the started
 * workflows are terminated and every row and object is removed at the end.
 * Prints JSON and writes bench-results/api.json.
 */
const SIZES = [
  { label: '1KB', bytes: 1024, runs: Number(process.env.BENCH_API_SMALL_RUNS ?? 40) },
  { label: '50MB', bytes: 50 * 1024 * 1024, runs: Number(process.env.BENCH_API_LARGE_RUNS ?? 12) },
];
const WARMUP = 2;
const BLOCK = Buffer.alloc(64 * 1024, 'lorem ipsum dolor sit amet, consectetur adipiscing elit\n');

interface Sample {
  totalMs: number;
  afterLastByteMs: number;
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return Math.round((sorted[index] ?? 0) * 10) / 10;
}

/** One multipart upload whose body is generated on the fly; unique first line, so no dedupe. */
function uploadOnce(
  port: number,
  apiKey: string,
  dataset: string,
  size: number,
): Promise<Sample & { status: number; documentId: string }> {
  const boundary = `----bench-${randomUUID()}`;
  const firstLine = Buffer.from(`bench ${randomUUID()}\n`);
  const head = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="bench.txt"\r\nContent-Type: text/plain\r\n\r\n`,
    ),
    firstLine,
  ]);
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  const fill = Math.max(0, size - firstLine.length);
  return new Promise((resolve, reject) => {
    const started = performance.now();
    let lastByteAt = 0;
    const req = http.request({
      host: '127.0.0.1',
      port,
      path: `/v1/datasets/${dataset}/documents`,
      method: 'POST',
      headers: {
        authorization: `Bearer ${apiKey}`,
        'content-type': `multipart/form-data; boundary=${boundary}`,
        'content-length': String(head.length + fill + tail.length),
      },
    });
    req.on('error', reject);
    req.on('response', (res) => {
      const answeredAt = performance.now();
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => {
        const body = JSON.parse(text) as { documentId?: string };
        resolve({
          status: res.statusCode ?? 0,
          documentId: body.documentId ?? '',
          totalMs: answeredAt - started,
          afterLastByteMs: answeredAt - lastByteAt,
        });
      });
    });
    const write = async () => {
      req.write(head);
      for (let left = fill; left > 0; left -= BLOCK.length) {
        const piece = left >= BLOCK.length ? BLOCK : BLOCK.subarray(0, left);
        if (!req.write(piece)) await new Promise((r) => req.once('drain', r));
      }
      req.end(tail, () => {
        lastByteAt = performance.now();
      });
    };
    write().catch(reject);
  });
}

async function main(): Promise<void> {
  const dataDir = path.join(os.tmpdir(), `sluice-bench-api-${randomUUID()}`);
  const config = loadConfig({
    ...process.env,
    SLUICE_DATA_DIR: dataDir,
    SLUICE_TASK_QUEUE: `bench-api-${randomUUID()}`,
    SLUICE_SWEEP_EVERY: 'off',
    SLUICE_MAX_FILE_BYTES: String(64 * 1024 * 1024),
  });
  const adapters = createAdapters(config);
  await migrateToLatest(adapters.db);
  await adapters.ensureReady();
  const client = await connectClient(config);
  const { app } = await buildApiServer({ config, adapters, client }, { logger: false });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const { port } = app.server.address() as net.AddressInfo;
  const userId = `bench-${randomUUID()}`;
  const { apiKey } = await createUserWithKey(adapters.db, userId);
  const documentIds: string[] = [];
  const results: Record<string, unknown> = {};
  try {
    for (const size of SIZES) {
      const samples: Sample[] = [];
      for (let i = 0; i < WARMUP + size.runs; i++) {
        const sample = await uploadOnce(port, apiKey, `bench-${size.label}`, size.bytes);
        if (sample.status !== 202) throw new Error(`upload answered ${sample.status}`);
        documentIds.push(sample.documentId);
        if (i >= WARMUP) samples.push(sample);
      }
      const total = samples.map((s) => s.totalMs);
      const after = samples.map((s) => s.afterLastByteMs);
      results[size.label] = {
        runs: samples.length,
        bytes: size.bytes,
        totalMs: { p50: percentile(total, 50), p95: percentile(total, 95) },
        afterLastByteMs: { p50: percentile(after, 50), p95: percentile(after, 95) },
      };
    }
  } finally {
    for (const id of documentIds) {
      await client.workflow
        .getHandle(ingestWorkflowId(id))
        .terminate('bench finished')
        .catch(() => undefined);
    }
    await adapters.db.deleteFrom('documents').where('user_id', '=', userId).execute();
    await adapters.db.deleteFrom('users').where('id', '=', userId).execute();
    await app.close();
    await client.connection.close();
    await adapters.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
  const report = {
    benchmark: 'api upload latency',
    what: 'POST /v1/datasets/{id}/documents over loopback, sequential; totalMs = first byte sent → 202 received, afterLastByteMs = last byte handed to the socket → 202 received',
    objectStore: config.stores.objectStore.kind,
    host: { cpus: os.cpus().length, node: process.version },
    uploads: results,
  };
  const json = JSON.stringify(report, null, 2);
  console.log(json);
  fs.mkdirSync(path.resolve(__dirname, '..', 'bench-results'), { recursive: true });
  fs.writeFileSync(path.resolve(__dirname, '..', 'bench-results', 'api.json'), `${json}\n`);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
