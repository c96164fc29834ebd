import type { FailureCode } from '../../contracts/failureCodes';
import type { Stage } from '../../contracts/stages';
import { markTaskFailed } from '../../db/repositories/pipelines';
import type { ActivityDeps } from '../deps';
import { safeForTenant } from '../failureText';
import { countTaskFailure } from './stageMetrics';
import { mappingFailures } from '../toApplicationFailure';

export interface TaskFailure {
  taskId: string;
  stage: Stage | null;
  code: FailureCode;
  message: string;
}

/**
 * The markFailed step of the stage template, run by the workflow once retries are exhausted.
 * failure_reason is read by tenants: whatever message reaches here (a timeout, a failure some
 * other code raised) is stripped of URLs, addresses and credentials once more before it is stored.
 */
export function createRecordTaskFailureActivity(deps: ActivityDeps) {
  return mappingFailures(async function recordTaskFailure(failure: TaskFailure): Promise<void> {
    await markTaskFailed(deps.db, failure.taskId, { ...failure, message: safeForTenant(failure.message) });
    // After the write: a retried attempt whose write failed is counted once, when it lands.
    countTaskFailure(failure.stage, failure.code);
  });
}
