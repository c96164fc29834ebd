import type { Client } from '@temporalio/client';
import { temporal } from '@temporalio/proto';

/** True when some worker polls the task queue for workflow tasks right now. */
export async function hasWorkerPolling(client: Client, namespace: string, taskQueue: string): Promise<boolean> {
  const response = await client.workflowService.describeTaskQueue({
    namespace,
    taskQueue: { name: taskQueue },
    taskQueueType: temporal.api.enums.v1.TaskQueueType.TASK_QUEUE_TYPE_WORKFLOW,
  });
  return (response.pollers ?? []).length > 0;
}
