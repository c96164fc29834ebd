import { textLanguage } from '../../tokenizer/textLanguage';

describe('textLanguage (which bge model embeds a text)', () => {
  it.each([
    ['How do I reset the password of my account?', 'en'],
    ['我怎样修改账户的密码？', 'zh'],
    ['使用 apt-get install 安装软件包，然后运行 dpkg -l 查看。', 'zh'],
    ['The Chinese word 你好 means hello in English greetings.', 'en'],
    ['12345 !!! ---', 'en'],
    ['', 'en'],
  ])('%j is %s', (text, language) => {
    expect(textLanguage(text)).toBe(language);
  });

  it('reads only a prefix: a long English tail after a Chinese opening does not change the answer', () => {
    const text = '中文段落。'.repeat(1000) + ' english words'.repeat(100_000);
    expect(textLanguage(text)).toBe('zh');
  });
});
