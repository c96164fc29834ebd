import type { SluiceConfig } from '../config/config';
import { ingestWorkflowId } from '../contracts/ingest';

/**
 * The document's run in the Temporal Web UI (TEMPORAL_UI_URL): its ingestion workflow, whose
 * timeline names each stage and file. `sluice status`, the API and the admin page link to it.
 */
export function workflowUrl(config: Readonly<SluiceConfig>, documentId: string): string {
  const base = config.temporal.uiUrl.replace(/\/+$/, '');
  return `${base}/namespaces/${encodeURIComponent(config.temporal.namespace)}/workflows/${ingestWorkflowId(documentId)}`;
}
