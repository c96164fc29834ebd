import { z } from 'zod';
import { duration, durationMs } from './durations';
import type { EnvOf } from './envShape';

const perUser = (what: string) =>
  z.coerce
    .number()
    .int()
    .min(1)
    .max(10_000)
    .describe(`${what} one user may have in flight in one API process; beyond it, 429.`);

export const apiEnv = {
  SLUICE_API_HOST: z.string().min(1).default('127.0.0.1').describe('Address the HTTP API listens on.'),
  SLUICE_API_PORT: z.coerce
    .number()
    .int()
    .min(0)
    .max(65535)
    .default(8080)
    .describe('Port the HTTP API listens on (0: any free port).'),
  SLUICE_API_BODY_LIMIT_BYTES: z.coerce
    .number()
    .int()
    .min(1024)
    .max(16 * 1024 * 1024)
    .default(64 * 1024)
    .describe('Largest request body other than an upload (JSON).'),
  SLUICE_API_MAX_HEADER_BYTES: z.coerce
    .number()
    .int()
    .min(1024)
    .max(256 * 1024)
    .default(16 * 1024)
    .describe('Largest request header block; beyond it Node answers 431.'),
  SLUICE_API_BATCH_MAX_FILES: z.coerce
    .number()
    .int()
    .min(1)
    .max(1000)
    .default(20)
    .describe('Most files one `documents:batch` upload may carry.'),
  SLUICE_API_SSE_POLL: duration('500ms or 2s')
    .default('500ms')
    .describe("How often an SSE progress stream polls its run's `progress` query."),
  SLUICE_API_MAX_STREAMS_PER_KEY: z.coerce
    .number()
    .int()
    .min(1)
    .max(10_000)
    .default(8)
    .describe('Open SSE streams per API key (each polls Postgres and Temporal); beyond it, 429.'),
  SLUICE_API_MAX_CONCURRENT_UPLOADS: perUser('Uploads').default(4),
  SLUICE_API_MAX_CONCURRENT_SEARCHES: perUser('Searches').default(8),
  SLUICE_API_MAX_CONCURRENT_REEMBEDS: perUser('Re-embed requests').default(1),
  SLUICE_API_MAX_CONCURRENT_PROVIDER_TESTS: perUser(
    'Embedding and model `/test` calls (each calls the provider)',
  ).default(1),
  SLUICE_API_REQUEST_TIMEOUT: duration('30m or 90s')
    .optional()
    .describe('Longest time to receive one whole request. Unset: the largest file at 128 KiB/s, at least 5 minutes.'),
  SLUICE_API_IDLE_TIMEOUT: duration('60s or 2m')
    .default('60s')
    .describe('A connection silent this long is closed (SSE streams send keep-alives).'),
  SLUICE_API_TRUST_PROXY: z
    .string()
    .regex(
      /^(true|false|[0-9A-Fa-f.:/]+(,[0-9A-Fa-f.:/]+)*)$/,
      "must be 'true', 'false' or a comma-separated list of proxy addresses/CIDRs",
    )
    .optional()
    .describe('Whose X-Forwarded-Proto/-For to believe: `true` (any), or a comma-separated list of addresses/CIDRs.'),
  SLUICE_ADMIN_SESSION_TTL: duration('12h or 30m').default('12h').describe('Lifetime of an admin-page session cookie.'),
  SLUICE_USER_QUOTA_BYTES: z.coerce
    .number()
    .int()
    .positive()
    .default(10 * 1024 * 1024 * 1024)
    .describe('Bytes of ACTIVE documents one user may store.'),
  SLUICE_USER_QUOTA_DOCUMENTS: z.coerce
    .number()
    .int()
    .positive()
    .default(10_000)
    .describe('ACTIVE documents one user may have.'),
};

export interface ApiSettings {
  /** The HTTP API (api/): where it listens and what it accepts. Uploads are capped by `maxFileBytes`. */
  api: {
    host: string;
    port: number;
    /** Largest non-upload request body (JSON). */
    bodyLimitBytes: number;
    /** Largest request header block; beyond it Node answers 431. */
    maxHeaderBytes: number;
    batchMaxFiles: number;
    /** How often an SSE stream polls the workflow's `progress` query. */
    ssePollMs: number;
    /** Open SSE streams per API key (each polls Postgres and Temporal); beyond it 429. */
    maxStreamsPerKey: number;
    /** Requests one user may have in flight in one API process, per kind; beyond them the answer is 429. */
    perUser: { uploads: number; searches: number; reembeds: number; providerTests: number };
    /** Longest time to receive one whole request, body included (Node's requestTimeout). */
    requestTimeoutMs: number;
    /** A connection silent this long is closed (socket inactivity; SSE streams send keep-alives). */
    idleTimeoutMs: number;
    /** Fastify's trustProxy: whose X-Forwarded-Proto/-For to believe (true: any; a list: those addresses/CIDRs). */
    trustProxy: boolean | string[];
    /** Lifetime of an admin-page session cookie. */
    sessionTtlMs: number;
    /** Signs admin session cookies (from SLUICE_SECRET_KEY); null → a random secret per process. */
    sessionSecret: string | null;
  };
  /** Per-user limits on what the API accepts: stored bytes and documents (ACTIVE ones). */
  quota: { maxBytes: number; maxDocuments: number };
}

/** Slow but honest: a whole upload of the largest allowed file at 128 KiB/s, and never under 5 minutes. */
function defaultRequestTimeoutMs(maxFileBytes: number): number {
  return Math.max(5 * 60_000, Math.ceil(maxFileBytes / (128 * 1024)) * 1000);
}

function trustProxyOf(value: string | undefined): boolean | string[] {
  if (value === undefined || value === 'false') return false;
  if (value === 'true') return true;
  return value.split(',');
}

export function apiSettings(
  e: EnvOf<typeof apiEnv>,
  shared: { maxFileBytes: number; secretKey: string | undefined },
): ApiSettings {
  return {
    api: {
      host: e.SLUICE_API_HOST,
      port: e.SLUICE_API_PORT,
      bodyLimitBytes: e.SLUICE_API_BODY_LIMIT_BYTES,
      maxHeaderBytes: e.SLUICE_API_MAX_HEADER_BYTES,
      batchMaxFiles: e.SLUICE_API_BATCH_MAX_FILES,
      ssePollMs: durationMs(e.SLUICE_API_SSE_POLL),
      maxStreamsPerKey: e.SLUICE_API_MAX_STREAMS_PER_KEY,
      perUser: {
        uploads: e.SLUICE_API_MAX_CONCURRENT_UPLOADS,
        searches: e.SLUICE_API_MAX_CONCURRENT_SEARCHES,
        reembeds: e.SLUICE_API_MAX_CONCURRENT_REEMBEDS,
        providerTests: e.SLUICE_API_MAX_CONCURRENT_PROVIDER_TESTS,
      },
      requestTimeoutMs: e.SLUICE_API_REQUEST_TIMEOUT
        ? durationMs(e.SLUICE_API_REQUEST_TIMEOUT)
        : defaultRequestTimeoutMs(shared.maxFileBytes),
      idleTimeoutMs: durationMs(e.SLUICE_API_IDLE_TIMEOUT),
      trustProxy: trustProxyOf(e.SLUICE_API_TRUST_PROXY),
      sessionTtlMs: durationMs(e.SLUICE_ADMIN_SESSION_TTL),
      sessionSecret: shared.secretKey ?? null,
    },
    quota: { maxBytes: e.SLUICE_USER_QUOTA_BYTES, maxDocuments: e.SLUICE_USER_QUOTA_DOCUMENTS },
  };
}
