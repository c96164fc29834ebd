import { createCpuPool } from '../cpuPool/pool';
import type { SourceFileType } from './detectFileType';
import { DEFAULT_PARSE_LIMITS, type ParseLimits } from './parseLimits';

/**
 * Parses one file the way CLEANING does, through a CPU pool of one thread made for this call:
 * for tests and one-shot probes. The worker keeps its pool warm and calls `cpu.parse` instead.
 */
export async function parseToMarkdown(
  filePath: string,
  type: SourceFileType,
  limits: ParseLimits = DEFAULT_PARSE_LIMITS,
): Promise<string> {
  const pool = createCpuPool({ threads: 1, limits });
  try {
    return await pool.parse(filePath, type);
  } finally {
    await pool.close();
  }
}
