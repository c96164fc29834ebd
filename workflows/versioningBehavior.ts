import { setWorkflowOptions, workflowInfo } from '@temporalio/workflow';

export type DeclaredVersioningBehavior = 'PINNED' | 'AUTO_UPGRADE';

/**
 * Declares a workflow type's Worker Versioning behaviour (docs/deployment.md), sent with every
 * workflow task completion of its runs, but only from a versioned worker. The server refuses a
 * completion that names a behaviour from a worker polling without versioned deployment options
 * ("versioning behavior cannot be specified without deployment options being set with versioned
 * mode", server 1.32 and the dev server alike), and SDK 1.24 sends the declared behaviour whatever
 * the worker's mode, so the dev stack's unversioned workers would fail every workflow task.
 *
 * The getter runs once per run on a worker, before the workflow function: the deployment version
 * of the task at hand names a deployment only on a versioned worker (an unversioned one reports
 * its build id with an empty deployment name, or none). On a replay it is the version recorded in
 * history, which is the same answer as long as a run stays on versioned or on unversioned
 * workers; a PINNED run does (the server never moves it), which is one more reason every type is
 * PINNED. A run begun unversioned that a versioned worker later replays declares nothing and
 * gets that worker's default (worker/deploymentOptions.ts: PINNED as well).
 */
export function declareVersioningBehavior<A extends unknown[], R>(
  behavior: DeclaredVersioningBehavior,
  workflow: (...args: A) => Promise<R>,
): void {
  setWorkflowOptions(() => (onVersionedWorker() ? { versioningBehavior: behavior } : {}), workflow);
}

function onVersionedWorker(): boolean {
  return (workflowInfo().currentDeploymentVersion?.deploymentName ?? '') !== '';
}
