import { readFileSync } from 'node:fs';
import path from 'node:path';
import { CORPUS, type Language, type ParsedDoc } from './corpus';

/** One labelled question: the answer is the passage holding `quote`, in document `doc`. */
export interface Label {
  id: string;
  doc: string;
  question: string;
  /** A short distinctive piece of the answering passage, as it appears in the parsed markdown. */
  quote: string;
}

/** Relevance ignores layout: a chunk is relevant when it holds the quote once runs of whitespace are one space. */
export function normalise(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

export function loadLabels(language: Language): Label[] {
  const file = path.join(__dirname, `questions.${language}.json`);
  return JSON.parse(readFileSync(file, 'utf8')) as Label[];
}

function occurrences(haystack: string, needle: string): number {
  let count = 0;
  for (let at = haystack.indexOf(needle); at !== -1; at = haystack.indexOf(needle, at + needle.length)) count++;
  return count;
}

/**
 * Every label must point at exactly one region of the corpus: its quote occurs once in its own
 * document's markdown, in no other document, and inside at least one child chunk (a quote cut by
 * a chunk boundary could never be retrieved). The question must not contain the quote. Returns
 * the problems found; the caller fails on any.
 */
export function labelProblems(labels: Label[], docs: ParsedDoc[]): string[] {
  const problems: string[] = [];
  const byId = new Map(docs.map((d) => [d.doc.id, d]));
  const markdowns = docs.map((d) => ({ id: d.doc.id, text: normalise(d.markdown) }));
  const seen = new Set<string>();
  for (const label of labels) {
    const where = `${label.id} (${label.doc})`;
    if (seen.has(label.id)) problems.push(`${where}: duplicate id`);
    seen.add(label.id);
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
    if (!doc.children.some((c) => normalise(c.text).includes(quote)))
      problems.push(`${where}: no child chunk holds the whole quote`);
  }
  return problems;
}

/** The chunk ids that answer each label: every child chunk (overlaps included) that holds its quote. */
export function relevantChunks(labels: Label[], docs: ParsedDoc[]): Map<string, Set<string>> {
  const byId = new Map(docs.map((d) => [d.doc.id, d]));
  const relevant = new Map<string, Set<string>>();
  for (const label of labels) {
    const quote = normalise(label.quote);
    const children = byId.get(label.doc)?.children ?? [];
    relevant.set(label.id, new Set(children.filter((c) => normalise(c.text).includes(quote)).map((c) => c.chunkId)));
  }
  return relevant;
}
