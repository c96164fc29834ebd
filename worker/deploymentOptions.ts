import type { WorkerOptions } from '@temporalio/worker';
import type { TemporalConfig } from '../config/temporalConnectionConfig';

/**
 * Worker Versioning: a worker of a versioned rollout (SLUICE_DEPLOYMENT_NAME set) polls as one
 * version of its Worker Deployment, and the server hands it only the runs of that version (plus
 * new ones once the version is made current). Every workflow type declares its own behaviour
 * (workflows/versioningBehavior.ts); this default covers a run that declares none, one begun on
 * an unversioned worker and replayed here. An unversioned worker (the dev stack) takes every task
 * of its queue, and its runs declare no behaviour, which the server would refuse from it.
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
