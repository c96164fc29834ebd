import { denseQueryText } from '../../search/denseQuery';

describe('denseQueryText', () => {
  it('drops a question’s function words and punctuation, keeping its terms in order', () => {
    expect(denseQueryText('How do I flatten a matrix into a vector?')).toBe('flatten matrix vector');
  });

  it('keeps identifiers whole', () => {
    expect(denseQueryText('What does pg_dump --clean do?')).toBe('pg_dump clean');
  });

  it('segments Chinese and drops its function words', () => {
    const text = denseQueryText('如何设置提交代码时使用的姓名和邮箱？');
    expect(text).not.toMatch(/[的？]/u);
    expect(text).toContain('邮箱');
  });

  it('leaves a query of function words alone as typed rather than embedding nothing', () => {
    expect(denseQueryText('How do I?')).toBe('How do I?');
  });
});
