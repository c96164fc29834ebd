import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { CORPUS, TUNED_SETS, type Language, type ParsedDoc } from './corpus';
import { isHeldOut, type Family } from './split';

export const STYLES = ['paraphrase', 'keyword', 'cross-language', 'table-row'] as const;
export type Style = (typeof STYLES)[number];

/** One labelled question: the answer is the passage holding `quote`, in document `doc`. */
export interface Label {
  id: string;
  doc: string;
  question: string;
  /** A short distinctive piece of the answering passage, as it appears in the parsed markdown. */
  quote: string;
  /** Absent in the first two files (questions.en.json, questions.zh.json): all paraphrases. */
  style?: Style;
}

/** A label with what the report groups by, derived from its document and id. */
export interface EvalQuestion extends Required<Label> {
  set: string;
  family: Family;
  docLanguage: Language;
  /** The language the question is asked in: the document's, but the other one across languages. */
  language: Language;
  tuned: boolean;
  heldOut: boolean;
}

/** Relevance ignores layout: a chunk is relevant when it holds the quote once runs of whitespace are one space. */
export function normalise(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

const readLabels = (file: string): Label[] => JSON.parse(readFileSync(file, 'utf8')) as Label[];

/** Every labelled question: the first files per language, then one file per new set under questions/. */
export function loadLabels(): Label[] {
  const dir = path.join(__dirname, 'questions');
  return [
    ...readLabels(path.join(__dirname, 'questions.en.json')),
    ...readLabels(path.join(__dirname, 'questions.zh.json')),
    ...readdirSync(dir)
      .filter((f) => f.endsWith('.json'))
      .sort()
      .flatMap((f) => readLabels(path.join(dir, f))),
  ];
}

export function describeQuestions(labels: readonly Label[]): EvalQuestion[] {
  const byId = new Map(CORPUS.map((d) => [d.id, d]));
  return labels.flatMap((label) => {
    const doc = byId.get(label.doc);
    if (!doc) return [];
    const style = label.style ?? 'paraphrase';
    const tuned = TUNED_SETS.has(doc.set);
    const other: Language = doc.language === 'en' ? 'zh' : 'en';
    return [
      {
        ...label,
        style,
        set: doc.set,
        family: doc.family,
        docLanguage: doc.language,
        language: style === 'cross-language' ? other : doc.language,
        tuned,
        heldOut: isHeldOut(doc.family),
      },
    ];
  });
}

function occurrences(haystack: string, needle: string): number {
  let count = 0;
  for (let at = haystack.indexOf(needle); at !== -1; at = haystack.indexOf(needle, at + needle.length)) count++;
  return count;
}

/**
 * Every label must point at exactly one region of the corpus: its quote occurs once in its own
 * document's markdown, in no other document, and inside at least one child chunk (a quote cut by
 * a chunk boundary could never be retrieved; `allowCut` accepts it for chunk-size experiments,
 * where relevantChunks then takes the pieces). The question must not contain the quote, and
 * the style must be one of STYLES. Returns the problems found; the caller fails on any.
 */
export function labelProblems(labels: readonly Label[], docs: readonly ParsedDoc[], allowCut = false): string[] {
  const problems: string[] = [];
  const byId = new Map(docs.map((d) => [d.doc.id, d]));
  const markdowns = docs.map((d) => ({ id: d.doc.id, text: normalise(d.markdown) }));
  const seen = new Set<string>();
  for (const label of labels) {
    const where = `${label.id} (${label.doc})`;
    if (seen.has(label.id)) problems.push(`${where}: duplicate id`);
    seen.add(label.id);
    if (label.style !== undefined && !STYLES.includes(label.style)) problems.push(`${where}: unknown style`);
    const doc = byId.get(label.doc);
    if (!doc) {
      problems.push(`${where}: no such document in this run's corpus (${CORPUS.map((d) => d.id).join(', ')})`);
      continue;
    }
    const quote = normalise(label.quote);
    if (quote.length < 8) problems.push(`${where}: quote too short to be distinctive`);
    if (normalise(label.question).includes(quote)) problems.push(`${where}: the question contains the quote`);
    for (const md of markdowns) {
      const n = occurrences(md.text, quote);
      if (md.id === label.doc && n !== 1)
        problems.push(`${where}: quote occurs ${n} times in its document, expected exactly 1`);
      if (md.id !== label.doc && n > 0) problems.push(`${where}: quote also occurs in ${md.id}`);
    }
    if (!allowCut && !doc.children.some((c) => normalise(c.text).includes(quote)))
      problems.push(`${where}: no child chunk holds the whole quote`);
  }
  return problems;
}

/**
 * The chunk ids that answer each label: every child chunk (overlaps included) that holds its
 * quote; when a chunk boundary cuts the quote (allowed only in chunk-size experiments), every
 * chunk holding its first or its second half.
 */
export function relevantChunks(labels: readonly Label[], docs: readonly ParsedDoc[]): Map<string, Set<string>> {
  const byId = new Map(docs.map((d) => [d.doc.id, d]));
  const relevant = new Map<string, Set<string>>();
  for (const label of labels) {
    const quote = normalise(label.quote);
    const children = (byId.get(label.doc)?.children ?? []).map((c) => ({ id: c.chunkId, text: normalise(c.text) }));
    let hits = children.filter((c) => c.text.includes(quote));
    if (hits.length === 0) {
      const half = Math.floor(quote.length / 2);
      hits = children.filter((c) => c.text.includes(quote.slice(0, half)) || c.text.includes(quote.slice(half)));
    }
    relevant.set(label.id, new Set(hits.map((c) => c.id)));
  }
  return relevant;
}
