import type { TextLanguage } from '../contracts/localModel';

/**
 * Whether a question names the language its answer is in, by naming a document in that language:
 * "In the Chinese installation guide, …", "英文的 Debian 版本表里…". A language named for anything
 * else says nothing of where the answer is: "How do I display Chinese text?" or "Is the installer
 * available in Chinese?" want passages in the question's own language, "除英语外的本地化任务" is
 * about the others. Search routes a named language strictly (search/languageRouting.ts), so this
 * errs towards not named. Every scan reads a bounded window per name, so it is linear in the query.
 */

/** Words for a document or a part of one, a few words after the name ("the Chinese debmake guide"). */
const DOCUMENT_WORDS = new Set(
  [
    'guide',
    'manual',
    'handbook',
    'doc',
    'document',
    'documentation',
    'faq',
    'table',
    'slide',
    'deck',
    'book',
    'tutorial',
    'wiki',
    'website',
    'article',
    'chapter',
  ].flatMap((w) => [w, `${w}s`]),
);
/**
 * The same in Chinese, found as substrings (Chinese writes no spaces between words): whole words
 * only, since a single character such as 表 or 书 is part of many others (代表, 表达, 证书).
 */
const DOCUMENT_HAN = ['幻灯片', '指南', '手册', '文档', '表格', '版本表', '发行表', '说明书', '教程', '网站', '章节'];
/** What makes a document of the name it follows directly: 英文版 (the English edition). */
const EDITION_HAN = '版';

/** How far after a name its document may be: "the Chinese Guide for Debian Maintainers", "英文的 Debian 版本表". */
const LATIN_WORDS_AFTER = 4;
/** Enough characters for LATIN_WORDS_AFTER words of ordinary length. */
const LATIN_CHARS_AFTER = 48;
const HAN_CHARS_AFTER = 16;
const CLAUSE_END = /[,;:?!，。；：？！、]/u;
const WORD = /[\p{L}\p{N}]+/gu;

/** Words before a name (articles aside) that set the language aside instead of asking for it. */
const SETS_ASIDE = new Set(['than', 'except', 'besides', 'non', 'excluding', 'without']);
const ARTICLES = new Set(['the', 'a', 'an', 'any']);
/** The same before a Chinese name; 删除 (delete) ends in 除 but sets nothing aside. */
const SETS_ASIDE_HAN = ['除了', '除', '非', '不要', '不是'];

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
  if (words.some((w) => DOCUMENT_WORDS.has(w))) return true;
  return DOCUMENT_HAN.some((noun) => after.includes(noun)) || after.replace(/^的/, '').startsWith(EDITION_HAN);
}

function latinNamesAnswer(query: string, names: readonly string[]): boolean {
  let setAside = false;
  for (const match of query.matchAll(WORD)) {
    const word = match[0].toLowerCase();
    if (names.includes(word) && !setAside) {
      const end = (match.index ?? 0) + match[0].length;
      if (namesDocument(clauseAfter(query, end, LATIN_CHARS_AFTER))) return true;
    }
    // An article keeps what came before it: "other than the Chinese guide".
    if (!ARTICLES.has(word)) setAside = SETS_ASIDE.has(word);
  }
  return false;
}

function hanNamesAnswer(query: string, names: readonly string[]): boolean {
  for (const name of names) {
    for (let at = query.indexOf(name); at !== -1; at = query.indexOf(name, at + name.length)) {
      const before = query.slice(Math.max(0, at - 3), at).trimEnd();
      const setAside = SETS_ASIDE_HAN.some((p) => before.endsWith(p)) && !before.endsWith('删除');
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
