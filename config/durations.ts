import { z } from 'zod';

export const durationPattern = /^(\d+)(ms|s|m|h|d)$/;
const UNIT_MS = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 } as const;

/** A duration setting such as `30d`, `10m` or `500ms`; `examples` goes into the error message. */
export const duration = (examples: string) => z.string().regex(durationPattern, `must look like ${examples}`);

/** A duration setting that may also be `off`. */
export const durationOrOff = (example: string) =>
  z.union([z.literal('off'), z.string().regex(durationPattern, `must be 'off' or look like ${example}`)]);

export function durationMs(value: string): number {
  const [, amount, unit] = durationPattern.exec(value) ?? [];
  return Number(amount) * UNIT_MS[unit as keyof typeof UNIT_MS];
}

export function durationOrOffMs(value: string): number | null {
  return value === 'off' ? null : durationMs(value);
}
