import { z } from 'zod';
import { duration, durationMs } from './durations';
import type { EnvOf } from './envShape';

export const parsingEnv = {
  SLUICE_MAX_FILE_BYTES: z.coerce
    .number()
    .int()
    .positive()
    .default(200 * 1024 * 1024),
  SLUICE_PARSE_TIMEOUT: duration('10m, 90s or 500ms').default('10m'),
  SLUICE_MAX_UNCOMPRESSED_BYTES: z.coerce
    .number()
    .int()
    .positive()
    .default(512 * 1024 * 1024),
  SLUICE_PARSE_HEAP_MB: z.coerce.number().int().min(64).max(16384).default(1024),
  SLUICE_CHUNK_MAX_TOKENS: z.coerce.number().int().min(16).max(8192).default(400),
  SLUICE_CHUNK_OVERLAP_TOKENS: z.coerce.number().int().min(0).max(4096).default(60),
};

export interface ParsingSettings {
  maxFileBytes: number;
  /** Per-document parse limits: wall clock, zip-bomb guard, parse-thread heap. */
  parsing: { timeoutMs: number; maxUncompressedBytes: number; maxHeapMb: number };
  chunking: { maxTokens: number; overlapTokens: number };
}

export function parsingSettings(e: EnvOf<typeof parsingEnv>, problems: string[]): ParsingSettings {
  if (e.SLUICE_CHUNK_OVERLAP_TOKENS * 2 > e.SLUICE_CHUNK_MAX_TOKENS) {
    problems.push('SLUICE_CHUNK_OVERLAP_TOKENS: must be at most half of SLUICE_CHUNK_MAX_TOKENS');
  }
  return {
    maxFileBytes: e.SLUICE_MAX_FILE_BYTES,
    parsing: {
      timeoutMs: durationMs(e.SLUICE_PARSE_TIMEOUT),
      maxUncompressedBytes: e.SLUICE_MAX_UNCOMPRESSED_BYTES,
      maxHeapMb: e.SLUICE_PARSE_HEAP_MB,
    },
    chunking: { maxTokens: e.SLUICE_CHUNK_MAX_TOKENS, overlapTokens: e.SLUICE_CHUNK_OVERLAP_TOKENS },
  };
}
