import os from 'node:os';
import { z } from 'zod';
import { duration, durationMs } from './durations';
import type { EnvOf } from './envShape';

const hostPort = (example: string) => z.string().regex(/^[^\s:]+:\d{1,5}$/, `must look like ${example}`);

export const workerEnv = {
  SLUICE_WORKER_METRICS_BIND: hostPort('127.0.0.1:9464')
    .optional()
    .describe("`host:port` where the worker's Temporal runtime serves Prometheus metrics. Unset: none."),
  SLUICE_WORKER_METRICS_URL: z
    .url()
    .optional()
    .describe("The worker's metrics endpoint, appended to the API's /metrics. Unset: none."),
  SLUICE_WORKER_HEALTH_BIND: hostPort('0.0.0.0:9465')
    .optional()
    .describe("`host:port` of the worker's health endpoint, for Kubernetes probes. Unset: none."),
  SLUICE_METRICS_TOKEN: z
    .string()
    .min(16, 'must be at least 16 characters')
    .optional()
    .describe("The bearer token the API's /metrics requires (16 characters or more). Unset: /metrics is off."),
  SLUICE_WORKER_ACTIVITY_SLOTS: z.coerce
    .number()
    .int()
    .min(1)
    .max(1000)
    .default(8)
    .describe('Activities one worker runs at once on the main queue (every stage but VECTORIZING).'),
  SLUICE_WORKER_WORKFLOW_SLOTS: z.coerce
    .number()
    .int()
    .min(2)
    .max(1000)
    .default(20)
    .describe('Workflow tasks one worker runs at once.'),
  SLUICE_EMBED_ACTIVITY_SLOTS: z.coerce
    .number()
    .int()
    .min(1)
    .max(1000)
    .default(4)
    .describe('VECTORIZING activities one worker runs at once (their own queue, so a slow provider holds only these).'),
  SLUICE_EMBED_ACTIVITIES_PER_SECOND: z.coerce
    .number()
    .min(0)
    .default(20)
    .describe('Server-side cap on VECTORIZING starts per second over all workers; 0: none.'),
  SLUICE_WORKER_QUEUES: z
    .enum(['all', 'ingest', 'embedding', 'enrichment'])
    .default('all')
    .describe('Task queues this process polls: all, the main one, embedding (with enrichment) or enrichment alone.'),
  SLUICE_OUTAGE_BUDGET: duration('1h or 30m')
    .default('1h')
    .describe(
      'How long a stage rides out a transient failure (a dependency down, rate limits, a lost worker) before its run fails.',
    ),
  SLUICE_FAIRNESS: z
    .enum(['on', 'off'])
    .default('on')
    .describe(
      "Every run's workflow and activity tasks carry its user as Temporal's fairness key, so one tenant's backlog does not hold the others' tasks on a shared queue (the server needs matching.enableFairness): `on`, or `off` for first in, first out.",
    ),
  SLUICE_FAIRNESS_WEIGHTS: z
    .string()
    .regex(/^([^=,\s]+=\d+(\.\d+)?)(,[^=,\s]+=\d+(\.\d+)?)*$/, 'user=weight pairs, comma-separated: acme=3,trial=0.5')
    .optional()
    .describe(
      'Fairness weights of named users (`acme=3,trial=0.5`; 0.001 to 1000, default 1): a user of weight 3 gets three times the dispatches of a user of weight 1 while both have work waiting.',
    ),
  SLUICE_LOCAL_STAGE_MAX_SOURCE_BYTES: z.coerce
    .number()
    .int()
    .min(0)
    .default(1024 * 1024)
    .describe(
      'Sources up to this size run CLEANING and CHUNKING as local activities (no server round trip); 0: none do.',
    ),
  SLUICE_LOCAL_STAGE_MAX_CHUNKS: z.coerce
    .number()
    .int()
    .min(0)
    .default(500)
    .describe('Documents up to this many chunks run the stages after VECTORIZING as local activities; 0: none do.'),
  SLUICE_CPU_THREADS: z.coerce
    .number()
    .int()
    .min(1)
    .max(256)
    .optional()
    .describe(
      'Warm threads for parsing, chunking, tokenizing and sparse weighting. Unset: the cores this process may use.',
    ),
};

