import { setTimeout as sleep } from 'node:timers/promises';
import { WorkflowNotFoundError, type Client } from '@temporalio/client';
import type { IngestionRuns } from '../activities';
import { ingestWorkflowId } from '../contracts/ingest';

const POLL_MS = 500;

/** IngestionRuns on a Temporal client: describe, cancel, and wait for the run to close. */
export function createTemporalIngestionRuns(client: Client): IngestionRuns {
  const isOpen = async (documentId: string) => {
    try {
      const description = await client.workflow.getHandle(ingestWorkflowId(documentId)).describe();
      return description.status.name === 'RUNNING';
    } catch (error) {
      if (error instanceof WorkflowNotFoundError) return false;
      throw error;
    }
  };
  return {
    isOpen,
    async cancelAndWait(documentId, onWaiting) {
      // Cancel again on every turn: a run that continued-as-new meanwhile is a new open run.
      while (await isOpen(documentId)) {
        await client.workflow
          .getHandle(ingestWorkflowId(documentId))
          .cancel()
          .catch((error: unknown) => {
            if (!(error instanceof WorkflowNotFoundError)) throw error;
          });
        onWaiting();
        await sleep(POLL_MS);
      }
    },
  };
}
