import stringWidth from 'string-width';
import { fitToWidth, padToWidth } from '../../../cli/displayWidth';
import { renderProgressLine } from '../../../cli/progressView';
import type { IngestProgress } from '../../../contracts/ingest';
import { STAGES } from '../../../contracts/stages';

const running: IngestProgress = {
  status: 'PROCESSING',
  currentStage: 'VECTORIZING',
  stages: Object.fromEntries(STAGES.map((s, i) => [s, i < 2 ? 'SUCCESS' : 'PENDING'])),
} as unknown as IngestProgress;

/** The terminal column where the bar opens: equal on every line when labels are measured right. */
const barColumn = (line: string) => stringWidth(line.slice(0, line.indexOf('[')));

it('puts the bar in the same column after Latin, Chinese and emoji file names', () => {
  const names = ['checkpoints.md', '文档处理指南.html', '上传指南.html', 'notes 📄🚀.txt', 'family 👨‍👩‍👧 photo.png'];
  const columns = names.map((n) => barColumn(renderProgressLine(n, running)));
  expect(new Set(columns)).toEqual(new Set([33]));
  expect(barColumn(renderProgressLine('文档处理指南.html', null))).toBe(33);
});

it('cuts a long wide name at a column boundary without splitting a character', () => {
  const cut = fitToWidth('数据'.repeat(40), 31);
  expect(stringWidth(cut)).toBe(31);
  expect(cut.trimEnd()).toBe('数据'.repeat(7) + '数');
  expect(fitToWidth('👨‍👩‍👧👨‍👩‍👧', 3).trimEnd()).toBe('👨‍👩‍👧');
});

it('pads by display width and leaves longer text whole', () => {
  expect(stringWidth(padToWidth('手册', 16))).toBe(16);
  expect(padToWidth('a-much-longer-dataset-id', 16)).toBe('a-much-longer-dataset-id');
});
