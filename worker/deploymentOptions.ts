import type { WorkerOptions } from '@temporalio/worker';
import type { TemporalConfig } from '../config/temporalConnectionConfig';

/**
 * Worker Versioning: a worker of a versioned rollout (SLUICE_DEPLOYMENT_NAME set) polls as one
 * version of its Worker Deployment, and the server hands it only the runs of that version (plus
 * new ones once the version is made current). Every workflow type is PINNED, this default (the
 * reasons: workflows/ingestDocument.ts); a per-type setWorkflowOptions behaviour is refused by the
 * server from an unversioned worker, so it is not declared there. An unversioned worker (the dev
 * stack) takes every task of its queue.
 */
export function deploymentOptions(temporal: TemporalConfig): Pick<WorkerOptions, 'workerDeploymentOptions'> {
  if (!temporal.deployment) return {};
  return {
    workerDeploymentOptions: {
      useWorkerVersioning: true,
      version: { deploymentName: temporal.deployment.name, buildId: temporal.deployment.buildId },
      defaultVersioningBehavior: 'PINNED',
    },
  };
}
