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

  it('shows every inline markdown and HTML construct of a name literally, and drops bidi and zero-width characters', () => {
    expect(activitySummary('CLEANING', '_a_ ~~b~~ c|d &lt;img&gt; &#60;x')).toBe(
      'CLEANING \\_a\\_ \\~\\~b\\~\\~ c\\|d \\&lt;img\\&gt; \\&#60;x',
    );
    expect(activitySummary('CLEANING', 'invoice\u202efdp.exe\u200b')).toBe('CLEANING invoicefdp.exe');
    // Inside a word an underscore is no markup: snake_case names read as they are.
    expect(activitySummary('CLEANING', 'q3_report_final.md')).toBe('CLEANING q3_report_final.md');
  });

  it('never cuts an escape or a surrogate pair in half', () => {
    const summary = activitySummary('CLEANING', `${'😀'.repeat(119)}*tail`);
    expect(summary).toBe(`CLEANING ${'😀'.repeat(119)}…`);
    expect(activitySummary('CLEANING', `${'x'.repeat(118)}*yz`)).toBe(`CLEANING ${'x'.repeat(118)}\\*…`);
  });
});
