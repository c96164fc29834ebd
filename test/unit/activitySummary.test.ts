import { activitySummary } from '../../workflows/activitySummary';

describe('activitySummary', () => {
  it('names the stage and the file', () => {
    expect(activitySummary('CLEANING', 'report.pdf')).toBe('CLEANING report.pdf');
  });

  it('is the label alone without a subject', () => {
    expect(activitySummary('record notify failure')).toBe('record notify failure');
  });

  it('keeps a hostile file name on one line, its markdown escaped and its length bounded', () => {
    const summary = activitySummary('CHUNKING', `a\nb\r*[x](javascript:y)*<img>${'z'.repeat(10_000)}`);
    expect(summary).not.toMatch(/[\n\r]/);
    expect(summary.startsWith('CHUNKING a b \\*\\[x\\](javascript:y)\\*\\<img\\>')).toBe(true);
    expect(summary.length).toBeLessThan(200);
    expect(summary.endsWith('…')).toBe(true);
  });
});
