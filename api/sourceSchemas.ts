import { z } from 'zod';
import { SOURCE_KINDS, type SyncReport } from '../contracts/sources';
import type { SourceRow } from '../db/repositories/sources';

/** POST /v1/datasets/{datasetId}/sources: the kind's settings are checked by its own schema (contracts/sources.ts). */
export const newSourceBody = z.strictObject({
  kind: z.enum(SOURCE_KINDS),
  settings: z.record(z.string(), z.unknown()).describe("the kind's settings (docs/sources.md)"),
  schedule: z
    .strictObject({ everySeconds: z.number().int().optional(), cron: z.string().optional() })
    .describe('everySeconds (at least 60) or a cron expression'),
  secret: z
    .string()
    .min(1)
    .max(500)
    .optional()
    .describe("an S3 source's secret access key: stored sealed, never shown"),
});

export const sourceParams = z.object({ id: z.string().uuid() });

export const sourcePatchBody = z
  .strictObject({
    paused: z.boolean().optional(),
    settings: z.record(z.string(), z.unknown()).optional().describe("the kind's new settings (the kind stays)"),
    schedule: z.strictObject({ everySeconds: z.number().int().optional(), cron: z.string().optional() }).optional(),
    secret: z.string().min(1).max(500).optional(),
  })
  .refine((b) => Object.keys(b).length > 0, 'give paused, settings, schedule or secret');

export const removeSourceQuery = z.object({
  keepDocuments: z
    .enum(['true', 'false'])
    .default('false')
    .describe("true: the source's documents stay (as uploads would); false: each is deleted from every store"),
});

const syncReportSchema = z.object({
  syncId: z.string(),
  startedAt: z.string(),
  finishedAt: z.string(),
  durationMs: z.number(),
  listed: z.number(),
  added: z.number(),
  updated: z.number(),
  deleted: z.number(),
  unchanged: z.number(),
  failed: z.number(),
  failures: z.record(z.string(), z.number()).describe('failed files by failure code'),
});

export const sourceSchema = z.object({
  id: z.string(),
  datasetId: z.string(),
  kind: z.enum(SOURCE_KINDS),
  settings: z.record(z.string(), z.unknown()),
  hasSecret: z.boolean(),
  schedule: z.object({ everySeconds: z.number().nullable(), cron: z.string().nullable() }),
  paused: z.boolean(),
  lastSync: syncReportSchema.nullable(),
  nextRunAt: z.string().nullable(),
});

/** What a caller sees of a source: everything but its sealed secret. */
export function sourceView(row: SourceRow, nextRunAt: Date | null = null): z.infer<typeof sourceSchema> {
  return {
    id: row.id,
    datasetId: row.dataset_id,
    kind: row.kind,
    settings: row.config as Record<string, unknown>,
    hasSecret: row.sealed_secret !== null,
    schedule: { everySeconds: row.every_seconds, cron: row.cron },
    paused: row.paused,
    lastSync: (row.last_sync as SyncReport | null) ?? null,
    nextRunAt: nextRunAt?.toISOString() ?? null,
  };
}
