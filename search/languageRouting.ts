import type { TextLanguage } from '../contracts/localModel';
import { wordsBesideIdentifiers } from './identifierTerms';
import { namesAnswerLanguage } from './namedLanguage';

/**
 * Language-aware ranking: a question asked in one language should not get a top hit in another
 * unless it asks across languages. Measured on the retrieval eval (eval/retrieval, held-out
 * half): see docs/retrieval-eval.md for what it changed.
 *
 * "Language" here is the script that dominates a text: Han (Chinese) or Latin (English and the
 * other Latin-script languages); a text dominated by neither (Cyrillic, kana...) is left alone.
 * (TextLanguage is the one of contracts/localModel.ts, re-exported for the modules that route.)
 */
export type { TextLanguage };

const HAN = /\p{sc=Han}/u;
const LATIN = /\p{sc=Latin}/u;
const LETTER = /\p{L}/u;
/**
 * A Chinese word is one to three Han characters, an English one about five Latin letters, so a
 * Han character weighs about as much as five letters; a Chinese passage quoting commands and
 * paths is still Chinese.
 */
const HAN_WEIGHT = 5;
/** Only the first characters are read: enough to tell, and linear in nothing more than this. */
export const LANGUAGE_SAMPLE_CHARS = 4000;

/** Letters of each script in some text. */
interface ScriptCounts {
  han: number;
  latin: number;
  other: number;
}

/**
 * The letters of the prose and, apart, of the code (fenced blocks and `inline spans`) in one pass:
 * a Chinese manual's section that is mostly a listing or a control file is still Chinese.
 */
function countScripts(sample: string): { prose: ScriptCounts; code: ScriptCounts } {
  const prose = { han: 0, latin: 0, other: 0 };
  const code = { han: 0, latin: 0, other: 0 };
  let fenced = false;
  let inline = false;
  let lineStart = true;
  let i = 0;
  for (const ch of sample) {
    if (lineStart && sample.startsWith('```', i)) fenced = !fenced;
    i += ch.length;
    lineStart = ch === '\n';
    if (lineStart) inline = false;
    else if (ch === '`' && !fenced) inline = !inline;
    const counts = fenced || inline ? code : prose;
    if (HAN.test(ch)) counts.han++;
    else if (LATIN.test(ch)) counts.latin++;
    else if (LETTER.test(ch)) counts.other++;
  }
  return { prose, code };
}

function dominant({ han, latin, other }: ScriptCounts): TextLanguage | null {
  const hanWeighted = han * HAN_WEIGHT;
  if (hanWeighted + latin === 0 || other > hanWeighted + latin) return null;
  return hanWeighted >= latin ? 'zh' : 'en';
}

/** The dominant script of a text's prose; of its code when it has no prose letters. */
export function languageOf(text: string): TextLanguage | null {
  const sample = text.length > LANGUAGE_SAMPLE_CHARS ? text.slice(0, LANGUAGE_SAMPLE_CHARS) : text;
  const { prose, code } = countScripts(sample);
  return prose.han + prose.latin + prose.other > 0 ? dominant(prose) : dominant(code);
}

/** The language the answer should be in, and whether the question named it. */
export interface WantedLanguage {
  language: TextLanguage;
  /** The question named the other language than its own ("In the Chinese guide, …"). */
  named: boolean;
}

/**
 * The language the answer should be in: the other language when the question names it as the
 * answer's (search/namedLanguage.ts: "What does the Chinese guide say about…"), its own otherwise;
 * null when the question's language cannot be told. The question's language is that of its words
 * beside the identifiers (`Installed-Size 字段` is Chinese), and a query of identifiers only
 * (`start-stop-daemon`, `/var/lib/dpkg/info`) has none: code is written alike in every language.
 */
export function languageWanted(query: string): WantedLanguage | null {
  const words = wordsBesideIdentifiers(query);
  if (words.length === 0) return null;
  const own = languageOf(words);
  if (own === null) return null;
  const other = own === 'en' ? 'zh' : 'en';
  return namesAnswerLanguage(query, other) ? { language: other, named: true } : { language: own, named: false };
}

/** The language the answer should be in (languageWanted), without how it was told. */
export function wantedLanguage(query: string): TextLanguage | null {
  return languageWanted(query)?.language ?? null;
}

/** What search multiplies the fused score of a hit in another language than the wanted one by. */
export interface LanguageRouting {
  /** When the wanted language is the question's own. */
  otherLanguageFactor: number;
  /** When the question named a document in the other language ("In the Chinese guide, …"). */
  namedLanguageFactor: number;
}

/**
 * Both chosen on the tuning half of the retrieval eval (docs/retrieval-eval.md). A question in its
 * own language may still be best answered by a passage in the other (0.5, from 0, 0.25, 0.5 and
 * 0.75, halved the questions whose top hit was in the wrong language and raised recall). A question
 * that names the language of its answer has said where the answer is: every hit in that language
 * comes first (0, from 0, 0.25 and 0.5).
 */
export const LANGUAGE_ROUTING: LanguageRouting = { otherLanguageFactor: 0.5, namedLanguageFactor: 0 };

export interface Scored {
  chunkId: string;
  score: number;
}

/** A hit after routing: its score multiplied by `languageFactor` (1 unless it was demoted). */
export type Routed<T extends Scored> = T & { languageFactor: number };

/**
 * Multiplies the fused score of every hit in another language than `wanted` by `factor` and
 * re-sorts (stable for equal scores); 0 puts every other-language hit after every hit in the
 * wanted language. Hits whose language cannot be told keep their score.
 */
export function preferLanguage<T extends Scored>(
  hits: readonly T[],
  languageOfHit: (hit: T) => TextLanguage | null,
  wanted: TextLanguage | null,
  factor: number,
): Routed<T>[] {
  if (wanted === null || factor === 1) return hits.map((hit) => ({ ...hit, languageFactor: 1 }));
  return hits
    .map((hit, i) => {
      const language = languageOfHit(hit);
      const other = language !== null && language !== wanted;
      const languageFactor = other ? factor : 1;
      return { hit: { ...hit, score: hit.score * languageFactor, languageFactor }, i, other };
    })
    .sort((a, b) => b.hit.score - a.hit.score || Number(a.other) - Number(b.other) || a.i - b.i)
    .map((x) => x.hit);
}

/** preferLanguage with the factor the query calls for: the named-language factor when it named one. */
export function routeByLanguage<T extends Scored>(
  hits: readonly T[],
  languageOfHit: (hit: T) => TextLanguage | null,
  query: string,
  routing: LanguageRouting = LANGUAGE_ROUTING,
): Routed<T>[] {
  const wanted = languageWanted(query);
  const factor = wanted?.named ? routing.namedLanguageFactor : routing.otherLanguageFactor;
  return preferLanguage(hits, languageOfHit, wanted?.language ?? null, factor);
}
