import { formatStatus, type DocumentStatusReport } from '../../cli/commands/documentStatus';
import { workflowUrl } from '../../client/workflowUrl';
import { loadConfig } from '../../config/config';
import { STAGES } from '../../contracts/stages';

const report: DocumentStatusReport = {
  documentId: '0b5c4d1e-2f3a-4b5c-8d9e-0f1a2b3c4d5e',
  fileName: 'report.pdf',
  datasetId: 'manuals',
  source: 'upload',
  lifecycle: 'ACTIVE',
  taskId: 't1',
  pipelineStatus: 'SUCCESS',
  stages: STAGES.map((stage) => ({ stage, status: 'SUCCESS', ms: 5 })),
  failureCode: null,
  failureReason: null,
  chunks: { total: 3, active: 3, dense: 3, sparse: 3, keyword: 3 },
  ocrPages: [],
  plan: null,
};

it('ends `sluice status` with the run in the Web UI at TEMPORAL_UI_URL', () => {
  const config = loadConfig({ TEMPORAL_UI_URL: 'https://temporal.example.com/', TEMPORAL_NAMESPACE: 'prod' });
  const lines = formatStatus(report, workflowUrl(config, report.documentId)).split('\n');
  expect(lines.at(-1)).toBe(
    `web UI    https://temporal.example.com/namespaces/prod/workflows/ingest:${report.documentId}`,
  );
});

it('lists the pages OCR read, with why and how sure, and none for a document without any', () => {
  const url = 'http://ui/x';
  expect(formatStatus(report, url)).not.toMatch(/^ocr/m);
  const scanned = {
    ...report,
    ocrPages: [
      { page: 1, reason: 'no-text' as const, confidence: 0.984, chars: 900 },
      { page: 4, reason: 'garbled' as const, confidence: 0.9, chars: 1200 },
    ],
  };
  expect(formatStatus(scanned, url)).toMatch(/^ocr {7}2 pages: 1 \(no-text, 0\.98\), 4 \(garbled, 0\.90\)$/m);
});

it("shows the plan's state, strategy and reason, and who confirmed it; no plan line before the plan step", () => {
  const url = 'http://ui/x';
  expect(formatStatus(report, url)).not.toMatch(/^plan/m);
  const waiting = {
    ...report,
    plan: { state: 'WAIT_CONFIRM' as const, strategy: 'qa', reason: 'questions with answers', confirmedBy: null },
  };
  expect(formatStatus(waiting, url)).toMatch(
    /^plan {6}WAIT_CONFIRM qa: questions with answers {2}→ sluice plan show\|confirm$/m,
  );
  const confirmed = { ...waiting, plan: { ...waiting.plan, state: 'EXECUTED' as const, confirmedBy: 'alice' } };
  expect(formatStatus(confirmed, url)).toMatch(/^plan {6}EXECUTED qa: questions with answers \(confirmed by alice\)$/m);
});

it('says where the document came from: an upload, or the synced source that keeps it', () => {
  expect(formatStatus(report, 'http://ui/x')).toMatch(/^source {4}upload$/m);
  const synced = { ...report, source: '5f0c2a52-1b7e-4c38-9d59-2d8f1e3a4b6c' };
  expect(formatStatus(synced, 'http://ui/x')).toMatch(
    /^source {4}synced source 5f0c2a52-1b7e-4c38-9d59-2d8f1e3a4b6c$/m,
  );
});
