import { randomUUID } from 'node:crypto';
import { ScheduleNotFoundError, ScheduleOverlapPolicy, type Client } from '@temporalio/client';
import { TypedSearchAttributes } from '@temporalio/common';
import type { Kysely } from 'kysely';
import { DatasetIdKey, SourceIdKey } from '../contracts/searchAttributes';
import type { SluiceConfig } from '../config/config';
import { deleteWorkflowId, DELETE_WORKFLOW_TYPE, type DeleteInput } from '../contracts/deletion';
import {
  scheduleSchema,
  SOURCE_SETTINGS_SCHEMAS,
  sourceScheduleId,
  syncWorkflowId,
  SYNC_SOURCE_WORKFLOW_TYPE,
  type SourceKind,
  type SourceSchedule,
  type SourceSettings,
  type SyncSourceInput,
} from '../contracts/sources';
import { encryptSecret } from '../crypto/secretBox';
import type { Database } from '../db/database';
import { sourceDocumentIds } from '../db/repositories/sourceEntries';
import {
  deleteSource,
  findSource,
  insertSource,
  listSources,
  setSourcePaused,
  updateSourceRow,
  type SourceRow,
} from '../db/repositories/sources';
import { isUnderAllowedRoot } from '../stores/sources/folderSource';
import { encryptionKeyOf } from './embeddingConfigs';
import { callerClaimFor } from './startRun';

export interface SourceDeps {
  client: Client;
  db: Kysely<Database>;
  config: Readonly<SluiceConfig>;
}

/** A source request the contract or the deployment refuses (the API answers 400). */
export class InvalidSourceError extends Error {
  override readonly name = 'InvalidSourceError';
}

export interface NewSourceRequest {
  kind: SourceKind;
  settings: unknown;
  schedule: SourceSchedule;
  /** An S3 secret access key: sealed with SLUICE_SECRET_KEY, never shown again. */
  secret?: string;
}

function problems(issues: { path: PropertyKey[]; message: string }[]): string {
  return issues.map((i) => `${i.path.map(String).join('.') || 'settings'}: ${i.message}`).join('; ');
}

async function checkedSettings(
  config: Readonly<SluiceConfig>,
  kind: SourceKind,
  given: unknown,
  hasSecret: boolean,
): Promise<SourceSettings> {
  const parsed = SOURCE_SETTINGS_SCHEMAS[kind].safeParse(given);
  if (!parsed.success) throw new InvalidSourceError(problems(parsed.error.issues));
  const settings = parsed.data as SourceSettings;
  if (kind === 'folder' && !(await isUnderAllowedRoot((settings as { path: string }).path, config.sources.folderRoots)))
    throw new InvalidSourceError('path: not an existing folder under a root SLUICE_SOURCE_FOLDER_ROOTS allows');
  if (kind === 's3' && hasSecret !== ((settings as { accessKeyId?: string }).accessKeyId !== undefined))
    throw new InvalidSourceError(
      'an S3 source names accessKeyId and a secret together, or neither (the default chain)',
    );
  return settings;
}

/**
 * Adds a source to a dataset (docs/sources.md): the row (settings validated, a secret sealed), and
 * its Temporal Schedule `source:<id>` that starts `syncSource` every interval or by cron, skipping
 * a start while a sync runs. The first sync starts at once.
 */
export async function addSource(
  deps: SourceDeps,
  scope: { userId: string; datasetId: string },
  request: NewSourceRequest,
): Promise<SourceRow> {
  const schedule = scheduleSchema.safeParse(request.schedule);
  if (!schedule.success) throw new InvalidSourceError(problems(schedule.error.issues));
  const settings = await checkedSettings(deps.config, request.kind, request.settings, request.secret !== undefined);
  const id = randomUUID();
  const sealed =
    request.secret === undefined ? null : encryptSecret(encryptionKeyOf(deps.config, 'sources'), request.secret);
  await insertSource(deps.db, {
    id,
    ...scope,
    kind: request.kind,
    settings,
    sealedSecret: sealed,
    everySeconds: schedule.data.everySeconds ?? null,
    cron: schedule.data.cron ?? null,
  });
  const args: SyncSourceInput = {
    sourceId: id,
    ...scope,
    retryWait: deps.config.retryWait,
    maxOpen: deps.config.sources.syncConcurrency,
    ...callerClaimFor(deps.config, scope.userId),
  };
  try {
    await deps.client.schedule.create({
      scheduleId: sourceScheduleId(id),
      spec: scheduleSpec(schedule.data),
      policies: { overlap: ScheduleOverlapPolicy.SKIP, catchupWindow: '1 minute' },
      action: {
        type: 'startWorkflow',
        workflowType: SYNC_SOURCE_WORKFLOW_TYPE,
        workflowId: syncWorkflowId(id),
        taskQueue: deps.config.temporal.taskQueue,
        args: [args],
        typedSearchAttributes: new TypedSearchAttributes([
          { key: SourceIdKey, value: id },
          { key: DatasetIdKey, value: scope.datasetId },
        ]),
        staticSummary: `sync ${request.kind} source ${id} into ${scope.datasetId}`.slice(0, 200),
      },
      state: { triggerImmediately: true, note: `dataset ${scope.datasetId}` },
    });
  } catch (error) {
    await deleteSource(deps.db, id);
    throw error;
  }
  return (await findSource(deps.db, id)) as SourceRow;
}

