import { z } from 'zod';
import { duration, durationMs } from './durations';
import type { EnvOf } from './envShape';

/**
 * The external parsing service (docs/parser-backends.md): one per deployment, chosen per dataset
 * and file type by the dataset's `parsing` settings.
 */
export const parserServiceEnv = {
  SLUICE_PARSER_SERVICE_URL: z
    .url()
    .optional()
    .describe('The external parsing service. Unset: no dataset can use one.'),
  SLUICE_PARSER_SERVICE_TOKEN: z
    .string()
    .min(1)
    .optional()
    .describe('Sent to the parsing service as `Authorization: Bearer …`; never logged.'),
  SLUICE_PARSER_SERVICE_TIMEOUT: duration('10m, 90s')
    .default('10m')
    .describe("From the remote task's creation: a task still unfinished then fails PARSE_ENGINE_FAILED."),
  SLUICE_PARSER_SERVICE_POLL: duration('2s, 500ms').default('2s').describe('How often a remote task is polled.'),
  SLUICE_PARSER_SERVICE_OUTAGE: duration('30s, 2m')
    .default('30s')
    .describe('How long the service may keep answering errors before the attempt fails (retryable).'),
  SLUICE_PARSER_SOURCE_URL_TTL: duration('15m, 1h')
    .default('15m')
    .describe("Lifetime of the source's presigned URL the service is given (1s to 7d, the S3 limit)."),
};

export interface ParserServiceSettings {
  parserService: {
    url: string;
    token: string | null;
    timeoutMs: number;
    pollMs: number;
    outageMs: number;
    sourceUrlTtlSeconds: number;
  } | null;
}

export function parserServiceSettings(e: EnvOf<typeof parserServiceEnv>, problems: string[]): ParserServiceSettings {
  const ttlMs = durationMs(e.SLUICE_PARSER_SOURCE_URL_TTL);
  if (ttlMs < 1000 || ttlMs > 7 * 86_400_000)
    problems.push('SLUICE_PARSER_SOURCE_URL_TTL: must be between 1s and 7d (the S3 limit of a presigned URL)');
  if (e.SLUICE_PARSER_SERVICE_URL === undefined) return { parserService: null };
  return {
    parserService: {
      url: e.SLUICE_PARSER_SERVICE_URL.replace(/\/+$/, ''),
      token: e.SLUICE_PARSER_SERVICE_TOKEN ?? null,
      timeoutMs: durationMs(e.SLUICE_PARSER_SERVICE_TIMEOUT),
      pollMs: durationMs(e.SLUICE_PARSER_SERVICE_POLL),
      outageMs: durationMs(e.SLUICE_PARSER_SERVICE_OUTAGE),
      sourceUrlTtlSeconds: Math.floor(ttlMs / 1000),
    },
  };
}
