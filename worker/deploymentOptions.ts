import type { WorkerOptions } from '@temporalio/worker';
import type { TemporalConfig } from '../config/temporalConfig';

/**
 * Worker Versioning: a worker of a versioned rollout (SLUICE_DEPLOYMENT_NAME set) polls as one
 * version of its Worker Deployment, and the server hands it only the runs of that version (plus
 * new ones once the version is made current). Each workflow type declares its own behaviour
 * (workflows/*.ts setWorkflowOptions); the default below only covers a type that would forget,
 * and is the safe one. An unversioned worker (the dev stack) takes every task of its queue.
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
