import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { readCappedText } from '../outbound/cappedBody';

/**
 * Prometheus metrics of the API process, in a registry of its own (several servers can live in
 * one process, as in tests). Worker metrics come from the worker's Temporal Runtime, which
 * serves them itself (SLUICE_WORKER_METRICS_BIND); when SLUICE_WORKER_METRICS_URL points at
 * that endpoint, /metrics appends what it scrapes there, so one scrape sees both processes.
 */
export interface ApiMetrics {
  registry: Registry;
  httpDuration: Histogram<'method' | 'route' | 'status'>;
  uploads: Counter<'outcome'>;
  uploadBytes: Counter;
  sseStreams: Gauge;
  render(): Promise<{ contentType: string; body: string }>;
}

/** How long one scrape of the worker serves /metrics hits, so a burst of hits scrapes it once. */
const WORKER_SCRAPE_TTL_MS = 5000;
/** A worker's Temporal metrics are tens of KB; a larger answer is not the worker's and is dropped. */
const WORKER_METRICS_MAX_BYTES = 8 * 1024 * 1024;

export function createApiMetrics(options: {
  workerMetricsUrl: string | null;
  workerScrapeTtlMs?: number;
  now?: () => number;
}): ApiMetrics {
  const ttlMs = options.workerScrapeTtlMs ?? WORKER_SCRAPE_TTL_MS;
  const now = options.now ?? Date.now;
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: 'sluice_api_' });
  const httpDuration = new Histogram({
    name: 'sluice_http_request_duration_seconds',
    help: 'HTTP request duration by route and status',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers: [registry],
  });
  const uploads = new Counter({
    name: 'sluice_uploads_total',
    help: 'Uploaded files by outcome (accepted, duplicate, refused_type, refused_size, refused_quota)',
    labelNames: ['outcome'] as const,
    registers: [registry],
  });
  const uploadBytes = new Counter({
    name: 'sluice_upload_bytes_total',
    help: 'Bytes stored from uploads',
    registers: [registry],
  });
  const sseStreams = new Gauge({
    name: 'sluice_sse_streams',
    help: 'Open server-sent event streams',
    registers: [registry],
  });
  const workerUp = new Gauge({
    name: 'sluice_worker_metrics_up',
    help: '1 when the worker metrics endpoint answered the last scrape',
    registers: [registry],
  });

  async function scrapeWorker(url: string): Promise<string> {
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(2000) });
      if (!response.ok) throw new Error(`HTTP ${response.status}`);
      const { text } = await readCappedText(response, WORKER_METRICS_MAX_BYTES);
      workerUp.set(1);
      return text;
    } catch {
      workerUp.set(0);
      return '';
    }
  }

  // Concurrent hits share the scrape in flight; later ones reuse it until it is ttlMs old.
  let cached: { at: number; text: Promise<string> } | null = null;
  function workerMetrics(url: string): Promise<string> {
    if (cached === null || now() - cached.at >= ttlMs) cached = { at: now(), text: scrapeWorker(url) };
    return cached.text;
  }

  return {
    registry,
    httpDuration,
    uploads,
    uploadBytes,
    sseStreams,
    async render() {
      const worker = options.workerMetricsUrl ? await workerMetrics(options.workerMetricsUrl) : '';
      const own = await registry.metrics();
      return {
        contentType: registry.contentType,
        body: worker ? `${own}\n# worker (Temporal Runtime) metrics\n${worker}` : own,
      };
    },
  };
}
