import type { Client } from '@temporalio/client';
import { temporal } from '@temporalio/proto';

const { TASK_QUEUE_TYPE_WORKFLOW, TASK_QUEUE_TYPE_ACTIVITY } = temporal.api.enums.v1.TaskQueueType;

/** Tasks waiting for a poller on a task queue, by type: the figure KEDA's temporal scaler reads. */
export interface Backlog {
  workflow: number;
  activity: number;
}

/** The server's approximate backlog count (DescribeTaskQueue with stats), per task type. */
export async function taskQueueBacklog(client: Client, namespace: string, taskQueue: string): Promise<Backlog> {
  const count = async (taskQueueType: temporal.api.enums.v1.TaskQueueType) => {
    const response = await client.workflowService.describeTaskQueue({
      namespace,
      taskQueue: { name: taskQueue },
      taskQueueType,
      reportStats: true,
    });
    return Number(response.stats?.approximateBacklogCount ?? 0);
  };
  const [workflow, activity] = await Promise.all([count(TASK_QUEUE_TYPE_WORKFLOW), count(TASK_QUEUE_TYPE_ACTIVITY)]);
  return { workflow, activity };
}