export interface WorkerSettings {
  metrics: {
    /** The worker's Temporal Runtime serves Prometheus metrics here (host:port); null → off. */
    workerBindAddress: string | null;
    /** The API's /metrics appends what it scrapes from here (the worker's endpoint); null → off. */
    workerUrl: string | null;
    /** /metrics answers only `Authorization: Bearer <token>`; null → /metrics is off. */
    token: string | null;
  };
  /** Concurrency of one worker process (worker/createWorker.ts). */
  worker: {
    /** host:port of the health endpoint (worker/healthServer.ts) for Kubernetes probes; null: none. */
    healthBind: string | null;
    /**
     * Which task queues this process polls: all, the main one only (workflows and every stage
     * but VECTORIZING), the embedding one (with the enrichment queue beside it), or the enrichment
     * one only (chat and vision calls), so each can be scaled on its own.
     */
    queues: 'all' | 'ingest' | 'embedding' | 'enrichment';
    /** Activities the main task queue's worker runs at once (every stage but VECTORIZING). */
    activitySlots: number;
    workflowSlots: number;
    /** VECTORIZING runs on a task queue of its own, so a slow provider holds only these slots. */
    embedding: {
      activitySlots: number;
      /** Server-side cap on VECTORIZING starts per second over all workers; null → none. */
      activitiesPerSecond: number | null;
    };
    /**
     * Short stages of small documents run as local activities (contracts/ingest.ts LocalStagePlan):
     * no activity task, no extra workflow task, no server round trip. 0 turns either part off.
     */
    localStages: { maxSourceBytes: number; maxChunks: number };
    /** How long a stage retries transient failures (contracts/outageBudget.ts); recorded in each run's prepareTask result. */
    outageBudgetMs: number;
    /** SLUICE_FAIRNESS and SLUICE_FAIRNESS_WEIGHTS: the tenant as fairness key, and the weights of named tenants. */
    fairness: { on: boolean; weights: Readonly<Record<string, number>> };
    /**
     * Warm threads of the CPU pool (cpuPool/): parsing, chunking, tokenizing and sparse weighting,
     * each task under the parse time limit and heap cap. Default: the cores this process may use.
     */
    cpuThreads: number;
  };
}

export function workerSettings(e: EnvOf<typeof workerEnv>): WorkerSettings {
  return {
    metrics: {
      workerBindAddress: e.SLUICE_WORKER_METRICS_BIND ?? null,
      workerUrl: e.SLUICE_WORKER_METRICS_URL ?? null,
      token: e.SLUICE_METRICS_TOKEN ?? null,
    },
    worker: {
      queues: e.SLUICE_WORKER_QUEUES,
      healthBind: e.SLUICE_WORKER_HEALTH_BIND ?? null,
      activitySlots: e.SLUICE_WORKER_ACTIVITY_SLOTS,
      workflowSlots: e.SLUICE_WORKER_WORKFLOW_SLOTS,
      embedding: {
        activitySlots: e.SLUICE_EMBED_ACTIVITY_SLOTS,
        activitiesPerSecond: e.SLUICE_EMBED_ACTIVITIES_PER_SECOND > 0 ? e.SLUICE_EMBED_ACTIVITIES_PER_SECOND : null,
      },
      localStages: {
        maxSourceBytes: e.SLUICE_LOCAL_STAGE_MAX_SOURCE_BYTES,
        maxChunks: e.SLUICE_LOCAL_STAGE_MAX_CHUNKS,
      },
      outageBudgetMs: durationMs(e.SLUICE_OUTAGE_BUDGET),
      fairness: { on: e.SLUICE_FAIRNESS === 'on', weights: fairnessWeights(e.SLUICE_FAIRNESS_WEIGHTS) },
      cpuThreads: e.SLUICE_CPU_THREADS ?? Math.max(1, os.availableParallelism()),
    },
  };
}

/** `acme=3,trial=0.5` as weights by user, clamped to the range Temporal accepts. */
function fairnessWeights(value: string | undefined): Readonly<Record<string, number>> {
  const weights: Record<string, number> = {};
  for (const pair of value?.split(',') ?? []) {
    const at = pair.lastIndexOf('=');
    weights[pair.slice(0, at)] = Math.min(1000, Math.max(0.001, Number(pair.slice(at + 1))));
  }
  return Object.freeze(weights);
}