/** The source when it is the user's; another user's is answered as one that does not exist. */
export async function ownSource(
  deps: Pick<SourceDeps, 'db'>,
  userId: string,
  id: string,
): Promise<SourceRow | undefined> {
  const row = await findSource(deps.db, id);
  return row?.user_id === userId ? row : undefined;
}

/** The user's sources with when each next syncs (null while paused). */
export async function sourcesWithNextRun(deps: SourceDeps, userId: string, datasetId?: string) {
  const rows = await listSources(deps.db, userId, datasetId);
  return Promise.all(
    rows.map(async (row) => {
      const described = await deps.client.schedule
        .getHandle(sourceScheduleId(row.id))
        .describe()
        .catch(() => undefined);
      return { row, nextRunAt: row.paused ? null : (described?.info.nextActionTimes[0] ?? null) };
    }),
  );
}

export async function pauseSource(deps: SourceDeps, row: SourceRow, paused: boolean): Promise<void> {
  const handle = deps.client.schedule.getHandle(sourceScheduleId(row.id));
  await (paused ? handle.pause('paused by its owner') : handle.unpause('resumed by its owner'));
  await setSourcePaused(deps.db, row.id, paused);
}

function scheduleSpec(schedule: SourceSchedule) {
  return schedule.cron !== undefined
    ? { cronExpressions: [schedule.cron] }
    : { intervals: [{ every: (schedule.everySeconds as number) * 1000 }] };
}

/** What may change of a source: its settings (its kind stays), its secret, its schedule. */
export interface SourceChange {
  settings?: unknown;
  secret?: string;
  schedule?: SourceSchedule;
}

/**
 * Changes a source: settings checked again by its kind's schema (and the allowed roots), a new
 * secret sealed, a new schedule given to its Schedule. The next sync follows the new settings: paths
 * they no longer list are deleted like files gone from the source.
 */
export async function changeSource(deps: SourceDeps, row: SourceRow, change: SourceChange): Promise<SourceRow> {
  const schedule = scheduleSchema.safeParse(
    change.schedule ?? { everySeconds: row.every_seconds ?? undefined, cron: row.cron ?? undefined },
  );
  if (!schedule.success) throw new InvalidSourceError(problems(schedule.error.issues));
  const hasSecret = change.secret !== undefined || row.sealed_secret !== null;
  const settings =
    change.settings === undefined
      ? undefined
      : await checkedSettings(deps.config, row.kind, change.settings, hasSecret);
  const sealed =
    change.secret === undefined ? undefined : encryptSecret(encryptionKeyOf(deps.config, 'sources'), change.secret);
  if (change.schedule !== undefined) {
    await deps.client.schedule
      .getHandle(sourceScheduleId(row.id))
      .update((previous) => ({ ...previous, spec: scheduleSpec(schedule.data) }));
  }
  await updateSourceRow(deps.db, row.id, {
    ...(settings !== undefined ? { settings } : {}),
    ...(sealed !== undefined ? { sealedSecret: sealed } : {}),
    everySeconds: schedule.data.everySeconds ?? null,
    cron: schedule.data.cron ?? null,
  });
  return (await findSource(deps.db, row.id)) as SourceRow;
}

/** Starts a sync now (skipped, like a scheduled one, while a sync runs). */
export async function triggerSync(deps: SourceDeps, row: SourceRow): Promise<void> {
  await deps.client.schedule.getHandle(sourceScheduleId(row.id)).trigger(ScheduleOverlapPolicy.SKIP);
}

/**
 * Removes a source: its Schedule first (no sync starts after), then, unless `keepDocuments`, a
 * durable deletion of each of its documents, then the row and its ledger. Kept documents stay as
 * uploads would (their `source` still names where they came from).
 */
export async function removeSource(
  deps: SourceDeps,
  row: SourceRow,
  options: { keepDocuments: boolean },
): Promise<{ deleting: number }> {
  try {
    await deps.client.schedule.getHandle(sourceScheduleId(row.id)).delete();
  } catch (error) {
    if (!(error instanceof ScheduleNotFoundError)) throw error;
  }
  let deleting = 0;
  if (!options.keepDocuments) {
    for (const documentId of await sourceDocumentIds(deps.db, row.id)) {
      const input: DeleteInput = { documentId, userId: row.user_id, ...callerClaimFor(deps.config, row.user_id) };
      await deps.client.workflow
        .start(DELETE_WORKFLOW_TYPE, {
          workflowId: deleteWorkflowId(documentId),
          taskQueue: deps.config.temporal.taskQueue,
          args: [input],
        })
        .catch((error: unknown) => {
          if ((error as Error).name !== 'WorkflowExecutionAlreadyStartedError') throw error;
        });
      deleting += 1;
    }
  }
  await deleteSource(deps.db, row.id);
  return { deleting };
}
