import { namesAnswerLanguage } from '../../search/namedLanguage';

describe('namesAnswerLanguage', () => {
  it('is a document named in the language, in either language', () => {
    expect(namesAnswerLanguage('In the Chinese installation guide, which boot parameter helps?', 'zh')).toBe(true);
    expect(namesAnswerLanguage('According to the Chinese Guide for Debian Maintainers, when?', 'zh')).toBe(true);
    expect(namesAnswerLanguage('What is a binNMU, as explained in the Chinese debmake document?', 'zh')).toBe(true);
    expect(namesAnswerLanguage('英文的 Debian 版本表里，Debian 8 jessie 是哪天发布的？', 'en')).toBe(true);
    expect(namesAnswerLanguage('英文 R FAQ：可以把 R 用于商业用途吗？', 'en')).toBe(true);
    expect(namesAnswerLanguage('在英文的安装幻灯片中，怎样进入救援模式？', 'en')).toBe(true);
  });

  it('is an edition in the language', () => {
    expect(namesAnswerLanguage('英文版手册里怎样保留软件包？', 'en')).toBe(true);
  });

  it('is not a language named for anything else', () => {
    expect(namesAnswerLanguage('How do I install Chinese fonts?', 'zh')).toBe(false);
    expect(namesAnswerLanguage('Which Chinese input methods does Debian ship?', 'zh')).toBe(false);
    expect(namesAnswerLanguage('How do I type in Chinese on Debian?', 'zh')).toBe(false);
    expect(namesAnswerLanguage('Is the installer available in Chinese?', 'zh')).toBe(false);
    expect(namesAnswerLanguage('How do I display Chinese text in the terminal?', 'zh')).toBe(false);
    expect(namesAnswerLanguage('How do I contribute a Chinese translation?', 'zh')).toBe(false);
    expect(namesAnswerLanguage('怎样输入英文字母？', 'en')).toBe(false);
    expect(namesAnswerLanguage('英文缩写 DFSG 代表什么？', 'en')).toBe(false);
    expect(namesAnswerLanguage('用英文怎么表达这个错误？', 'en')).toBe(false);
    // The document comes only after the clause ends: it is not the language's.
    expect(namesAnswerLanguage('用英文，还是看安装指南？', 'en')).toBe(false);
  });

  it('is not a language set aside', () => {
    expect(namesAnswerLanguage('除英语外的本地化任务要预留多少空间？', 'en')).toBe(false);
    expect(namesAnswerLanguage('除了英文版以外还有哪些手册？', 'en')).toBe(false);
    expect(namesAnswerLanguage('Which manuals other than the Chinese guide exist?', 'zh')).toBe(false);
    expect(namesAnswerLanguage('Without the Chinese guide, how do I start?', 'zh')).toBe(false);
    expect(namesAnswerLanguage('不要英文文档，中文的呢？', 'en')).toBe(false);
  });

  it('reads 删除 (delete) as no setting aside', () => {
    expect(namesAnswerLanguage('如何删除英文版手册？', 'en')).toBe(true);
  });

  it('only looks for the language it is asked about', () => {
    expect(namesAnswerLanguage('In the Chinese installation guide, which boot parameter helps?', 'en')).toBe(false);
    expect(namesAnswerLanguage('英文的 Debian 版本表里', 'zh')).toBe(false);
  });
});
