import {
  languageOf,
  languageWanted,
  preferLanguage,
  routeByLanguage,
  wantedLanguage,
} from '../../search/languageRouting';

describe('languageOf', () => {
  it('tells Chinese from English by the dominant script', () => {
    expect(languageOf('如何显示已安装的软件包包含的文件？')).toBe('zh');
    expect(languageOf('How do I display the files of an installed package?')).toBe('en');
  });

  it('keeps a Chinese passage that quotes commands Chinese', () => {
    expect(languageOf('要列出已安装的软件包 foo 提供的所有文件，请执行 dpkg --listfiles foo')).toBe('zh');
  });

  it('reads the prose before the code: a Chinese section holding a listing is Chinese', () => {
    const listing = 'Package: hello\nVersion: 2.9-2+deb8u1\nArchitecture: amd64\nMaintainer: Santiago Vila\n';
    expect(languageOf(`7.4. 什么是 Debian 控制文件？\n\n\`\`\`\n${listing}\`\`\`\n`)).toBe('zh');
    expect(languageOf('运行 `dpkg-deb --fsys-tarfile package.deb | tar -tvf - | less` 查看')).toBe('zh');
    expect(languageOf(`What is a control file?\n\`\`\`\n${'软件包'.repeat(20)}\n\`\`\`\n`)).toBe('en');
  });

  it('falls back to the code when the text is code only', () => {
    expect(languageOf('```\nPackage: hello\nVersion: 2.9\n```\n')).toBe('en');
    expect(languageOf('`软件包`')).toBe('zh');
  });

  it('cannot tell text with no letters, or in another script', () => {
    expect(languageOf('12345 --- !!!')).toBeNull();
    expect(languageOf('Как установить пакет')).toBeNull();
  });
});

describe('wantedLanguage', () => {
  it('is the question’s own language unless it names the other one', () => {
    expect(wantedLanguage('How do I hold a package?')).toBe('en');
    expect(wantedLanguage('In the Chinese guide, how do I hold a package?')).toBe('zh');
    expect(wantedLanguage('怎样保留软件包？')).toBe('zh');
    expect(wantedLanguage('英文 FAQ 里怎样保留软件包？')).toBe('en');
  });

  it('is none for a query of identifiers only, which every language writes alike', () => {
    expect(wantedLanguage('start-stop-daemon')).toBeNull();
    expect(wantedLanguage('/var/lib/dpkg/info httpredir.debian.org')).toBeNull();
    expect(wantedLanguage('Installed-Size 字段')).toBe('zh');
    expect(wantedLanguage('What does start-stop-daemon do?')).toBe('en');
  });
});

describe('languageWanted', () => {
  it('says whether the question named the language it wants', () => {
    expect(languageWanted('How do I hold a package?')).toEqual({ language: 'en', named: false });
    expect(languageWanted('In the Chinese guide, how do I hold a package?')).toEqual({ language: 'zh', named: true });
    expect(languageWanted('英文的 Debian 版本表里，Debian 8 jessie 是哪天发布的？')).toEqual({
      language: 'en',
      named: true,
    });
    expect(languageWanted('start-stop-daemon')).toBeNull();
  });

  it('keeps the question’s own language when the other is named for anything but the answer', () => {
    expect(languageWanted('How do I install Chinese fonts?')).toEqual({ language: 'en', named: false });
  });

  it('does not take a language set aside for the one wanted', () => {
    expect(languageWanted('除英语外的本地化任务要预留多少空间？')).toEqual({ language: 'zh', named: false });
    expect(languageWanted('除了英文以外还支持哪些语言？')).toEqual({ language: 'zh', named: false });
    expect(languageWanted('Which locales other than Chinese does the installer offer?')).toEqual({
      language: 'en',
      named: false,
    });
    expect(languageWanted('Besides English, 中文的 FAQ 在哪里？')).toEqual({ language: 'zh', named: false });
  });
});

describe('routeByLanguage', () => {
  const hits = [
    { chunkId: 'zh-1', score: 0.9 },
    { chunkId: 'zh-2', score: 0.5 },
    { chunkId: 'en-1', score: 0.3 },
  ];
  const language = (h: { chunkId: string }): 'zh' | 'en' => (h.chunkId.startsWith('zh') ? 'zh' : 'en');
  const routing = { otherLanguageFactor: 0.5, namedLanguageFactor: 0 };

  it('puts every hit in a named language first', () => {
    const routed = routeByLanguage(hits, language, '英文 FAQ 里怎样保留软件包？', routing);
    expect(routed.map((h) => h.chunkId)).toEqual(['en-1', 'zh-1', 'zh-2']);
  });

  it('only demotes other-language hits by the other factor when the language is the question’s own', () => {
    const routed = routeByLanguage(hits, language, 'How do I hold a package?', routing);
    expect(routed.map((h) => h.chunkId)).toEqual(['zh-1', 'en-1', 'zh-2']);
  });

  it('leaves a query of identifiers only as fused', () => {
    const routed = routeByLanguage(hits, language, 'start-stop-daemon', routing);
    expect(routed).toEqual(hits.map((h) => ({ ...h, languageFactor: 1 })));
  });

  it('says what it multiplied each score by', () => {
    const routed = routeByLanguage(hits, language, 'How do I hold a package?', routing);
    expect(routed.map((h) => [h.chunkId, h.languageFactor, h.score])).toEqual([
      ['zh-1', 0.5, 0.45],
      ['en-1', 1, 0.3],
      ['zh-2', 0.5, 0.25],
    ]);
  });
});

describe('preferLanguage', () => {
  const hits = [
    { chunkId: 'zh-1', score: 0.9 },
    { chunkId: 'en-1', score: 0.8 },
    { chunkId: 'en-2', score: 0.3 },
  ];
  const language = (h: { chunkId: string }): 'zh' | 'en' => (h.chunkId.startsWith('zh') ? 'zh' : 'en');

  it('with factor 0 puts every other-language hit after the wanted language', () => {
    expect(preferLanguage(hits, language, 'en', 0).map((h) => h.chunkId)).toEqual(['en-1', 'en-2', 'zh-1']);
  });

  it('with a partial factor only demotes what it outweighs', () => {
    expect(preferLanguage(hits, language, 'en', 0.5).map((h) => h.chunkId)).toEqual(['en-1', 'zh-1', 'en-2']);
  });

  it('changes nothing with factor 1 or an unknown wanted language', () => {
    const unchanged = hits.map((h) => ({ ...h, languageFactor: 1 }));
    expect(preferLanguage(hits, language, 'en', 1)).toEqual(unchanged);
    expect(preferLanguage(hits, language, null, 0)).toEqual(unchanged);
  });
});
