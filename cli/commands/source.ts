import { durationMs } from '../../config/durations';
import type { SourceKind, SourceSchedule, SyncReport } from '../../contracts/sources';
import type { SourceRow } from '../../db/repositories/sources';
import {
  addSource,
  changeSource,
  InvalidSourceError,
  ownSource,
  pauseSource,
  removeSource,
  sourcesWithNextRun,
  triggerSync,
  type SourceDeps,
} from '../../client/sources';
import { processIo, readApiKey } from './embedding';

export interface SourceAddOptions {
  dataset: string;
  user?: string;
  kind: string;
  path?: string;
  bucket?: string;
  prefix?: string;
  endpoint?: string;
  region?: string;
  accessKeyId?: string;
  url?: string;
  branch?: string;
  sitemap?: string;
  startUrl?: string;
  include: string[];
  every?: string;
  cron?: string;
  secretEnv?: string;
  secretStdin?: boolean;
}

/** The kind's settings from the options that name them (checked by the kind's schema in addSource). */
function settingsOf(opts: SourceAddOptions): Record<string, unknown> {
  const include = opts.include.length > 0 ? { include: opts.include } : {};
  const given = (entries: Record<string, unknown>) =>
    Object.fromEntries(Object.entries(entries).filter(([, v]) => v !== undefined));
  switch (opts.kind) {
    case 'folder':
      return given({ path: opts.path, ...include });
    case 's3':
      return given({
        bucket: opts.bucket,
        prefix: opts.prefix,
        endpoint: opts.endpoint,
        region: opts.region,
        accessKeyId: opts.accessKeyId,
        forcePathStyle: opts.endpoint !== undefined ? true : undefined,
        ...include,
      });
    case 'git':
      return given({ url: opts.url, branch: opts.branch, ...include });
    default:
      return given({ sitemap: opts.sitemap, startUrl: opts.startUrl, prefix: opts.prefix });
  }
}

function scheduleOf(opts: SourceAddOptions): SourceSchedule {
  if (opts.cron !== undefined) return { cron: opts.cron };
  return { everySeconds: Math.round(durationMs(opts.every ?? '1h') / 1000) };
}

/** One line per source: its id, kind, place, schedule, last sync's counts and the next run. */
export function sourceLine(row: SourceRow, nextRunAt: Date | null): string {
  const last = row.last_sync as SyncReport | null;
  const failures = last ? Object.entries(last.failures).map(([code, n]) => `${code} ${n}`) : [];
  const sync = last
    ? `last ${last.finishedAt} (${Math.round(last.durationMs / 1000)} s): +${last.added} ~${last.updated} -${last.deleted} =${last.unchanged} !${last.failed}${failures.length > 0 ? ` [${failures.join(', ')}]` : ''}`
    : 'not synced yet';
  const when = row.paused ? 'paused' : `next ${nextRunAt?.toISOString() ?? '?'}`;
  const every = row.cron ?? `every ${row.every_seconds} s`;
  return `${row.id}  ${row.dataset_id}  ${row.kind} ${JSON.stringify(row.config)}  ${every}  ${sync}  ${when}`;
}

export async function sourceAdd(deps: SourceDeps, userId: string, opts: SourceAddOptions): Promise<number> {
  try {
    const secret = await readApiKey({ apiKeyEnv: opts.secretEnv, apiKeyStdin: opts.secretStdin }, processIo);
    const row = await addSource(
      deps,
      { userId, datasetId: opts.dataset },
      {
        kind: opts.kind as SourceKind,
        settings: settingsOf(opts),
        schedule: scheduleOf(opts),
        ...(secret !== undefined ? { secret } : {}),
      },
    );
    console.log(`added source ${row.id}; its first sync has started`);
    return 0;
  } catch (error) {
    if (!(error instanceof InvalidSourceError)) throw error;
    console.error(error.message);
    return 1;
  }
}

export interface SourceSetOptions {
  user?: string;
  every?: string;
  cron?: string;
  settings?: string;
  secretEnv?: string;
  secretStdin?: boolean;
}

export async function sourceSet(deps: SourceDeps, userId: string, id: string, opts: SourceSetOptions): Promise<number> {
  const row = await ownSource(deps, userId, id);
  if (!row) {
    console.error(`no source ${id}`);
    return 1;
  }
  try {
    const secret = await readApiKey({ apiKeyEnv: opts.secretEnv, apiKeyStdin: opts.secretStdin }, processIo);
    const schedule =
      opts.every !== undefined || opts.cron !== undefined
        ? scheduleOf({ ...opts, include: [], dataset: row.dataset_id, kind: row.kind })
        : undefined;
    await changeSource(deps, row, {
      ...(opts.settings !== undefined ? { settings: JSON.parse(opts.settings) as unknown } : {}),
      ...(secret !== undefined ? { secret } : {}),
      ...(schedule ? { schedule } : {}),
    });
    console.log(`changed ${id}; the next sync follows it`);
    return 0;
  } catch (error) {
    if (!(error instanceof InvalidSourceError) && !(error instanceof SyntaxError)) throw error;
    console.error(error instanceof SyntaxError ? `--settings: not JSON (${error.message})` : error.message);
    return 1;
  }
}

export async function sourceList(deps: SourceDeps, userId: string, datasetId?: string): Promise<number> {
  const sources = await sourcesWithNextRun(deps, userId, datasetId);
  for (const s of sources) console.log(sourceLine(s.row, s.nextRunAt));
  if (sources.length === 0) console.log('no sources');
  return 0;
}

/** pause, resume, sync or remove one source of the user. */
export async function sourceAct(
  deps: SourceDeps,
  userId: string,
  id: string,
  action: 'pause' | 'resume' | 'sync' | 'remove',
  options: { keepDocuments?: boolean } = {},
): Promise<number> {
  const row = await ownSource(deps, userId, id);
  if (!row) {
    console.error(`no source ${id}`);
    return 1;
  }
  if (action === 'pause' || action === 'resume') await pauseSource(deps, row, action === 'pause');
  if (action === 'sync') await triggerSync(deps, row);
  if (action === 'remove') {
    const { deleting } = await removeSource(deps, row, { keepDocuments: options.keepDocuments === true });
    console.log(options.keepDocuments ? 'removed; its documents stay' : `removed; deleting ${deleting} documents`);
    return 0;
  }
  console.log(`${action === 'sync' ? 'sync started' : `${action}d`}: ${id}`);
  return 0;
}
