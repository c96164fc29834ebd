import { STOP_WORDS } from '../../../tokenizer/stopWords';
import { tokenize } from '../../../tokenizer/tokenize';

describe('tokenize', () => {
  it('keeps identifiers whole and lower-cases them', () => {
    const tokens = tokenize('Check pg_stat_activity for FORM-2024-001 in node.js v1.2.3, then RETRY.');
    expect(tokens).toEqual(
      expect.arrayContaining(['pg_stat_activity', 'form-2024-001', 'node.js', 'v1.2.3', 'retry', 'check']),
    );
    expect(tokens).not.toContain('form');
    expect(tokens).not.toContain('2024');
  });

  it('drops English stop words and punctuation', () => {
    const tokens = tokenize('The worker is retrying the activity, and it will succeed!');
    expect(tokens).toEqual(['worker', 'retrying', 'activity', 'succeed']);
  });

  it('segments Chinese text into words without stop words', () => {
    const tokens = tokenize('系统会进行文档切分和向量检索，我们已经上传了文档。');
    expect(tokens.length).toBeGreaterThan(3);
    expect(tokens).toEqual(expect.arrayContaining(['系统', '向量', '检索']));
    // ICU may keep a CJK run as one "word" without a dictionary; it must have cut this one.
    expect(tokens.every((token) => token.length <= 4)).toBe(true);
    for (const stopWord of ['和', '我们', '已经', '了']) expect(tokens).not.toContain(stopWord);
    expect(tokens.some((token) => /[，。]/.test(token))).toBe(false);
  });

  it('keeps Chinese words whole with jieba, where ICU alone cuts single characters', () => {
    const tokens = tokenize('如何上传文档并查看数据库管理系统的状态');
    expect(tokens).toEqual(expect.arrayContaining(['上传', '文档', '数据库', '管理系统', '状态']));
    expect(tokens).not.toContain('文');
    expect(tokens).not.toContain('的');
    // The query side is cut the same way, so a part of a compound finds the compound.
    expect(tokens).toEqual(expect.arrayContaining(tokenize('数据库')));
  });

  it('keeps identifiers whole inside Chinese text', () => {
    expect(tokenize('请填写FORM-2024-001后查询pg_stat_activity视图')).toEqual(
      expect.arrayContaining(['填写', 'form-2024-001', '查询', 'pg_stat_activity', '视图']),
    );
  });

  it('does not join Chinese words through a hyphen', () => {
    expect(tokenize('向量-检索')).toEqual(['向量', '检索']);
  });

  it('folds full-width forms (NFKC) so they meet their ASCII spelling', () => {
    expect(tokenize('ＦＵＬＬ width ２０２４')).toEqual(tokenize('full WIDTH 2024'));
  });

  it('never emits a stop word, an empty token or an oversized blob', () => {
    const tokens = tokenize(`The of 的 了 ${'x'.repeat(500)} ok`);
    expect(tokens).toEqual(['ok']);
    expect(tokens.every((token) => token !== '' && !STOP_WORDS.has(token))).toBe(true);
  });

  it('is deterministic on a large text', () => {
    const text = 'Durable execution resumes from checkpoints. 文档切分与向量检索。 '.repeat(20_000);
    const first = tokenize(text);
    expect(first.length).toBeGreaterThan(100_000);
    expect(tokenize(text.slice(0, 5_000))).toEqual(tokenize(text.slice(0, 5_000)));
  });
});
