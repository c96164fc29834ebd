import type { Client } from '@temporalio/client';
import type { Adapters } from '../../composition/adapters';
import { pingDatabase } from '../../db/repositories/health';

/** The dependencies /healthz checks, by the names it reports when one is down. */
export const DEPENDENCIES = ['Postgres', 'Temporal', 'keyword index', 'object store'] as const;
export type Dependency = (typeof DEPENDENCIES)[number];
export type CheckResult = 'ok' | 'failing';

export interface DependencyReport {
  checks: { database: CheckResult; temporal: CheckResult; keywordIndex: CheckResult; objectStore: CheckResult };
  /** The dependencies that did not answer in time, by name: empty when all are up. */
  down: Dependency[];
}

const CHECK_DEADLINE_MS = 2000;
// A key no document uses (object keys are documents/…): a HEAD (S3) or a stat (local) that answers "missing".
const PROBE_KEY = 'healthz/probe';
// A document id no chunk has: one indexed count, an empty answer, on either keyword index.
const PROBE_DOCUMENT = '00000000-0000-0000-0000-000000000000';

function withinDeadline(check: () => Promise<unknown>): Promise<CheckResult> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('timed out')), CHECK_DEADLINE_MS);
  });
  return Promise.race([check(), timeout])
    .then(
      () => 'ok' as const,
      () => 'failing' as const,
    )
    .finally(() => clearTimeout(timer));
}

/**
 * One cheap call per dependency, all at once, each cut at 2 s: a health probe costs at most
 * four tiny requests and never waits on a dead server's TCP timeout.
 */
export async function checkDependencies(adapters: Adapters, client: Client): Promise<DependencyReport> {
  const [database, temporal, keywordIndex, objectStore] = await Promise.all([
    withinDeadline(() => pingDatabase(adapters.db)),
    withinDeadline(() =>
      client.connection.withDeadline(Date.now() + CHECK_DEADLINE_MS, () => client.workflowService.getSystemInfo({})),
    ),
    withinDeadline(() => adapters.keywords.countForDocument(PROBE_DOCUMENT)),
    withinDeadline(() => adapters.objects.exists(PROBE_KEY)),
  ]);
  const results = [database, temporal, keywordIndex, objectStore];
  return {
    checks: { database, temporal, keywordIndex, objectStore },
    down: DEPENDENCIES.filter((_, i) => results[i] === 'failing'),
  };
}
