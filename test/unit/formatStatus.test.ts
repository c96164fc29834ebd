import { formatStatus, type DocumentStatusReport } from '../../cli/commands/documentStatus';
import { workflowUrl } from '../../client/workflowUrl';
import { loadConfig } from '../../config/config';
import { STAGES } from '../../contracts/stages';

const report: DocumentStatusReport = {
  documentId: '0b5c4d1e-2f3a-4b5c-8d9e-0f1a2b3c4d5e',
  fileName: 'report.pdf',
  datasetId: 'manuals',
  lifecycle: 'ACTIVE',
  taskId: 't1',
  pipelineStatus: 'SUCCESS',
  stages: STAGES.map((stage) => ({ stage, status: 'SUCCESS', ms: 5 })),
  failureCode: null,
  failureReason: null,
  chunks: { total: 3, active: 3, dense: 3, sparse: 3, keyword: 3 },
};

it('ends `sluice status` with the run in the Web UI at TEMPORAL_UI_URL', () => {
  const config = loadConfig({ TEMPORAL_UI_URL: 'https://temporal.example.com/', TEMPORAL_NAMESPACE: 'prod' });
  const lines = formatStatus(report, workflowUrl(config, report.documentId)).split('\n');
  expect(lines.at(-1)).toBe(
    `web UI    https://temporal.example.com/namespaces/prod/workflows/ingest:${report.documentId}`,
  );
});
