import type { TextLanguage } from '../contracts/localModel';

/**
 * Whether a question names the language its answer is in: a document in that language ("In the
 * Chinese installation guide, …", "英文的 Debian 版本表里…") or the answer in it ("… in Chinese?").
 * A language named for anything else says nothing of where the answer is: "How do I install
 * Chinese fonts?" wants English passages about fonts, "除英语外的本地化任务" is about the others.
 * Everything here scans the query a bounded number of times, so it is linear in its length.
 */

/** Words for a document or a part of one, after the language's name ("the Chinese debmake guide"). */
const DOCUMENT_WORDS = new Set(
  [
    'guide',
    'manual',
    'handbook',
    'doc',
    'docs',
    'document',
    'documentation',
    'faq',
    'version',
    'edition',
    'translation',
    'table',
    'slide',
    'slides',
    'deck',
    'page',
    'pages',
    'book',
    'reference',
    'tutorial',
    'wiki',
    'site',
    'website',
    'article',
    'chapter',
    'section',
    'text',
  ].flatMap((w) => [w, `${w}s`]),
);
/** The same in Chinese, found as substrings (Chinese writes no spaces between words). */
const DOCUMENT_HAN = ['幻灯片', '指南', '手册', '文档', '表', '版', '说明', '资料', '页面', '网站', '教程', '书', '章'];

/** How far after a name its document may be: "the Chinese Guide for Debian Maintainers", "英文的 Debian 版本表". */
const LATIN_WORDS_AFTER = 4;
const HAN_CHARS_AFTER = 16;
const CLAUSE_END = /[,.;:?!，。；：？！、]/u;
const WORD = /[\p{L}\p{N}]+/gu;

/** Words before a name that set the language aside instead of asking for it. */
const SETS_ASIDE = new Set(['than', 'except', 'besides', 'non', 'excluding', 'without']);

const NAMES: Record<TextLanguage, { latin: readonly string[]; han: readonly string[] }> = {
  zh: { latin: ['chinese', 'mandarin'], han: ['中文', '汉语', '漢語', '华语'] },
  en: { latin: ['english'], han: ['英文', '英语', '英語'] },
};

/** The rest of the clause after `end`, at most `chars` characters. */
function clauseAfter(text: string, end: number, chars: number): string {
  const window = text.slice(end, end + chars);
  const stop = window.search(CLAUSE_END);
  return stop === -1 ? window : window.slice(0, stop);
}

function namesDocument(after: string): boolean {
  const words = (after.toLowerCase().match(WORD) ?? []).slice(0, LATIN_WORDS_AFTER);
  return words.some((w) => DOCUMENT_WORDS.has(w)) || DOCUMENT_HAN.some((noun) => after.includes(noun));
}

function latinNamesAnswer(query: string, names: readonly string[]): boolean {
  let previous = '';
  for (const match of query.matchAll(WORD)) {
    const word = match[0].toLowerCase();
    if (names.includes(word) && !SETS_ASIDE.has(previous)) {
      const end = (match.index ?? 0) + match[0].length;
      if (previous === 'in' || namesDocument(clauseAfter(query, end, 12 * LATIN_WORDS_AFTER))) return true;
    }
    previous = word;
  }
  return false;
}

function hanNamesAnswer(query: string, names: readonly string[]): boolean {
  for (const name of names) {
    for (let at = query.indexOf(name); at !== -1; at = query.indexOf(name, at + name.length)) {
      const setAside = query.slice(Math.max(0, at - 3), at).includes('除');
      if (!setAside && namesDocument(clauseAfter(query, at + name.length, HAN_CHARS_AFTER))) return true;
    }
  }
  return false;
}

/** Whether `query` names `language` as the language of its answer (see above). */
export function namesAnswerLanguage(query: string, language: TextLanguage): boolean {
  const { latin, han } = NAMES[language];
  return latinNamesAnswer(query, latin) || hanNamesAnswer(query, han);
}
